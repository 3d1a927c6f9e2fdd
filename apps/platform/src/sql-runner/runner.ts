import { significantTokens, tokenize, type SqlStatement } from '@stratum/sql'
import { splitSqlStatements, type ParserPostgresVersion } from '@stratum/sql/parser'
import type { SqlError, SqlNotice, SqlStatementResult } from '@stratum/contracts'
import { SQL_MAX_RESULT_BYTES, SQL_MAX_RESULT_ROWS, SQL_OPEN_TRANSACTION_WARNING } from '@stratum/contracts'
import pg from 'pg'
import { CappedQuery, execute, type ResultBudget, type RowStream } from './capped-query.js'
import type { JsonRows } from './json-rows.js'
import { StatementWatchdog } from './watchdog.js'
import { postgresTextTypes, resultTypes, SESSION_STATEMENT_TIMEOUT_MS } from './pools.js'

/** A statement's result with its rows as JSON text (json-rows.ts); the route writes them out as is. */
export type EncodedStatementResult = Omit<SqlStatementResult, 'rows'> & { rows: JsonRows }

export interface RunOptions {
  timeoutMs: number
  /** Values for $1, $2...: the query then runs whole, as one prepared statement. */
  parameters?: unknown[]
  postgresVersion?: ParserPostgresVersion
  /** Cancels a backend from another session: the watchdog for sessions that turned their own timeout off. */
  cancel(pid: number): Promise<void>
  /**
   * Hands rows over as they arrive instead of keeping them: `result` is the index the statement's
   * result will have in RunOutcome.results (rows of a statement that then fails have no result).
   */
  stream?: RowStream
  /** Told the session's backend pid once the query has one (whose query is it: member-limiter.ts). */
  onSession?(pid: number): void
  /** Result bounds; the defaults are the contract's. */
  maxRows?: number
  maxChars?: number
  /**
   * How values are written: `parsed` as pg parses them (the Management API, as postgres-meta answers),
   * `postgres` as Postgres prints them (the SQL editor: bytea as \x..., arrays as {1,2}).
   */
  values?: 'parsed' | 'postgres'
  /**
   * A statement the platform answers itself instead of the session (the full connection's PostgREST settings on
   * authenticator, services/rest/role-settings.ts), or null: the session runs it.
   */
  divert?(statement: string): Promise<DivertedStatement | null>
}

/** A diverted statement's outcome: done by the platform (with its command tag), or refused. */
export type DivertedStatement = { commandTag: string } | { error: Omit<SqlError, 'statement_index' | 'position'> }

/** Said when a diverted statement ran inside the member's transaction: a ROLLBACK there does not undo it. */
export const DIVERTED_IN_TRANSACTION_NOTICE = 'This statement was applied by the platform at once, outside the open transaction: a ROLLBACK does not undo it.'

export interface RunOutcome {
  results: EncodedStatementResult[]
  /** The first failing statement's error; the statements after it did not run. */
  error?: SqlError
  truncated: boolean
  /** NOTICE, WARNING and INFO messages Postgres sent while the statements ran. */
  notices: SqlNotice[]
  /** The platform's warnings about the run (a transaction left open and rolled back). */
  warnings: string[]
}

/** Notices kept per run: a loop raising a notice per row must not fill the answer. */
const MAX_NOTICES = 1_000

/** Slack past the statement timeout before the watchdog cancels from outside. */
const WATCHDOG_GRACE_MS = 2_000
const watchdog = new StatementWatchdog()

/**
 * Runs a query's statements in order, in one session taken from the pool, and returns every
 * statement's result. The session is given back clean: an open transaction is rolled back and
 * session state (settings, temporary tables, prepared statements) discarded. That cleanup runs
 * after the outcome is returned (the caller's answer does not wait for it); the session goes back
 * to the pool only once it is clean.
 */
export async function runSql(pool: pg.Pool, sql: string, options: RunOptions): Promise<RunOutcome> {
  const statements = await statementsOf(sql, options)
  const budget: ResultBudget = { rows: options.maxRows ?? SQL_MAX_RESULT_ROWS, chars: options.maxChars ?? SQL_MAX_RESULT_BYTES }
  const outcome: RunOutcome = { results: [], truncated: false, notices: [], warnings: [] }
  const types = options.values === 'postgres' ? postgresTextTypes : resultTypes
  if (statements.length === 0) return outcome

  const client = await pool.connect()
  const pid = (client as unknown as { processID: number }).processID
  options.onSession?.(pid)
  let broken: Error | undefined
  // A session ended from outside (terminate, server restart) reports here too: the query's own
  // error answers the request, and the client is thrown away on release.
  const onError = (error: Error) => (broken = error)
  client.on('error', onError)
  let current = 0
  const onNotice = (notice: PostgresNotice) => {
    if (outcome.notices.length < MAX_NOTICES) outcome.notices.push(toSqlNotice(notice, current))
  }
  client.on('notice', onNotice)
  try {
    // Sessions start with the default timeout (pools.ts): one round trip less in the common case.
    if (options.timeoutMs !== SESSION_STATEMENT_TIMEOUT_MS) await client.query(`SET statement_timeout = ${Math.floor(options.timeoutMs)}`)
    for (const [index, statement] of statements.entries()) {
      current = index
      const first = outcome.results.length
      const stream: RowStream | undefined = options.stream && {
        columns: (result, fields) => options.stream!.columns(first + result, fields),
        rows: (result, batch) => options.stream!.rows(first + result, batch),
      }
      // A transaction already failed answers its own error: the session still runs the statement.
      const diverted = options.divert && !options.parameters && client.getTransactionStatus() !== 'E' ? await options.divert(statement.text) : null
      if (diverted) {
        if ('error' in diverted) {
          outcome.error = { ...diverted.error, statement_index: index }
          break
        }
        const { text, start, end } = statement
        outcome.results.push({ statement: text, start, end, command: diverted.commandTag.split(' ')[0]!, command_tag: diverted.commandTag, rowCount: null, columns: [], rows: [], elapsed_ms: 0, truncated: false })
        if (client.getTransactionStatus() === 'T') outcome.notices.push({ severity: 'NOTICE', message: DIVERTED_IN_TRANSACTION_NOTICE, statement_index: index })
        continue
      }
      const query = new CappedQuery(statement.text, options.parameters, budget, stream, types)
      const started = performance.now()
      watchdog.watch(query, options.timeoutMs + WATCHDOG_GRACE_MS, () => void options.cancel(pid).catch(() => {}))
      try {
        const answer = await execute(client, query)
        const elapsed = Math.round(performance.now() - started)
        for (const [part, result] of (Array.isArray(answer) ? answer : [answer]).entries()) {
          outcome.results.push({
            statement: statement.text,
            start: statement.start,
            end: statement.end,
            command: result.command ?? null,
            command_tag: query.commandTags[part] || null,
            rowCount: result.rowCount ?? null,
            columns: (result.fields ?? []).map((field) => ({ name: field.name, data_type_id: field.dataTypeID })),
            rows: result.jsonRows ?? [],
            elapsed_ms: elapsed,
            truncated: query.truncated,
          })
        }
        if (query.truncated) outcome.truncated = true
      } catch (error) {
        if (!(error instanceof pg.DatabaseError)) throw error
        outcome.error = toSqlError(error, statement, index)
        break
      } finally {
        watchdog.stop(query)
      }
    }
    // The session is given back clean, so work left in an open transaction is lost: say so.
    if (!broken && client.getTransactionStatus() !== 'I') outcome.warnings.push(SQL_OPEN_TRANSACTION_WARNING)
  } catch (error) {
    broken = error as Error
    throw error
  } finally {
    client.off('notice', onNotice)
    const release = (error?: Error) => {
      client.off('error', onError)
      client.release(error ?? false)
    }
    if (broken) release(broken)
    // Begun after the answer is written (the caller writes it in this turn of the event loop when nothing else is
    // pending): sending the cleanup wakes the project's backend, which on a busy machine takes the CPU from the answer.
    else setImmediate(() => void resetSession(client).then(() => release(broken), release))
  }
  return outcome
}

async function statementsOf(sql: string, options: RunOptions): Promise<SqlStatement[]> {
  if (options.parameters) return [{ text: sql, start: 0, end: sql.length }]
  const single = singleStatement(sql)
  if (single) return [single]
  const split = await splitSqlStatements(sql, { postgresVersion: options.postgresVersion })
  return split.statements
}

function toSqlError(error: pg.DatabaseError, statement: SqlStatement, index: number): SqlError {
  const position = error.position ? Number(error.position) : undefined
  return {
    message: error.message,
    ...(error.code ? { code: error.code } : {}),
    ...(position && Number.isFinite(position) ? { position: statement.start + position } : {}),
    statement_index: index,
    ...(error.detail ? { detail: error.detail } : {}),
    ...(error.hint ? { hint: error.hint } : {}),
  }
}

/** The fields of pg's 'notice' event that the editor shows. */
interface PostgresNotice {
  severity?: string
  message?: string
  detail?: string
  hint?: string
}

function toSqlNotice(notice: PostgresNotice, index: number): SqlNotice {
  return {
    severity: notice.severity ?? 'NOTICE',
    message: notice.message ?? '',
    ...(notice.detail ? { detail: notice.detail } : {}),
    ...(notice.hint ? { hint: notice.hint } : {}),
    statement_index: index,
  }
}

async function resetSession(client: pg.PoolClient): Promise<void> {
  if (client.getTransactionStatus() !== 'I') await client.query('ROLLBACK')
  await client.query('DISCARD ALL')
}

/**
 * Text without a semicolon outside literals, comments and quoted identifiers is one statement: it
 * needs no parse. The lexer reads those the way Postgres does; anything with a semicolon goes to
 * the parser, which also knows where function bodies end. Null when the parser must decide.
 */
function singleStatement(sql: string): SqlStatement | null {
  // Most editor queries hold no semicolon and no comment at all: whatever is not white space is the statement, and
  // the lexer need not read it (issue 32).
  if (!MAY_SPLIT_OR_COMMENT.test(sql)) {
    const statement = trimmed(sql)
    return statement.text ? statement : null
  }
  const tokens = significantTokens(tokenize(sql))
  if (tokens.length === 0 || tokens.some((token) => token.text === ';')) return null
  return trimmed(sql)
}

/** A semicolon, or the start of a comment: only the lexer can say whether the text is one statement. */
const MAY_SPLIT_OR_COMMENT = /;|--|\/\*/

/** The text without the white space around it, and where that is. */
function trimmed(sql: string): SqlStatement {
  let start = 0
  let end = sql.length
  while (start < end && /\s/.test(sql[start]!)) start++
  while (end > start && /\s/.test(sql[end - 1]!)) end--
  return { text: sql.slice(start, end), start, end }
}
