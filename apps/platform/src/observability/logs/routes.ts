import { LogQueryParams, RefParams, type LogQueryResponse } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { runLogQuery } from './query.js'
import { projectAccess } from '../../http/access.js'
import type { PlatformContext } from '../../platform-context.js'
import { parse } from '../../errors.js'
import { route } from '../../http/typed-route.js'

/**
 * The log explorer's queries over the log store (observability/logs/): logs.all as the dashboard and the
 * Management API call it (BigQuery-flavoured, a table per source), and v1 `logs` as the official MCP server
 * calls it (ClickHouse-flavoured, one `logs` table); both read either form. Any member may query.
 */
export async function logRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const handler = async (request: FastifyRequest): Promise<LogQueryResponse> => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read')
    const query = parse(LogQueryParams, request.query)
    return runLogQuery(ctx.db, project.ref, query)
  }
  route(app, 'GET /platform/projects/{ref}/analytics/endpoints/logs.all', handler)
  route(app, 'GET /v1/projects/{ref}/analytics/endpoints/logs.all', handler)
  app.get('/v1/projects/:ref/analytics/endpoints/logs', handler)
}
