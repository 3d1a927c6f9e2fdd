import { RefParams, type SqlHistoryParameter } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { listRuns, type QueryHistory } from '../../sql-runner/history.js'
import type { RunOutcome } from '../../sql-runner/runner.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { parse } from '../../errors.js'
import { route } from '../typed-route.js'

/** How a run ended, for the member's query history: its last result's row count, or the error. */
export interface HistoryOutcome {
  outcome?: RunOutcome
  /** A failure outside SQL (the database not reachable, a server error). */
  failure?: string
}

/**
 * Records a run in the member's history (sql-runner/history.ts), written after the answer. A history that cannot be
 * written never fails the query (the answer has its results already): the failure is logged there. The promise
 * settles once the entry is written.
 */
export function recordInHistory(
  history: QueryHistory,
  request: FastifyRequest,
  run: { projectRef: string; query: string; parameters: SqlHistoryParameter[] | undefined; ranAt: Date; durationMs: number } & HistoryOutcome,
): Promise<void> {
  const last = run.outcome?.results.at(-1)
  const error = run.failure ?? run.outcome?.error?.message
  return history.record({
    projectRef: run.projectRef,
    userId: identityOf(request).user.id,
    query: run.query,
    parameters: run.parameters,
    ranAt: run.ranAt,
    durationMs: run.durationMs,
    rowCount: error === undefined ? (last?.rowCount ?? null) : null,
    ...(error !== undefined ? { error } : {}),
  })
}

/** GET /platform/projects/{ref}/sql/history: the caller's own runs on the project, newest first, searchable. */
export async function sqlHistoryRoutes(app: FastifyInstance, ctx: PlatformContext, history: QueryHistory): Promise<void> {
  route(app, 'GET /platform/projects/{ref}/sql/history', async (request, _reply, input) => {
    const { ref } = parse(RefParams, request.params)
    const page = input.query
    // Any member who may run SQL in the editor (read-only first) may read their own history.
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read', ctx.accessCache)
    // The runs that already answered are listed with how they ended.
    await history.settled()
    return listRuns(ctx.db, project.ref, identityOf(request).user.id, page)
  })
}
