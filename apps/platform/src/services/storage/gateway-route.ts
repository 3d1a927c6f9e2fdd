import type { FastifyReply, FastifyRequest } from 'fastify'
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

/** Hands a request below /storage/v1 (`path` starts after it) to the storage service and writes its answer. */
export async function serveStorage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: PlatformContext,
  project: GatewayProject,
  path: string,
  key: KeyCheck | null,
  cors: Record<string, string>,
): Promise<FastifyReply> {
  const mark = path.indexOf('?')
  try {
    const answer = await ctx.storage.handle({
      project,
      method: request.method,
      path: mark < 0 ? path : path.slice(0, mark),
      query: new URLSearchParams(mark < 0 ? '' : path.slice(mark + 1)),
      headers: request.headers,
      raw: request.raw,
      caller: key ? callerOf(key) : null,
    })
    closeIfBodyUnread(request, reply)
    return sendStorageAnswer(reply.headers(cors), answer)
  } catch (error) {
    closeIfBodyUnread(request, reply)
    const refused = error instanceof StorageError ? error : invalidValue(error)
    if (refused) return reply.code(refused.status).headers(cors).send(refused.body())
    request.log.error({ err: error, ref: project.ref }, 'storage: request failed')
    const failure = new StorageError(500, 'InternalError', (error as Error).message || 'Internal Server Error')
    return reply.code(500).headers(cors).send(failure.body())
  }
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
