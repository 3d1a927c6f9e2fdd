import type { SqlExportFormat } from '@stratum/contracts'
import { SQL_EXPORT_SINGLE_QUERY_MESSAGE } from '@stratum/contracts'
import { tokenize } from '@stratum/sql'
import { splitSqlStatements, type ParserPostgresVersion } from '@stratum/sql/parser'
import { to as copyTo } from 'pg-copy-streams'
import type { Socket } from 'node:net'
import { StringDecoder } from 'node:string_decoder'
import type { Readable } from 'node:stream'
import { READONLY_ROLE } from '../control/bootstrap-roles.js'
import { USER_SQL_APPLICATION } from './pools.js'
import { openProjectSession } from '../control/project-connections.js'

/**
 * An export's statement timeout. The time counts the transfer too (COPY waits while the browser
 * is slow to take the bytes), so it is longer than a query's; a read that runs away still ends.
 */
export const SQL_EXPORT_TIMEOUT_MS = 10 * 60_000

/** Postgres notices a client that went away within this time even while the query computes (PG 14+). */
const CONNECTION_CHECK_MS = 2_000

export class ExportRefused extends Error {}

/**
 * The COPY that streams `sql`'s whole result, or ExportRefused. Only one statement that returns
 * rows (SelectStmt: SELECT, WITH ... SELECT, VALUES, TABLE) is accepted, checked with the
 * project's own Postgres grammar; the statement's span (without a trailing semicolon or comment)
 * goes between COPY's parentheses on lines of its own, so a trailing `--` comment cannot swallow the
 * closing parenthesis. A text that tries to close the parenthesis itself (`select 1) to program
 * ...`) is not one valid statement, so it never reaches the database. The COPY is parsed again as a
 * last check that it is one COPY statement and nothing else.
 */
export async function exportCopySql(sql: string, format: SqlExportFormat, postgresVersion: ParserPostgresVersion): Promise<string> {
  // The editor's `:name` parameters and `@set` lines are filled in by the dashboard before a run;
  // left in, the parser reads them masked, so they are refused here rather than parsed differently.
  if (tokenize(sql).some((token) => token.kind === 'parameter' || token.kind === 'directive')) {
    throw new ExportRefused('Fill in the query\'s parameters before exporting it')
  }
  const split = await splitSqlStatements(sql, { postgresVersion })
  if (split.source !== 'parser') {
    throw new ExportRefused(split.error ? `The query cannot be exported: syntax error: ${split.error.message}` : SQL_EXPORT_SINGLE_QUERY_MESSAGE)
  }
  const [statement, ...more] = split.statements
  if (!statement || more.length > 0 || statement.nodeType !== 'SelectStmt') throw new ExportRefused(SQL_EXPORT_SINGLE_QUERY_MESSAGE)
  // row_to_json over the query: each row one JSON object, types as Postgres maps them (numbers, booleans, nested json).
  const copy =
    format === 'csv'
      ? `COPY (\n${statement.text}\n) TO STDOUT WITH (FORMAT csv, HEADER)`
      : `COPY (SELECT row_to_json(exported) FROM (\n${statement.text}\n) AS exported) TO STDOUT`
  const check = await splitSqlStatements(copy, { postgresVersion })
  if (check.source !== 'parser' || check.statements.length !== 1 || check.statements[0]!.nodeType !== 'CopyStmt') {
    throw new ExportRefused(SQL_EXPORT_SINGLE_QUERY_MESSAGE)
  }
  return copy
}

export interface ExportTarget {
  port: number
  /** The read-only role's password: an export runs as that role, so it can never write. */
  readonlyPassword: string
}

/** A running export: its output as it comes, and a way to stop it at once (client gone, ticket expired). */
export interface ExportStream {
  /** The first bytes (the CSV header, or the JSON array's first rows), read before the answer starts. */
  first: Buffer
  rest: AsyncGenerator<Buffer>
  abort(): void
}

/**
 * Starts an export on a session of its own (not the editor's pool: a download may take minutes and
 * must not hold one of the few sessions the editor's queries share), as the read-only role, inside
 * a READ ONLY transaction, and waits for its first bytes. Rejects with Postgres's error when the
 * query fails before any row.
 */
export async function startExport(target: ExportTarget, copySql: string, format: SqlExportFormat, onSession?: (pid: number) => void): Promise<ExportStream> {
  // A session ended from outside reports through the COPY stream (project-connections.ts keeps its 'error' quiet).
  const client = await openProjectSession(
    { port: target.port, user: READONLY_ROLE, password: target.readonlyPassword },
    { applicationName: USER_SQL_APPLICATION, statementTimeoutMs: SQL_EXPORT_TIMEOUT_MS },
  )
  let copy: Readable | undefined
  let closed = false
  const abort = () => {
    if (closed) return
    closed = true
    copy?.destroy()
    // Closing the socket (not a polite Terminate the backend would not read during COPY) ends the
    // backend at its next write, or within CONNECTION_CHECK_MS while it computes.
    ;(client as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy()
    void client.end().catch(() => {})
  }
  try {
    onSession?.((client as unknown as { processID: number }).processID)
    // The parse check above read the query with standard-conforming strings: the session reads it the same way.
    await client.query(
      `SET standard_conforming_strings = on; SET client_connection_check_interval = ${CONNECTION_CHECK_MS}; BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY`,
    )
    copy = client.query(copyTo(copySql))
    const rest = format === 'csv' ? passThrough(copy) : jsonArray(copy)
    const first = await rest.next()
    const done = () => {
      if (!closed) {
        closed = true
        void client.end().catch(() => {})
      }
    }
    if (first.done) throw new Error('the export ended before its first bytes')
    return { first: first.value, rest: finishing(rest, done), abort }
  } catch (error) {
    abort()
    throw error
  }
}

async function* passThrough(copy: Readable): AsyncGenerator<Buffer> {
  for await (const chunk of copy) yield chunk as Buffer
}

/**
 * COPY's text format gives one row_to_json line per row, with backslashes doubled and newlines,
 * tabs and a few other control characters written as escapes (a `json` column keeps the newlines of
 * its text): they are undone per line, then the lines are joined into
 * one JSON array, a batch of rows per chunk, never the whole result. Nothing is yielded before
 * the first rows (or the end): an error of the query comes before the answer starts.
 */
async function* jsonArray(copy: Readable): AsyncGenerator<Buffer> {
  const decoder = new StringDecoder('utf8')
  let carry = ''
  let first = true
  for await (const chunk of copy) {
    const text = carry + decoder.write(chunk as Buffer)
    const end = text.lastIndexOf('\n')
    if (end < 0) {
      carry = text
      continue
    }
    carry = text.slice(end + 1)
    const rows = text.slice(0, end).split('\n').map(unescapeCopyText)
    yield Buffer.from((first ? '[\n' : ',\n') + rows.join(',\n'))
    first = false
  }
  yield Buffer.from(first ? '[]\n' : '\n]\n')
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' }

/** A line of COPY's text format as the value it stands for (COPY TO writes only these escapes). */
export function unescapeCopyText(line: string): string {
  return line.includes('\\') ? line.replace(/\\([\\bfnrtv])/g, (_, code: string) => COPY_ESCAPES[code]!) : line
}

/** Ends the session once the output is read to its end (or given up). */
async function* finishing(output: AsyncGenerator<Buffer>, done: () => void): AsyncGenerator<Buffer> {
  try {
    yield* output
  } finally {
    done()
  }
}
