import { RealtimeConfigUpdateBody, RefParams, type RealtimeConfigResponse } from '@stratum/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { realtimeConfigInForce, getStoredRealtimeConfig, updateRealtimeConfig } from '../../services/realtime/config.js'
import { projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { parse } from '../../errors.js'
import { route } from '../typed-route.js'

/**
 * Realtime's settings (limits, private channels only, suspend) and its shutdown: the Management API's
 * /v1/projects/{ref}/config/realtime and the dashboard's /platform one. Every member reads them; changing them
 * or ending the connections is a project setting (projects.update). A change disconnects the project's clients,
 * which reconnect under the new settings (services/realtime/service.ts).
 */
export async function realtimeConfigRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const settings = async (ref: string): Promise<RealtimeConfigResponse> =>
    realtimeConfigInForce(await getStoredRealtimeConfig(ctx.db, ref), ctx.config.realtimeDefaults)

  const read = async (request: FastifyRequest): Promise<RealtimeConfigResponse> => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read')
    return settings(project.ref)
  }

  const update = async (request: FastifyRequest): Promise<string> => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.update')
    await updateRealtimeConfig(ctx.db, project.ref, parse(RealtimeConfigUpdateBody, request.body ?? {}))
    // In force from the answer on (the database's notification would follow a moment later), the clients of before
    // disconnected by then: a client that connects once it has the answer is one of the clients of after.
    ctx.directory.changed(project.ref)
    await ctx.realtime.settingsChanged(project.ref)
    return project.ref
  }

  const shutdown = async (request: FastifyRequest, reply: FastifyReply) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.update')
    await ctx.realtime.shutdown(project.ref)
    return reply.code(204).send()
  }

  route(app, 'GET /v1/projects/{ref}/config/realtime', read)
  route(app, 'PATCH /v1/projects/{ref}/config/realtime', async (request, reply) => {
    await update(request)
    return reply.code(204).send()
  })
  route(app, 'POST /v1/projects/{ref}/config/realtime/shutdown', shutdown)
  route(app, 'GET /platform/projects/{ref}/config/realtime', read)
  route(app, 'PATCH /platform/projects/{ref}/config/realtime', async (request) => settings(await update(request)))
  route(app, 'POST /platform/projects/{ref}/config/realtime/shutdown', shutdown)
}
