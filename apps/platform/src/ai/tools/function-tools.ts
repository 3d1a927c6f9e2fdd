import { FUNCTION_LIMITS, FunctionDeployMetadata, FunctionSlug } from '@stratum/contracts'
import { z } from 'zod'
import { assembleDeployInput, normalizeFilePath } from '../../services/functions/deploy-input.js'
import { publishFunction } from '../../services/functions/publish.js'
import { findFunction, listFunctions, toFunction } from '../../services/functions/store.js'
import { defineTool } from './types.js'

/** Edge functions as the Management API's function routes handle them: list for every member, deploy with 'sql.write'. */

export const listEdgeFunctionsTool = defineTool({
  name: 'list_edge_functions',
  description: 'Lists the project\'s edge functions: slug, name, version, status, entrypoint, whether a JWT is required, last update.',
  inputSchema: z.object({}),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context) => ({ data: (await listFunctions(context.platform.db, context.project.ref)).map((row) => toFunction(row)) }),
})

const FunctionFileInput = z.object({
  name: z.string().min(1).max(FUNCTION_LIMITS.maxPathLength).describe('Path inside the function, e.g. index.ts or lib/util.ts'),
  content: z.string().max(FUNCTION_LIMITS.maxFileBytes),
})

export const deployEdgeFunctionTool = defineTool({
  name: 'deploy_edge_function',
  description:
    'Deploys an edge function (Deno, TypeScript) to the project: a new function, or a new version replacing the one with the same name. It then answers at {project URL}/functions/v1/{name}.',
  inputSchema: z.object({
    name: FunctionSlug.describe('The function\'s slug: letters, digits, - and _'),
    entrypoint_path: z.string().min(1).max(FUNCTION_LIMITS.maxPathLength).default('index.ts'),
    import_map_path: z.string().max(FUNCTION_LIMITS.maxPathLength).optional(),
    verify_jwt: z.boolean().optional().describe('Require a valid JWT (the anon key or a user\'s) on every request; true by default'),
    files: z.array(FunctionFileInput).min(1).max(FUNCTION_LIMITS.maxFiles),
  }),
  scope: 'project',
  writes: 'always',
  permission: 'sql.write',
  run: async (context, input) => {
    const metadata = FunctionDeployMetadata.parse({ entrypoint_path: input.entrypoint_path, import_map_path: input.import_map_path, verify_jwt: input.verify_jwt, name: input.name })
    // Every file here has a name of its own: a bad one is refused, never taken as the entrypoint (as a
    // nameless multipart part would be).
    const files = input.files.map((file) => ({ name: normalizeFilePath(file.name), content: Buffer.from(file.content, 'utf8') }))
    const deploy = assembleDeployInput(metadata, files, [])
    const replaced = (await findFunction(context.platform.db, context.project.ref, input.name)) !== null
    const row = await publishFunction(context.platform, context.project.ref, input.name, deploy, context.caller.id)
    return { note: `Function ${input.name} ${replaced ? `replaced (version ${row.version})` : 'deployed'}.`, data: toFunction(row) }
  },
})
