import { RefParams, type AdvisorKind, type AdvisorsResponse, type Lint } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { runLints } from './run.js'
import { getPostgrestSettings, schemaList } from '../../services/rest/config.js'
import { projectAccess } from '../../http/access.js'
import type { PlatformContext } from '../../platform-context.js'
import { conflict, unavailable, parse } from '../../errors.js'
import { isDatabaseUnreachable, UNREACHABLE_MESSAGE } from '../../sql-runner/unreachable.js'
import { route } from '../../http/typed-route.js'

/**
 * The advisors: the Management API's /v1/projects/{ref}/advisors/security and /performance, and the
 * dashboard's /platform/projects/{ref}/run-lints (both kinds in one array, as Supabase Studio reads it).
 * Every member may read them (projects.read); the lints read the catalogs of a running project's
 * database over the read-only connection (observability/advisors/).
 */
export async function advisorRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  async function lints(request: FastifyRequest, kinds: AdvisorKind[]): Promise<Lint[]> {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read')
    if (project.status !== 'ACTIVE_HEALTHY') {
      throw conflict(`Project ${ref} is not ready: its status is ${project.status}, and its advisors run only when it is ACTIVE_HEALTHY`)
    }
    const settings = await getPostgrestSettings(ctx.db, ref)
    try {
      return await runLints({ port: project.port, readonlyPassword: ctx.projects.credentials(project).readonlyPassword, exposedSchemas: schemaList(settings.db_schema) }, kinds)
    } catch (error) {
      if (isDatabaseUnreachable(error)) throw unavailable(UNREACHABLE_MESSAGE)
      throw error
    }
  }

  route(app, 'GET /v1/projects/{ref}/advisors/security', async (request, _reply, input): Promise<AdvisorsResponse> => {
    // Read only to refuse another lint_type: 'sql', the one kind there is, covers every lint here.
    void input.query
    return { lints: await lints(request, ['security']) }
  })
  route(app, 'GET /v1/projects/{ref}/advisors/performance', async (request): Promise<AdvisorsResponse> => ({ lints: await lints(request, ['performance']) }))
  route(app, 'GET /platform/projects/{ref}/run-lints', async (request): Promise<Lint[]> => lints(request, ['security', 'performance']))
}
