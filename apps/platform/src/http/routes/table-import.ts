import { once } from 'node:events'
import type { IncomingMessage } from 'node:http'
import { finished } from 'node:stream/promises'
import { RefParams, TABLE_IMPORT_MAX_BYTES, TableImportQuery, type TableImportError } from '@stratum/contracts'
import { buildCopyFrom, TableEditorInputError } from '@stratum/sql'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import type { ProjectRow } from '../../control/project-store.js'
import { MemberQueryLimiter } from '../../sql-runner/member-limiter.js'
import { sqlPool } from '../../sql-runner/pools.js'
import { assertCan } from '../../auth/project-access.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, conflict, tooLarge, rateLimited, unavailable, parse } from '../../errors.js'
import { route } from '../typed-route.js'

/**
 * How long one import may run. A COPY's time includes waiting for the browser's upload, so the SQL
 * editor's one-minute default would cut large files short; an hour bounds a stalled upload.
 */
const IMPORT_TIMEOUT = '60min'

/** Sent when the file grows past TABLE_IMPORT_MAX_BYTES while it streams. */
class TooLarge extends Error {}

/** The upload ended before the file did (the tab closed, the network failed): the client's doing, not a server error. */
class UploadCut extends Error {}

const TOO_LARGE_MESSAGE = `The file is larger than the ${TABLE_IMPORT_MAX_BYTES / 1024 / 1024 / 1024} GB an import takes`

/** Tables, partitioned tables: what COPY FROM may fill. */
const COLUMNS_SQL = `
  SELECT c.relkind::text AS kind,
         coalesce(array_agg(a.attname::text ORDER BY a.attnum) FILTER (WHERE a.attnum > 0 AND NOT a.attisdropped), '{}') AS columns
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_attribute a ON a.attrelid = c.oid
  WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
  GROUP BY c.relkind`

/**
 * Streams the request body into COPY. The COPY stream is given no buffer (highWaterMark 0) and each
 * chunk waits for it, so the body is never held in memory and nothing is written after the server
 * has refused the data. The request is read without being destroyed on a failure: the caller still
 * answers it.
 */
async function copyBody(client: pg.PoolClient, sql: string, source: IncomingMessage): Promise<number> {
  const copy = client.query(copyFrom(sql, { highWaterMark: 0 }))
  let refused: Error | undefined
  copy.on('error', (error: Error) => {
    refused = error
  })
  let bytes = 0
  try {
    for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      if (refused) break
      bytes += chunk.length
      if (bytes > TABLE_IMPORT_MAX_BYTES) throw new TooLarge(TOO_LARGE_MESSAGE)
      if (!copy.write(chunk)) await once(copy, 'drain')
    }
  } catch (error) {
    if (refused) throw refused
    // Our side stopped (file too large, upload cut): CopyFail makes the server end the COPY, so the
    // session is usable again for the ROLLBACK.
    copy.destroy(error as Error)
    await finished(copy).catch(() => {})
    if (error instanceof TooLarge) throw error
    throw new UploadCut('The upload ended before the end of the file: nothing was imported', { cause: error })
  }
  if (refused) throw refused
  copy.end()
  await finished(copy)
  return copy.rowCount
}

/** Reads what is left of a request body, so that the answer reaches a browser still uploading. */
async function drain(source: IncomingMessage): Promise<void> {
  if (source.readableEnded || source.destroyed) return
  source.resume()
  await new Promise<void>((resolve) => {
    source.once('end', resolve)
    source.once('close', resolve)
  })
}

/** Postgres's refusal as the import's 400: the message, its code, and the file's line from COPY's CONTEXT. */
function refusal(error: pg.DatabaseError): TableImportError {
  const line = /\bline (\d+)/.exec(error.where ?? '')?.[1]
  const parts = [error.message, error.detail && `DETAIL: ${error.detail}`, error.where && `CONTEXT: ${error.where}`].filter(Boolean)
  return { message: parts.join('\n'), code: error.code, ...(line ? { line: Number(line) } : {}), ...(error.where ? { context: error.where } : {}) }
}

function assertActive(project: ProjectRow): void {
  if (project.status !== 'ACTIVE_HEALTHY') {
    throw conflict(`Project ${project.ref} is not ready: its status is ${project.status}, and queries run only when it is ACTIVE_HEALTHY`)
  }
}

/**
 * The table editor's CSV import: the file (the raw body, text/csv) streams into
 * `COPY schema.table (columns) FROM STDIN` on the full connection, in one transaction, so a file
 * Postgres refuses anywhere leaves the table as it was. A write: Read-only members are refused.
 */
export async function tableImportRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  // One import at a time per member and project: each holds a session of the project for its whole upload.
  const imports = new MemberQueryLimiter(1)

  await app.register(async (scope) => {
    // The body is not parsed: the handler streams request.raw itself. Other media types get Fastify's 415.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('text/csv', (_request, _payload, done) => done(null))

    route(scope, 'POST /platform/pg-meta/{ref}/tables/import', async (request: FastifyRequest, reply: FastifyReply) => {
      const { ref } = parse(RefParams, request.params)
      const { project, role } = await projectAccess(ctx.db, request, ref, 'projects.read', ctx.accessCache)
      assertCan(role, 'sql.write')
      const query = parse(TableImportQuery, request.query)
      let sql: string
      try {
        sql = buildCopyFrom({ schema: query.schema, table: query.table, columns: query.columns, header: query.header, delimiter: query.delimiter })
      } catch (error) {
        if (error instanceof TableEditorInputError) throw invalidInput(error.message)
        throw error
      }
      assertActive(project)
      const declared = Number(request.headers['content-length'] ?? 0)
      if (declared > TABLE_IMPORT_MAX_BYTES) {
        reply.header('connection', 'close')
        throw tooLarge(TOO_LARGE_MESSAGE)
      }
      const slot = imports.tryAcquire(identityOf(request).user.id, project.ref)
      if (!slot) throw rateLimited('You already have an import running on this project. Wait for it to finish, then import this file.')
      try {
        const credentials = ctx.projects.credentials(project)
        const pool = sqlPool(ctx.projects.connections, { ref: project.ref, port: project.port, password: credentials.editorPassword }, 'full', 'table-import')
        let client: pg.PoolClient
        try {
          client = await pool.connect()
        } catch {
          await drain(request.raw)
          throw unavailable('The project database is not reachable right now')
        }
        let broken = false
        try {
          await client.query('BEGIN')
          await client.query(`SET LOCAL statement_timeout = '${IMPORT_TIMEOUT}'`)
          await checkTarget(client, query)
          const rows = await copyBody(client, sql, request.raw)
          await client.query('COMMIT')
          return { rows }
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {
            broken = true
          })
          if (error instanceof TooLarge) {
            reply.header('connection', 'close')
            throw tooLarge(error.message)
          }
          if (error instanceof UploadCut) {
            request.log.info({ err: error.cause }, 'a CSV import was cut off by its client')
            return reply.code(400).send({ message: error.message })
          }
          await drain(request.raw)
          if (error instanceof pg.DatabaseError) return reply.code(400).send(refusal(error))
          throw error
        } finally {
          client.release(broken)
        }
      } finally {
        slot.release()
      }
    }, { bodyLimit: TABLE_IMPORT_MAX_BYTES })
  })
}

/** The table exists and is a table, and every column named is one of its columns: a clear 400 before any data is read. */
async function checkTarget(client: pg.PoolClient, query: TableImportQuery): Promise<void> {
  const { rows } = await client.query<{ kind: string; columns: string[] }>(COLUMNS_SQL, [query.schema, query.table])
  const found = rows[0]
  if (!found) throw invalidInput(`Table ${query.schema}.${query.table} does not exist`)
  if (found.kind !== 'r' && found.kind !== 'p') throw invalidInput(`${query.schema}.${query.table} is not a table: rows can only be imported into a table`)
  const missing = query.columns.filter((column) => !found.columns.includes(column))
  if (missing.length) throw invalidInput(`Table ${query.schema}.${query.table} has no column ${missing.map((name) => `"${name}"`).join(', ')}`)
}
