import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import type { Dispatcher, Pool } from 'undici'

/** Headers that belong to one connection, not to the request (RFC 9110 §7.6.1), plus what undici sets itself. */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect', 'host',
])
/** Never passed to a project's services: the dashboard's session belongs to the platform. */
const PLATFORM_ONLY = new Set(['cookie'])

/** An unread rest of a body up to this size is read and dropped after an early answer; beyond it the connection closes. */
const DRAIN_LIMIT_BYTES = 1024 * 1024

/**
 * Call before sending an answer. A request answered before its body was read to the end (a refusal,
 * a 413, a bad name) still has the rest of that body on its socket: read part-way and left paused,
 * the next request on a kept-alive connection would wait behind it for ever. The rest is read and
 * dropped; when it is large, of unknown length (chunked) or can no longer be read, the answer also
 * says `Connection: close` and the socket closes after it. Returns whether it must close.
 */
export function mustCloseAfterEarlyAnswer(raw: IncomingMessage): boolean {
  if (raw.complete) return false
  if (!raw.destroyed) raw.resume()
  const declared = Number(raw.headers['content-length'])
  return raw.destroyed || !(declared <= DRAIN_LIMIT_BYTES)
}

function forwardedRequestHeaders(headers: IncomingHttpHeaders, override: Record<string, string>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || PLATFORM_ONLY.has(name)) continue
    out[name] = value
  }
  return Object.assign(out, override)
}

function responseHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue
    out[name] = value
  }
  return out
}

/**
 * Sends the request on to a service over its kept-alive connections and streams the answer back:
 * bodies are never buffered, so large uploads and result sets cost no memory here.
 */
export async function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  upstream: Pool,
  path: string,
  override: Record<string, string>,
  extraResponseHeaders: Record<string, string>,
): Promise<void> {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
  const response = await upstream.request({
    method: request.method as Dispatcher.HttpMethod,
    path,
    headers: forwardedRequestHeaders(request.headers, { ...override, 'x-forwarded-for': request.ip }),
    body: hasBody ? request.raw : null,
  })
  void reply.code(response.statusCode).headers({ ...responseHeaders(response.headers), ...extraResponseHeaders })
  if (request.method === 'HEAD') {
    await response.body.dump()
    return reply.send()
  }
  return reply.send(await smallBodyOrStream(response.body))
}

/** Answers up to this size are sent in one write (most API answers); larger ones stream. */
const BUFFERED_BODY_LIMIT = 256 * 1024

/**
 * Reads the answer into one buffer while it stays small: one socket write instead of one per chunk
 * (measurable on a busy 2-core machine). A larger answer continues as a stream, nothing lost.
 */
async function smallBodyOrStream(body: Readable): Promise<Buffer | Readable> {
  const chunks: Buffer[] = []
  let size = 0
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  for (;;) {
    const next = await iterator.next()
    if (next.done) return Buffer.concat(chunks, size)
    chunks.push(next.value)
    size += next.value.length
    if (size > BUFFERED_BODY_LIMIT) {
      return Readable.from(
        (async function* rest() {
          yield* chunks
          for (let item = await iterator.next(); !item.done; item = await iterator.next()) yield item.value
        })(),
      )
    }
  }
}
