import type { FastifyReply, FastifyRequest } from 'fastify'
import type { KeyCheck } from '../../gateway/api-key.js'
import type { GatewayProject } from '../../gateway/project-directory.js'
import { readBodyUpTo } from '../../gateway/proxy.js'
import { writePermission, type Asker } from './authorization.js'
import { LIMIT_TEXTS } from './limits.js'
import type { RealtimeService } from './service.js'
import { TokenError, verifyChannelToken } from './tokens.js'

/** A batch may carry many messages; each is held to the payload limit on its own. */
const MAX_BATCH_BYTES = 10 * 1024 * 1024
const SINGLE_PATH = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)$/

interface BatchMessage {
  topic: string
  event: string
  payload: Record<string, unknown>
  private: boolean
  id?: string
}

/**
 * Supabase Realtime's HTTP API below `/realtime/v1` (docs/research/realtime-protocol.md §5.3): POST /api/broadcast
 * (a batch; private messages the caller may not send are skipped) and POST /api/broadcast/{topic}/events/{event}
 * (one message, JSON or bytes; a private one the caller may not send is a 403). Both answer 202 with no body.
 */
export async function serveRealtimeHttp(
  request: FastifyRequest,
  reply: FastifyReply,
  service: RealtimeService,
  project: GatewayProject,
  path: string,
  key: KeyCheck,
  cors: Record<string, string>,
): Promise<FastifyReply> {
  const answer = (status: number, body?: object) => {
    reply.code(status).headers(cors)
    return body ? reply.send(body) : reply.send()
  }
  const mark = path.indexOf('?')
  const pathname = mark < 0 ? path : path.slice(0, mark)
  const query = new URLSearchParams(mark < 0 ? '' : path.slice(mark + 1))
  const single = SINGLE_PATH.exec(pathname)
  if (request.method !== 'POST' || (pathname !== '/api/broadcast' && !single)) {
    return answer(404, { message: pathname === '/websocket' ? 'Realtime is served over a WebSocket here: connect with an Upgrade request' : 'no Route matched with those values' })
  }
  let asker: Asker
  try {
    const claims = await verifyChannelToken(project, key.bearer)
    asker = { role: claims.role, claims: claims.claims as Record<string, unknown> }
  } catch (error) {
    if (error instanceof TokenError) return answer(401, { message: 'Unauthorized' })
    throw error
  }
  const realtime = service.project(project.ref, project)
  if (realtime.config.suspend) return answer(403, { message: LIMIT_TEXTS.suspended })
  const body = await readBodyUpTo(request.raw, single ? realtime.limits.maxPayloadBytes : MAX_BATCH_BYTES)
  if (body === null) return answer(413, { message: 'Payload size exceeds tenant limit' })

  if (single) {
    const topic = decodeURIComponent(single[1]!)
    const event = decodeURIComponent(single[2]!)
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    if (type !== 'application/json' && type !== 'application/octet-stream') {
      return answer(415, { error: 'Unsupported Media Type. Use application/json or application/octet-stream' })
    }
    if (type === 'application/json' && !isJson(body)) return answer(422, { errors: { payload: ['is invalid'] } })
    const isPrivate = query.get('private') === 'true'
    if (isPrivate && !(await writePermission(service.pool(project.ref), asker, topic, 'broadcast'))) return answer(403, { message: 'Unauthorized' })
    if (!realtime.events.take() || !realtime.bytes.takeBytes(body.length)) return answer(429, { message: 'You have exceeded your rate limit' })
    realtime.broadcast(`${isPrivate ? 'private' : 'public'}:${topic}`, { kind: 'user-broadcast', event, encoding: type === 'application/json' ? 'json' : 'binary', data: body }, null)
    return answer(202)
  }

  const messages = readBatch(body)
  if (typeof messages === 'string') return answer(422, { errors: { messages: [messages] } })
  if (messages.some((message) => Buffer.byteLength(JSON.stringify(message.payload)) > realtime.limits.maxPayloadBytes)) {
    return answer(422, { errors: { messages: ['Payload size exceeds tenant limit'] } })
  }
  if (!realtime.events.take(messages.length) || !realtime.bytes.takeBytes(body.length)) return answer(429, { message: 'Too many messages to broadcast, please reduce the batch size' })
  // Private topics are authorised once each, with the caller's claims; what it may not send is skipped.
  const allowed = new Map<string, Promise<boolean>>()
  for (const message of messages) {
    if (message.private) {
      let check = allowed.get(message.topic)
      if (!check) allowed.set(message.topic, (check = writePermission(service.pool(project.ref), asker, message.topic, 'broadcast').catch(() => false)))
      if (!(await check)) continue
    }
    realtime.broadcast(
      `${message.private ? 'private' : 'public'}:${message.topic}`,
      { type: 'broadcast', event: message.event, payload: message.payload, ...(message.id ? { meta: { id: message.id } } : {}) },
      null,
    )
  }
  return answer(202)
}

function isJson(body: Buffer): boolean {
  try {
    JSON.parse(body.toString('utf8'))
    return true
  } catch {
    return false
  }
}

/** The batch's messages, or what is wrong with them. */
function readBatch(body: Buffer): BatchMessage[] | string {
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    return 'the body is not JSON'
  }
  const list = (parsed as { messages?: unknown } | null)?.messages
  if (!Array.isArray(list) || !list.length) return "can't be blank"
  const messages: BatchMessage[] = []
  for (const entry of list) {
    const message = entry as Record<string, unknown>
    if (typeof message !== 'object' || message === null) return 'each message must be an object'
    if (typeof message.topic !== 'string' || !message.topic) return 'topic: can\'t be blank'
    if (typeof message.event !== 'string' || !message.event) return 'event: can\'t be blank'
    if (typeof message.payload !== 'object' || message.payload === null || Array.isArray(message.payload)) return 'payload: is invalid'
    if (message.private !== undefined && typeof message.private !== 'boolean') return 'private: is invalid'
    if (message.id !== undefined && typeof message.id !== 'string') return 'id: is invalid'
    messages.push({ topic: message.topic, event: message.event, payload: message.payload as Record<string, unknown>, private: message.private === true, id: message.id as string | undefined })
  }
  return messages
}
