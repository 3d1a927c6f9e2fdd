import multipart from '@fastify/multipart'
import { DeployFunctionQuery, FUNCTION_LIMITS, FunctionParams, RefParams } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { functionBodyMultipart } from './body.js'
import { readDeployForm } from './deploy-input.js'
import { publishFunction } from './publish.js'
import { deleteFunction, findFunction, listFunctions, readFunctionFiles, toFunction } from './store.js'
import { identityOf, projectAccess } from '../../http/access.js'
import type { PlatformContext } from '../../platform-context.js'
import { notFound, parse } from '../../errors.js'
import { route } from '../../http/typed-route.js'

/**
 * Edge functions (Management API paths): deployed, listed, downloaded, deleted; run by
 * services/functions behind the gateway's /functions/v1. Reads: 'projects.read' (docs/ARCHITECTURE.md permission table: read project / project_edge_function docs).
 * Deploy and delete: 'sql.write' (changing what runs against the project's data: Owner,
 * Administrator, Developer; not Read-only).
 */
export async function functionRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  // Encapsulated: the multipart parser exists for these routes only.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      preservePath: true, // keep 'lib/util.ts', not just 'util.ts'
      limits: {
        fileSize: FUNCTION_LIMITS.maxFileBytes,
        fieldSize: FUNCTION_LIMITS.maxFileBytes,
        files: FUNCTION_LIMITS.maxFiles + 1,
        fields: 20,
        parts: FUNCTION_LIMITS.maxFiles + 21,
      },
    })

    route(scope, 'GET /v1/projects/{ref}/functions', async (request) => {
      const { ref } = parse(RefParams, request.params)
      await projectAccess(ctx.db, request, ref, 'projects.read')
      return (await listFunctions(ctx.db, ref)).map((row) => toFunction(row))
    })

    route(scope, 'GET /v1/projects/{ref}/functions/{function_slug}', async (request) => {
      const { ref, function_slug } = parse(FunctionParams, request.params)
      await projectAccess(ctx.db, request, ref, 'projects.read')
      const row = await findFunction(ctx.db, ref, function_slug)
      if (!row) throw notFound(`Function ${function_slug} not found`)
      return toFunction(row)
    })

    // The deployed files as multipart/form-data (metadata part + one 'file' part per file).
    route(scope, 'GET /v1/projects/{ref}/functions/{function_slug}/body', async (request, reply) => {
      const { ref, function_slug } = parse(FunctionParams, request.params)
      await projectAccess(ctx.db, request, ref, 'projects.read')
      const row = await findFunction(ctx.db, ref, function_slug)
      if (!row) throw notFound(`Function ${function_slug} not found`)
      const { contentType, body } = functionBodyMultipart(row, readFunctionFiles(ctx.config.dataDir, row))
      return reply.header('Content-Type', contentType).send(body)
    })

    // The same files as JSON text, for the dashboard's details page.
    route(scope, 'GET /platform/projects/{ref}/functions/{function_slug}/files', async (request) => {
      const { ref, function_slug } = parse(FunctionParams, request.params)
      await projectAccess(ctx.db, request, ref, 'projects.read')
      const row = await findFunction(ctx.db, ref, function_slug)
      if (!row) throw notFound(`Function ${function_slug} not found`)
      const files = readFunctionFiles(ctx.config.dataDir, row)
      return { files: files.map((f) => ({ name: f.name, size: f.content.length, content: f.content.toString('utf8') })) }
    })

    route(scope, 'POST /v1/projects/{ref}/functions/deploy', async (request, reply) => {
      const { ref } = parse(RefParams, request.params)
      await projectAccess(ctx.db, request, ref, 'sql.write')
      const { slug } = parse(DeployFunctionQuery, request.query)
      const input = await readDeployForm(request)
      const row = await publishFunction(ctx, ref, slug, input, identityOf(request).user.id)
      reply.code(201)
      return toFunction(row)
    })

    route(scope, 'DELETE /v1/projects/{ref}/functions/{function_slug}', async (request) => {
      const { ref, function_slug } = parse(FunctionParams, request.params)
      await projectAccess(ctx.db, request, ref, 'sql.write')
      const row = await deleteFunction(ctx.db, ctx.config.dataDir, ref, function_slug)
      if (!row) throw notFound(`Function ${function_slug} not found`)
      await ctx.functions.functionChanged(ref, function_slug)
      return toFunction(row, 'REMOVED')
    })
  })
}
