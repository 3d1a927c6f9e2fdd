import { RefParams, type SqlHistoryParameter } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { listRuns, type HistoryEntry, type QueryHistory } from '../../sql-runner/history.js'
import type { RunOutcome } from '../../sql-runner/runner.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { parse } from '../../errors.js'
import { route } from '../typed-route.js'

/** What the member's query history keeps of a run: the last result's row count, or the error. */
export interface HistoryOutcome {
  durationMs: number
  outcome?: RunOutcome
  /** A failure outside SQL (the database not reachable, a server error). */
  failure?: string
}

/**
 * Starts a run's entry in the member's history (sql-runner/history.ts): written while the run goes. A history that
 * cannot be written never fails the query (the answer has its results already): the failure is logged there.
 */
export function startInHistory(
  history: QueryHistory,
  request: FastifyRequest,
  projectRef: string,
  query: string,
  parameters: SqlHistoryParameter[] | undefined,
): HistoryEntry {
  return history.start({ projectRef, userId: identityOf(request).user.id, query, parameters: parameters?.length ? parameters : null })
}

/** Finishes a run's entry with how it ended: the last result's row count, or the error. */
export function finishInHistory(entry: HistoryEntry, run: HistoryOutcome): void {
  const last = run.outcome?.results.at(-1)
  const error = run.failure ?? run.outcome?.error?.message
  entry.finish({ durationMs: run.durationMs, rowCount: error === undefined ? (last?.rowCount ?? null) : null, ...(error !== undefined ? { error } : {}) })
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
