import { SqlExportParams, RefParams, type SqlExportFormat, type SqlExportTicket } from '@stratum/contracts'
import type { ParserPostgresVersion } from '@stratum/sql/parser'
import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import pg from 'pg'
import type { FastifyInstance } from 'fastify'
import { ExportRefused, exportCopySql, startExport, type ExportStream } from '../../sql-runner/export-stream.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, notFound, conflict, rateLimited, unavailable, parse } from '../../errors.js'
import { isDatabaseUnreachable, UNREACHABLE_MESSAGE } from '../../sql-runner/unreachable.js'
import { route } from '../typed-route.js'

/** How long a started export waits for the browser to open its URL before it is given up. */
export const EXPORT_TICKET_TTL_MS = 30_000
/** Exports a member may run at once on a project: each holds a session of its own while it streams. */
export const MEMBER_EXPORT_CONCURRENCY = 2

const MEDIA_TYPE: Record<SqlExportFormat, string> = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' }

interface Ticket {
  userId: string
  ref: string
  format: SqlExportFormat
  fileName: string
  stream: ExportStream
  expiry: NodeJS.Timeout
  release(): void
}

/** A file name safe in a header and on any disk: the snippet's name without path or control characters. */
function safeFileName(name: string | undefined, format: SqlExportFormat): string {
  const base = [...(name ?? '')].map((c) => (c < ' ' || c === '\u007f' || '/\\:*?"<>|'.includes(c) ? ' ' : c)).join('').replace(/ +/g, ' ').trim().slice(0, 120) || 'query-results'
  return `${base}.${format}`
}

function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/**
 * Exporting a query's whole result (issue 15 point 5). The export is a read: any member who may run
 * the editor's read-only queries (`projects.read`, the query route's own check) may export, and it
 * runs as the read-only role in a READ ONLY transaction, so it can never write, whatever the caller's
 * role. POST starts the COPY and answers once its first bytes exist (a Postgres error answers 400
 * with Postgres's message); the one-time URL it returns streams the file to the caller who asked.
 */
export async function sqlExportRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const tickets = new Map<string, Ticket>()
  const running = new Map<string, number>()

  const drop = (token: string) => {
    const ticket = tickets.get(token)
    if (!ticket) return
    tickets.delete(token)
    clearTimeout(ticket.expiry)
    ticket.stream.abort()
    ticket.release()
  }
  app.addHook('onClose', async () => {
    for (const token of [...tickets.keys()]) drop(token)
  })

  /** A member's share of export sessions on a project, or a 429 when it is used up. */
  function slot(userId: string, ref: string): () => void {
    const key = `${userId}\0${ref}`
    const count = running.get(key) ?? 0
    if (count >= MEMBER_EXPORT_CONCURRENCY) throw rateLimited(`You can run at most ${MEMBER_EXPORT_CONCURRENCY} exports at once on this project; wait for one to finish`)
    running.set(key, count + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      const left = (running.get(key) ?? 1) - 1
      if (left > 0) running.set(key, left)
      else running.delete(key)
    }
  }

  route(app, 'POST /platform/pg-meta/{ref}/query/export', async (request, reply, input) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read', ctx.accessCache)
    const body = input.body
    if (project.status !== 'ACTIVE_HEALTHY') {
      throw conflict(`Project ${project.ref} is not ready: its status is ${project.status}, and queries run only when it is ACTIVE_HEALTHY`)
    }
    let copySql: string
    try {
      copySql = await exportCopySql(body.query, body.format, Number(project.postgres_major) as ParserPostgresVersion)
    } catch (error) {
      if (error instanceof ExportRefused) throw invalidInput(error.message)
      throw error
    }
    const userId = identityOf(request).user.id
    const release = slot(userId, project.ref)
    let stream: ExportStream
    try {
      stream = await startExport({ port: project.port, readonlyPassword: ctx.projects.credentials(project).readonlyPassword }, copySql, body.format)
    } catch (error) {
      release()
      if (error instanceof pg.DatabaseError) throw invalidInput(error.message)
      if (isDatabaseUnreachable(error)) throw unavailable(UNREACHABLE_MESSAGE)
      throw error
    }
    const token = randomBytes(24).toString('base64url')
    const fileName = safeFileName(body.file_name, body.format)
    const expiry = setTimeout(() => drop(token), EXPORT_TICKET_TTL_MS)
    expiry.unref()
    tickets.set(token, { userId, ref: project.ref, format: body.format, fileName, stream, expiry, release })
    const ticket: SqlExportTicket = { url: `/platform/pg-meta/${project.ref}/query/export/${token}`, file_name: fileName }
    return reply.code(201).header('cache-control', 'no-store').send(ticket)
  })

  app.get('/platform/pg-meta/:ref/query/export/:token', async (request, reply) => {
    const { ref, token } = parse(SqlExportParams, request.params)
    const userId = identityOf(request).user.id
    const ticket = tickets.get(token)
    // Only its own caller, on its own project, may take a ticket; anyone else learns nothing of it.
    if (!ticket || ticket.userId !== userId || ticket.ref !== ref) throw notFound('This export is not available: it was downloaded already, or it expired')
    tickets.delete(token)
    clearTimeout(ticket.expiry)
    // Access may have been removed since the POST.
    try {
      await projectAccess(ctx.db, request, ref, 'projects.read', ctx.accessCache)
    } catch (error) {
      ticket.stream.abort()
      ticket.release()
      throw error
    }
    const { stream } = ticket
    async function* file() {
      yield stream.first
      yield* stream.rest
    }
    const body = Readable.from(file(), { objectMode: false })
    let finished = false
    body.on('end', () => (finished = true))
    // A download cancelled in the browser (or a failure after the first bytes, which can only cut the
    // answer short) ends the query and gives its session back at once.
    reply.raw.on('close', () => {
      if (!finished) {
        stream.abort()
        body.destroy()
      }
      ticket.release()
    })
    body.on('error', (error) => {
      request.log.warn({ err: error }, 'export failed after its first bytes')
      reply.raw.destroy()
    })
    return reply
      .code(200)
      .type(MEDIA_TYPE[ticket.format])
      .header('content-disposition', contentDisposition(ticket.fileName))
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(body)
  })
}
