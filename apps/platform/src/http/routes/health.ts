import { HealthQuery, RefParams } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { checkHealth, DEFAULT_HEALTH_TIMEOUT_MS } from '../../observability/health.js'
import { projectAccess } from '../access.js'
import type { PlatformContext } from '../context.js'
import { parse } from '../errors.js'

/**
 * GET /v1/projects/{ref}/health: each asked service checked for real (observability/health.ts). Every
 * member may read it; a paused project answers 200 with its services unhealthy, not an error. The
 * dashboard's own 'Connecting to project' check (/platform/projects/{ref}/database/health) stays the
 * single quick database probe in projects.ts.
 */
export async function healthRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  app.get('/v1/projects/:ref/health', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const query = parse(HealthQuery, request.query)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read')
    return checkHealth(ctx, project, query.services, query.timeout_ms ?? DEFAULT_HEALTH_TIMEOUT_MS)
  })
}
