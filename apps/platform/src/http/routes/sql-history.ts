import { RefParams, type SqlHistoryParameter } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { listRuns, recordRun } from '../../sql-runner/history.js'
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
  /** The named parameters' values, when `query` is the text as written. */
  parameters?: SqlHistoryParameter[] | undefined
}

/**
 * Records a run in the member's history. A history that cannot be written must not fail the query
 * (the answer has its results already): the failure is logged.
 */
export async function recordInHistory(ctx: PlatformContext, request: FastifyRequest, projectRef: string, query: string, run: HistoryOutcome): Promise<void> {
  const last = run.outcome?.results.at(-1)
  const error = run.failure ?? run.outcome?.error?.message
  try {
    await recordRun(ctx.db, {
      projectRef,
      userId: identityOf(request).user.id,
      query,
      durationMs: run.durationMs,
      rowCount: error === undefined ? (last?.rowCount ?? null) : null,
      parameters: run.parameters?.length ? run.parameters : null,
      ...(error !== undefined ? { error } : {}),
    })
  } catch (failure) {
    request.log.error({ err: failure }, 'could not record the run in the query history')
  }
}

/** GET /platform/projects/{ref}/sql/history: the caller's own runs on the project, newest first, searchable. */
export async function sqlHistoryRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  route(app, 'GET /platform/projects/{ref}/sql/history', async (request, _reply, input) => {
    const { ref } = parse(RefParams, request.params)
    const page = input.query
    // Any member who may run SQL in the editor (read-only first) may read their own history.
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read', ctx.accessCache)
    return listRuns(ctx.db, project.ref, identityOf(request).user.id, page)
  })
}
