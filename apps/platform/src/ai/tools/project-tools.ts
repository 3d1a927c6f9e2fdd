import { z } from 'zod'
import { listProjectsForUser, type ProjectRow } from '../../control/project-store.js'
import { publicApiBase } from '../../gateway/public-url.js'
import { ensureProjectKeys } from '../../keys/project-keys.js'
import { defineTool, type ToolContext } from './types.js'

/** A project as the Management API's GET /v1/projects/{ref} describes it, without the database's host details. */
const describeProject = (row: ProjectRow) => ({
  id: row.ref,
  ref: row.ref,
  name: row.name,
  organization_slug: row.organization_slug,
  region: row.region,
  status: row.status,
  postgres_version: row.postgres_version || row.postgres_major,
  compute_size: row.compute_size,
  created_at: row.inserted_at.toISOString(),
})

export const listProjectsTool = defineTool({
  name: 'list_projects',
  description: 'Lists the projects you can reach: ref (the project_id other tools take), name, organization, status, Postgres version.',
  inputSchema: z.object({}),
  scope: 'account',
  writes: 'never',
  permission: 'projects.read',
  run: async (context: ToolContext) => {
    // A connection scoped to one project sees only that one.
    const rows = (await listProjectsForUser(context.platform.db, context.caller.id)).filter((row) => context.projectRef === null || row.ref === context.projectRef)
    return { data: rows.map(describeProject) }
  },
})

export const getProjectTool = defineTool({
  name: 'get_project',
  description: 'Gets one project: ref, name, organization, status, region, Postgres version, compute size.',
  inputSchema: z.object({}),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context) => ({ data: describeProject(context.project) }),
})

export const getProjectUrlTool = defineTool({
  name: 'get_project_url',
  description: 'Gets the project\'s API URL: the base of /rest/v1, /auth/v1, /storage/v1 and /functions/v1, what supabase-js takes as its URL.',
  inputSchema: z.object({}),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context) => ({ data: { url: publicApiBase(context.platform.config, context.project.ref, context.origin?.host, context.origin?.protocol) } }),
})

/**
 * The anon key only: every member may see it (the API keys route's rule) and it is safe in browsers
 * with row level security. The service_role key bypasses RLS: no tool hands it to a model.
 */
export const getPublishableKeysTool = defineTool({
  name: 'get_publishable_keys',
  description:
    'Gets the project\'s client-safe API key (the anon key), for apps using supabase-js with row level security. The secret service_role key is never given out here.',
  inputSchema: z.object({}),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context) => {
    const keys = await ensureProjectKeys(context.platform.db, context.platform.secrets, context.project.ref)
    return {
      ...(keys.legacyEnabled ? {} : { note: 'The anon key is disabled in this project\'s API settings (legacy keys off): requests made with it are refused.' }),
      data: [{ name: 'anon', api_key: keys.anonKey, type: 'legacy', disabled: !keys.legacyEnabled }],
    }
  },
})
