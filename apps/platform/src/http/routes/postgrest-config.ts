import { PostgrestConfigUpdateBody, RefParams, roleCan, type PostgrestConfigResponse } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { withAdminClient } from '../../control/bootstrap-roles.js'
import { ensureProjectKeys } from '../../keys/project-keys.js'
import { getPostgrestSettings, schemaList, updatePostgrestSettings } from '../../services/rest/config.js'
import { projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, conflict, parse } from '../../errors.js'
import { route } from '../typed-route.js'

/**
 * The data API's settings (exposed schemas, extra search path, max rows, pool): the Management API's
 * /v1/projects/{ref}/postgrest and the dashboard's /platform/projects/{ref}/config/postgrest, one shape.
 * Every member reads them (the JWT secret only with service_api_keys.read); changing them is a project
 * setting (projects.update). A change restarts the project's PostgREST with the new settings.
 */
export async function postgrestConfigRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const read = async (request: FastifyRequest): Promise<PostgrestConfigResponse> => {
    const { ref } = parse(RefParams, request.params)
    const { project, role } = await projectAccess(ctx.db, request, ref, 'projects.read')
    const settings = await getPostgrestSettings(ctx.db, project.ref)
    if (!roleCan(role, 'service_api_keys.read')) return settings
    return { ...settings, jwt_secret: (await ensureProjectKeys(ctx.db, ctx.secrets, project.ref)).jwtSecret }
  }

  const update = async (request: FastifyRequest): Promise<PostgrestConfigResponse> => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.update')
    const change = parse(PostgrestConfigUpdateBody, request.body ?? {})
    const named = [...schemaList(change.db_schema ?? ''), ...schemaList(change.db_extra_search_path ?? '')]
    if (named.length) {
      // PostgREST refuses to start on a schema that does not exist: refuse it here, with its name.
      if (project.status !== 'ACTIVE_HEALTHY') throw conflict('The project must be running to change the schemas of its data API')
      const { rows } = await withAdminClient(ctx.projects.adminConnection(project), (client) =>
        client.query<{ name: string }>('SELECT nspname AS name FROM pg_namespace WHERE nspname = ANY($1::text[])', [named]),
      )
      const missing = named.filter((name) => !rows.some((row) => row.name === name))
      if (missing.length) throw invalidInput(`No such schema in the project database: ${missing.join(', ')}`)
    }
    const settings = await updatePostgrestSettings(ctx.db, project.ref, change)
    await ctx.rest.configChanged(project.ref)
    return settings
  }

  route(app, 'GET /v1/projects/{ref}/postgrest', read)
  route(app, 'PATCH /v1/projects/{ref}/postgrest', update)
  route(app, 'GET /platform/projects/{ref}/config/postgrest', read)
  route(app, 'PATCH /platform/projects/{ref}/config/postgrest', update)
}
