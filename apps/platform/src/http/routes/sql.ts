import {
  RefParams,
  roleCan,
  SQL_DEFAULT_TIMEOUT_MS,
  SQL_MAX_RESULT_BYTES,
  SQL_MAX_RESULT_ROWS,
  SQL_RESULTS_TRUNCATED_MESSAGE,
  V1RunQueryBody,
  SQL_STREAM_MEDIA_TYPE,
  WRITE_CONNECTION_REQUIRED,
} from '@stratum/contracts'
import { PassThrough } from 'node:stream'
import { applyAutoLimit, needsWriteConnection } from '@stratum/sql'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { READONLY_ROLE } from '../../control/bootstrap-roles.js'
import type { ProjectRow } from '../../control/project-store.js'
import { jsonRowsArray } from '../../sql-runner/json-rows.js'
import { queryResponseJson, type EncodedQueryResponse } from '../../sql-runner/query-response.js'
import type { RowStream } from '../../sql-runner/capped-query.js'
import type { RunOutcome } from '../../sql-runner/runner.js'
import { MemberQueryLimiter, memberLimitMessage, type MemberQuerySlot } from '../../sql-runner/member-limiter.js'
import { SqlService } from '../../sql-runner/service.js'
import { migrationRoutes } from './migrations.js'
import { recordInHistory, sqlHistoryRoutes, type HistoryOutcome } from './sql-history.js'
import { QueryHistory } from '../../sql-runner/history.js'
import { assertCan } from '../../auth/project-access.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { DomainError, invalidInput, forbidden, notFound, conflict, rateLimited, unavailable, parse } from '../../errors.js'
import { STATUS_OF } from '../errors.js'
import { isDatabaseUnreachable, UNREACHABLE_MESSAGE } from '../../sql-runner/unreachable.js'
import { route } from '../typed-route.js'

async function reaching<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (isDatabaseUnreachable(error)) throw unavailable(UNREACHABLE_MESSAGE)
    throw error
  }
}

function assertActive(project: ProjectRow): void {
  if (project.status !== 'ACTIVE_HEALTHY') {
    throw conflict(`Project ${project.ref} is not ready: its status is ${project.status}, and queries run only when it is ACTIVE_HEALTHY`)
  }
}

/** The editor query's answer: 201 with results, 403 to ask for the full connection, or 400. */
function queryAnswer(outcome: RunOutcome, context: { readOnly: boolean; autoLimit: number | undefined; canWrite: boolean }): { status: number; json: string } {
  const payload: EncodedQueryResponse = {
    results: outcome.results,
    read_only: context.readOnly,
    ...(context.autoLimit !== undefined ? { autoLimit: context.autoLimit } : {}),
    truncated: outcome.truncated,
    ...(outcome.truncated ? { truncated_message: SQL_RESULTS_TRUNCATED_MESSAGE } : {}),
    notices: outcome.notices,
    warnings: outcome.warnings,
  }
  const error = outcome.error
  if (!error) return { status: 201, json: queryResponseJson(payload) }
  if (context.readOnly && needsWriteConnection(error)) {
    const refusal = { ...payload, message: error.message, code: WRITE_CONNECTION_REQUIRED, can_run_with_full_connection: context.canWrite, error }
    return { status: 403, json: queryResponseJson(refusal) }
  }
  return { status: 400, json: queryResponseJson({ ...payload, message: error.message, ...(error.code ? { code: error.code } : {}), error }) }
}

/** A failure once a streamed answer has begun: its status and message go in the end frame. */
function failureAnswer(error: unknown, request: FastifyRequest): { status: number; json: string } {
  if (error instanceof DomainError) return { status: STATUS_OF[error.kind], json: JSON.stringify({ message: error.message }) }
  request.log.error({ err: error }, 'streamed query failed')
  return { status: 500, json: JSON.stringify({ message: 'Internal server error' }) }
}

/** How a failure outside SQL reads in the member's history: the platform's message, never an internal one. */
const failureText = (error: unknown) => (error instanceof DomainError ? error.message : 'Internal server error')

/**
 * Running SQL on a project's database: the SQL editor's call (read-only first, with the
 * WRITE_CONNECTION_REQUIRED answer that lets the dashboard ask to escalate), ongoing queries with
 * cancel and terminate, and the Management API's database/query. Each member runs at most
 * MEMBER_QUERY_CONCURRENCY queries at once per project (member-limiter.ts).
 */
export async function sqlRoutes(
  app: FastifyInstance,
  ctx: PlatformContext,
  sql = new SqlService(ctx.projects),
  members = new MemberQueryLimiter(),
): Promise<void> {

  /** The member's share of the project's sessions for one query, or a 429 when it is used up. */
  function memberSlot(request: FastifyRequest, reply: FastifyReply, project: ProjectRow): MemberQuerySlot {
    const slot = members.tryAcquire(identityOf(request).user.id, project.ref)
    if (slot) return slot
    reply.header('retry-after', '1')
    throw rateLimited(memberLimitMessage(members.limit))
  }

  const history = new QueryHistory(ctx.db, app.log)
  // Ends of runs not yet written are written before the platform's database closes.
  app.addHook('onClose', async () => {
    await history.settled()
  })

  async function access(request: FastifyRequest) {
    const { ref } = parse(RefParams, request.params)
    const found = await projectAccess(ctx.db, request, ref, 'projects.read', ctx.accessCache)
    return found
  }

  route(app, 'POST /platform/pg-meta/{ref}/query', async (request, reply, input) => {
    const { project, role } = await access(request)
    const body = input.body
    if (!body.read_only) assertCan(role, 'sql.write')
    assertActive(project)
    const limited = body.row_limit && body.row_limit > 0 ? applyAutoLimit(body.query, body.row_limit) : { sql: body.query, autoLimit: undefined }
    const mode = body.read_only ? 'read-only' : 'full'
    const answer = (outcome: RunOutcome) => queryAnswer(outcome, { readOnly: body.read_only, autoLimit: limited.autoLimit, canWrite: roleCan(role, 'sql.write') })
    const slot = memberSlot(request, reply, project)
    const ranAt = new Date()
    const started = performance.now()
    /** The run goes in the member's history, except a read-only refusal the dashboard offers to run again with write access. */
    const remember = async (run: HistoryOutcome) => {
      if (!body.history) return
      const error = run.outcome?.error
      if (error && body.read_only && roleCan(role, 'sql.write') && needsWriteConnection(error)) return
      const query = body.history_query ?? body.query
      const written = recordInHistory(history, request, { projectRef: project.ref, query, parameters: body.history_parameters, ranAt, durationMs: performance.now() - started, ...run })
      // The answer does not wait for the entry: the history's listing does (QueryHistory.settled), so a member who
      // opens it after the answer reads this run. Only a history backed up makes the answer wait, as backpressure.
      if (history.backedUp) await written
    }
    // The editor shows values as Postgres prints them (bytea as \x..., arrays as {1,2}).
    const options = { timeoutMs: body.statement_timeout_ms, onSession: slot.session, values: 'postgres' as const }

    if ((request.headers.accept ?? '').includes(SQL_STREAM_MEDIA_TYPE)) {
      const frames = new PassThrough()
      // A reader that went away (tab closed) must not fail the query's session: frames are dropped.
      frames.on('error', () => {})
      const write = (line: string) => {
        if (!frames.destroyed) frames.write(`${line}\n`)
      }
      const stream: RowStream = {
        columns: (result, fields) => write(`{"kind":"columns","result":${result},"columns":${JSON.stringify(fields.map((f) => ({ name: f.name, data_type_id: f.dataTypeID })))}}`),
        rows: (result, batch) => write(`{"kind":"rows","result":${result},"rows":${jsonRowsArray(batch)}}`),
      }
      const finish = async () => {
        let outcome: RunOutcome | undefined
        let failure: unknown
        try {
          outcome = await reaching(() => sql.run(project, mode, limited.sql, { ...options, stream }))
        } catch (error) {
          failure = error
        } finally {
          slot.release()
        }
        await remember(outcome ? { outcome } : { failure: failureText(failure) })
        const end = outcome ? answer(outcome) : failureAnswer(failure, request)
        write(`{"kind":"end","status":${end.status},"body":${end.json}}`)
        frames.end()
      }
      void finish()
      return reply.code(200).type(`${SQL_STREAM_MEDIA_TYPE}; charset=utf-8`).header('cache-control', 'no-store').send(frames)
    }

    let outcome: RunOutcome
    try {
      outcome = await reaching(() => sql.run(project, mode, limited.sql, options))
    } catch (error) {
      await remember({ failure: failureText(error) })
      throw error
    } finally {
      slot.release()
    }
    await remember({ outcome })
    const { status, json } = answer(outcome)
    // Rows arrive as JSON text (sql-runner/json-rows.ts): the answer is written as text too.
    return reply.code(status).type('application/json; charset=utf-8').send(json)
  })

  route(app, 'GET /platform/pg-meta/{ref}/query/ongoing', async (request) => {
    const { project, role } = await access(request)
    assertActive(project)
    const sessions = await reaching(() => sql.ongoing(project))
    // Without the full connection, a member sees what the read-only role itself may see: that
    // role's sessions, never the SQL text of the full connection's.
    return roleCan(role, 'sql.write') ? sessions : sessions.filter((session) => session.usename === READONLY_ROLE)
  })

  for (const how of ['cancel', 'terminate'] as const) {
    route(app, `POST /platform/pg-meta/{ref}/query/${how}`, async (request, _reply, input) => {
      const { project, role } = await access(request)
      const { pid } = input.body
      // Terminating, or stopping the full connection's work, takes the full connection's
      // permission; those who hold it may cancel any read-only query too. Without it, a member
      // may cancel only the read-only queries it started itself.
      if (how === 'terminate') assertCan(role, 'sql.write')
      assertActive(project)
      const [running] = await reaching(() => sql.ongoing(project, pid))
      if (!running) throw notFound(`No query with pid ${pid} is running on this project`)
      if (running.usename !== READONLY_ROLE) assertCan(role, 'sql.write')
      else if (!roleCan(role, 'sql.write') && !members.startedBy(identityOf(request).user.id, project.ref, pid)) {
        throw forbidden('You can only cancel queries that you started')
      }
      const done = await reaching(() => sql.signal(project, pid, how))
      return how === 'cancel' ? { pid, cancelled: done } : { pid, terminated: done }
    })
  }

  /** The Management API's query: its read_only flag, or always read-only on /database/query/read-only. */
  async function v1Query(request: FastifyRequest, reply: FastifyReply, forceReadOnly: boolean) {
    const { project, role } = await access(request)
    const parsed = parse(V1RunQueryBody, request.body)
    const body = forceReadOnly ? { ...parsed, read_only: true } : parsed
    if (!body.read_only) assertCan(role, 'sql.write')
    assertActive(project)
    const slot = memberSlot(request, reply, project)
    let outcome: RunOutcome
    try {
      outcome = await reaching(() =>
        sql.run(project, body.read_only ? 'read-only' : 'full', body.query, {
          timeoutMs: SQL_DEFAULT_TIMEOUT_MS,
          parameters: body.parameters,
          onSession: slot.session,
        }),
      )
    } finally {
      slot.release()
    }
    if (outcome.error) throw invalidInput(outcome.error.message)
    if (outcome.truncated) {
      throw invalidInput(`The query ran, but its result is larger than this API returns (${SQL_MAX_RESULT_ROWS.toLocaleString('en-US')} rows or ${SQL_MAX_RESULT_BYTES / 1024 / 1024} MB): add a limit to your query`)
    }
    return reply.code(201).type('application/json; charset=utf-8').send(jsonRowsArray(outcome.results.at(-1)?.rows ?? []))
  }

  route(app, 'POST /v1/projects/{ref}/database/query', (request, reply) => v1Query(request, reply, false))
  route(app, 'POST /v1/projects/{ref}/database/query/read-only', (request, reply) => v1Query(request, reply, true))

  await sqlHistoryRoutes(app, ctx, history)

  await migrationRoutes(app, ctx, async (request, reply, project, query) => {
    assertActive(project)
    const slot = memberSlot(request, reply, project)
    try {
      return await reaching(() => sql.run(project, 'full', query, { timeoutMs: SQL_DEFAULT_TIMEOUT_MS, onSession: slot.session }))
    } finally {
      slot.release()
    }
  })
}
