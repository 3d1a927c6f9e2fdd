import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingMessage } from 'node:http'
import pg from 'pg'
import type { PlatformContext } from '../../platform-context.js'
import type { Caller } from './database.js'
import { StorageError } from './errors.js'
import type { StorageAnswer } from './request.js'
import type { KeyCheck } from '../../gateway/api-key.js'
import type { GatewayProject } from '../../gateway/project-directory.js'
import { mustCloseAfterEarlyAnswer } from '../../gateway/proxy.js'

const CALLER_ROLES = new Set(['anon', 'authenticated', 'service_role'])

/**
 * Storage paths a browser opens without a key: public objects and signed URLs (download, and the
 * upload a signed upload URL allows), and their image renderings. The bucket's public flag or the
 * URL's token is checked by the storage service.
 */
export function isOpenStorageRequest(method: string, below: string): boolean {
  const path = below.split('?')[0]!.replace(/^\/storage\/v1/, '')
  if (method === 'GET' || method === 'HEAD') {
    return ['/object/public/', '/object/sign/', '/render/image/public/', '/render/image/sign/'].some((open) => path.startsWith(open))
  }
  return method === 'PUT' && path.startsWith('/object/upload/sign/')
}

/** A request below /storage/v1 as the gateway passed it: `path` starts after /storage/v1; `key` null on open paths. */
export interface GatewayStorageRequest {
  raw: IncomingMessage
  project: GatewayProject
  path: string
  key: KeyCheck | null
}

/**
 * The storage service's answer to a request, refusals included (in storage-api's error shape; an unexpected failure
 * logged and answered 500). Both of the gateway's paths write it (serveStorage through Fastify, fast-path.ts on the
 * raw listener).
 */
export async function storageAnswer(ctx: PlatformContext, request: GatewayStorageRequest, log: FastifyBaseLogger): Promise<StorageAnswer> {
  const { raw, project, path, key } = request
  const mark = path.indexOf('?')
  try {
    return await ctx.storage.handle({
      project,
      method: raw.method!,
      path: mark < 0 ? path : path.slice(0, mark),
      query: new URLSearchParams(mark < 0 ? '' : path.slice(mark + 1)),
      headers: raw.headers,
      raw,
      caller: key ? callerOf(key) : null,
    })
  } catch (error) {
    const refused = error instanceof StorageError ? error : invalidValue(error)
    if (refused) return { status: refused.status, body: refused.body() }
    log.error({ err: error, ref: project.ref }, 'storage: request failed')
    return storageFailure(error as Error)
  }
}

/** A failure of the platform's, in storage-api's shape (a download whose file cannot be read meets it too). */
export function storageFailure(error: Error): StorageAnswer {
  return { status: 500, body: new StorageError(500, 'InternalError', error.message || 'Internal Server Error').body() }
}

/** Hands a request below /storage/v1 (`path` starts after it) to the storage service and writes its answer through Fastify. */
export async function serveStorage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: PlatformContext,
  project: GatewayProject,
  path: string,
  key: KeyCheck | null,
  cors: Record<string, string>,
): Promise<FastifyReply> {
  const answer = await storageAnswer(ctx, { raw: request.raw, project, path, key }, request.log)
  closeIfBodyUnread(request, reply)
  return sendStorageAnswer(reply.headers(cors), answer)
}

/** An answer before the body was read (a refusal): drained, or the connection closes after it (proxy.ts). */
function closeIfBodyUnread(request: FastifyRequest, reply: FastifyReply): void {
  if (mustCloseAfterEarlyAnswer(request.raw)) reply.header('connection', 'close')
}

/**
 * Postgres' data exceptions (SQLSTATE class 22: a value its type cannot hold, a NUL in text or
 * jsonb): a value of the request that no check caught, refused as the request's fault, not a 500.
 */
function invalidValue(error: unknown): StorageError | null {
  const code = (error as { code?: unknown }).code
  if (!(error instanceof pg.DatabaseError) || typeof code !== 'string' || !code.startsWith('22')) return null
  return new StorageError(400, 'InvalidRequest', `Invalid value: ${error.message}`)
}

/** Writes the storage service's answer: status, headers, then JSON, a file stream or nothing. */
export function sendStorageAnswer(reply: FastifyReply, answer: StorageAnswer): FastifyReply {
  reply.code(answer.status)
  if (answer.headers) reply.headers(answer.headers)
  if (answer.stream) return reply.send(answer.stream)
  return answer.body === undefined ? reply.send() : reply.send(answer.body)
}

/** The role a storage request runs as: the bearer's verified claims, as storage-api reads them. */
function callerOf(key: KeyCheck): Caller {
  if (!key.claims) throw new StorageError(400, 'InvalidJWT', 'invalid signature: the Authorization token is not signed by this project or has expired')
  const role = String(key.claims.role ?? '')
  if (!CALLER_ROLES.has(role)) throw new StorageError(403, 'AccessDenied', `The role ${role || '(none)'} may not use storage`)
  return { role: role as Caller['role'], claims: key.claims as Record<string, unknown> }
}
