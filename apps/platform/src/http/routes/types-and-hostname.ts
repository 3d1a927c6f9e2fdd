import { RefParams, type TypescriptResponse } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { customHostnameUnavailable } from '../../hostname/custom-hostname.js'
import { metaTargetOf, type MetaTarget } from '../../meta/service.js'
import { TypegenService } from '../../meta/typegen/service.js'
import { projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { conflict, failed, unavailable, parse } from '../../errors.js'
import { isDatabaseUnreachable, UNREACHABLE_MESSAGE } from '../../sql-runner/unreachable.js'
import { route } from '../typed-route.js'

/** `GET /v1/projects/{ref}/types/typescript` and `GET /v1/projects/{ref}/custom-hostname`. */
export async function typesAndHostnameRoutes(app: FastifyInstance, ctx: PlatformContext, typegen = new TypegenService(ctx.projects.connections)): Promise<void> {
  app.addHook('onClose', () => typegen.close())

  async function target(request: FastifyRequest, ref: string): Promise<MetaTarget> {
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read')
    if (project.status !== 'ACTIVE_HEALTHY') {
      throw conflict(`Project ${ref} is not ready: its status is ${project.status}, and types can be generated only when it is ACTIVE_HEALTHY`)
    }
    return metaTargetOf(ctx, project)
  }

  route(app, 'GET /v1/projects/{ref}/types/typescript', async (request, _reply, input): Promise<TypescriptResponse> => {
    const { ref } = parse(RefParams, request.params)
    const query = input.query
    const project = await target(request, ref)
    try {
      return { types: await typegen.typescript(project, query.included_schemas) }
    } catch (error) {
      if (isDatabaseUnreachable(error)) throw unavailable(UNREACHABLE_MESSAGE)
      request.log.error({ err: error, ref }, 'type generation failed')
      throw failed(`Failed to generate TypeScript types: ${(error as Error).message}`)
    }
  })

  route(app, 'GET /v1/projects/{ref}/custom-hostname', async (request) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    throw customHostnameUnavailable(ref)
  })
}
