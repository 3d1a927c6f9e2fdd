import { EventEmitter, once } from 'node:events'
import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { copyAsOwner } from './copy-as-owner.js'
import { connect, type LogicalConnection } from './connection.js'
import { readSqlScript, type ScriptItem } from './sql-script-reader.js'

/** At most this many statements, or about this many characters, per round trip of a single-transaction restore. */
const BATCH_STATEMENTS = 1000
const BATCH_BYTES = 1 << 20

const TRANSACTION_CONTROL = /^(?:BEGIN|START\s+TRANSACTION|COMMIT|END)(?:\s+(?:WORK|TRANSACTION))?\s*;?\s*$/i

export interface RestoreOptions {
  /**
   * All or nothing (default true): the restore runs in one transaction, so a failed restore leaves
   * the database as it was and can simply be tried again. `\connect` needs this off.
   */
  singleTransaction?: boolean
}

export interface RestoreSummary {
  statements: number
  copiedRows: number
}

/** The error a restore stops with: the server's message, where, and which statement. */
export class RestoreError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly statement: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'RestoreError'
  }
}

/**
 * Applies a plain-SQL dump (pg_dump --format=plain, or any psql script of that shape) to a
 * database, as `psql -v ON_ERROR_STOP=1` would, without psql: statements in order in one
 * session (batched in a single-transaction restore), COPY ... FROM stdin rows streamed through the COPY protocol, and the psql commands
 * pg_dump writes (\connect, \restrict, \unrestrict). Stops at the first error with a RestoreError
 * naming the statement and its line in the dump.
 */
export async function restoreDump(
  conn: LogicalConnection,
  input: Readable | AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: RestoreOptions = {},
): Promise<RestoreSummary> {
  const singleTransaction = options.singleTransaction ?? true
  // An input that fails while we connect must not crash the process as an unhandled 'error':
  // reading it below reports the same error.
  if (input instanceof EventEmitter) input.on('error', () => {})
  let client = await connect(conn, 'stratum logical restore')
  const summary: RestoreSummary = { statements: 0, copiedRows: 0 }
  // psql's \restrict: until \unrestrict with the same key, no other backslash command may run.
  // pg_dump brackets its output with them, so rows crafted by a malicious server cannot smuggle
  // psql commands into the restore. Our reader cannot mistake data for commands, but honours it.
  let restrictedBy: string | undefined
  let current: { line: number; sql: string } = { line: 0, sql: '' }
  const items = readSqlScript(input)
  // In one transaction, consecutive statements go to the server together: a dump of a schema with many objects
  // holds tens of thousands of statements, and one round trip each was most of an upgrade's time.
  let batch: Array<{ line: number; sql: string }> = []
  let batchBytes = 0
  const sendBatch = async () => {
    const statements = batch
    batch = []
    batchBytes = 0
    if (statements.length === 0) return
    current = statements[0]!
    if (statements.length === 1) return void (await client.query(current.sql))
    // Each statement on lines of its own: a trailing -- comment cannot swallow the separator.
    const text = ['SAVEPOINT stratum_restore_batch', ...statements.map((statement) => statement.sql), 'RELEASE SAVEPOINT stratum_restore_batch'].join('\n;\n')
    try {
      await client.query(text)
    } catch (error) {
      // Which statement failed, and its line, come from running the batch again one by one.
      await client.query('ROLLBACK TO SAVEPOINT stratum_restore_batch')
      for (const statement of statements) {
        current = statement
        await client.query(statement.sql)
      }
      current = statements[0]!
      throw error
    }
  }
  try {
    if (singleTransaction) await client.query('BEGIN')
    for (let next = await items.next(); !next.done; next = await items.next()) {
      const item = next.value
      if (item.kind !== 'statement' || item.copyFromStdin) await sendBatch()
      if (item.kind === 'meta') {
        current = { line: item.line, sql: `\\${item.command} ${item.argument}`.trim() }
        if (restrictedBy !== undefined && item.command !== 'unrestrict') {
          throw new Error(`backslash commands are restricted (\\restrict is in effect)`)
        }
        switch (item.command) {
          case 'restrict':
            if (!item.argument) throw new Error('\\restrict needs a key')
            restrictedBy = item.argument
            break
          case 'unrestrict':
            if (restrictedBy === undefined || item.argument !== restrictedBy) throw new Error('wrong key for \\unrestrict')
            restrictedBy = undefined
            break
          case 'connect':
          case 'c': {
            if (singleTransaction) throw new Error('\\connect cannot be part of a single-transaction restore')
            const database = connectTarget(item.argument)
            await client.end()
            client = await connect({ ...conn, database }, 'stratum logical restore')
            break
          }
          default:
            throw new Error(`the psql command \\${item.command} is not supported`)
        }
        continue
      }
      if (item.kind !== 'statement') throw new Error(`unexpected ${item.kind} in the dump`)
      current = { line: item.line, sql: item.sql }
      // pg_dump wraps large-object writes in BEGIN/COMMIT. Inside our transaction that COMMIT
      // would end it half-way (psql --single-transaction has the same trap): they are no-ops here.
      if (singleTransaction && TRANSACTION_CONTROL.test(item.sql)) continue
      summary.statements++
      if (item.copyFromStdin) summary.copiedRows += await copyAsOwner(client, item.sql, (copySql) => copyRows(client, copySql, items))
      else if (!singleTransaction) await client.query(item.sql)
      else {
        batch.push(current)
        batchBytes += item.sql.length
        if (batch.length >= BATCH_STATEMENTS || batchBytes >= BATCH_BYTES) await sendBatch()
      }
    }
    await sendBatch()
    if (singleTransaction) await client.query('COMMIT')
    return summary
  } catch (error) {
    await items.return(undefined).catch(() => {})
    if (singleTransaction) await client.query('ROLLBACK').catch(() => {})
    throw restoreError(error, current)
  } finally {
    await client.end().catch(() => {})
  }
}

/** Streams the rows that follow a COPY ... FROM stdin statement, with back-pressure. */
async function copyRows(client: pg.Client, sql: string, items: AsyncGenerator<ScriptItem>): Promise<number> {
  const stream = client.query(copyFrom(sql))
  let failure: Error | undefined
  stream.on('error', (error: Error) => {
    failure = error
  })
  for (let next = await items.next(); ; next = await items.next()) {
    if (failure) throw failure
    if (next.done) throw new Error('the dump ends inside COPY data')
    const item = next.value
    if (item.kind === 'copy-end') break
    if (item.kind !== 'copy-data') throw new Error(`unexpected ${item.kind} inside COPY data`)
    if (!stream.write(item.data)) await once(stream, 'drain') // rejects if the server fails the COPY
  }
  if (failure) throw failure
  stream.end()
  await finished(stream)
  return stream.rowCount
}

/** The database a `\connect` names, in the forms pg_dump writes. */
function connectTarget(argument: string): string {
  // pg_dump --create: \connect -reuse-previous=on "dbname='name'"
  const conninfo = /"dbname='((?:[^'\\]|\\.)*)'"/.exec(argument)
  if (conninfo) return conninfo[1]!.replace(/\\(.)/g, '$1')
  const word = /^(?:-reuse-previous=\S+\s+)?("(?:[^"]|"")*"|\S+)/.exec(argument)?.[1]
  if (!word) throw new Error('\\connect without a database')
  return word.startsWith('"') ? word.slice(1, -1).replace(/""/g, '"') : word
}

function restoreError(error: unknown, at: { line: number; sql: string }): RestoreError {
  if (error instanceof RestoreError) return error
  const err = error as Error & { detail?: string; hint?: string; where?: string }
  const extra = [err.detail && `DETAIL: ${err.detail}`, err.hint && `HINT: ${err.hint}`, err.where && `CONTEXT: ${err.where}`]
  const snippet = at.sql.replace(/\s+/g, ' ').trim()
  const shown = snippet.length > 300 ? snippet.slice(0, 300) + '…' : snippet
  const message = at.line
    ? [`Restore stopped at line ${at.line}: ${err.message}`, ...extra.filter(Boolean), `Statement: ${shown}`].join('\n')
    : `Restore failed before the first statement: ${err.message}`
  return new RestoreError(message, at.line, at.sql, { cause: error })
}
