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

/**
 * The most of an unwanted body read and dropped after an early answer. Beyond it the socket is closed:
 * by then the client has long had the answer (closing at once, while it still sends, can reset the
 * connection before it reads the answer).
 */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024

/** Reads and drops the rest of a body nobody will read, so that the next request on the socket is parsed. */
export function drainBody(raw: IncomingMessage): void {
  if (raw.complete || raw.destroyed) return
  let drained = 0
  // Whatever it was piped into (a multipart parser) is done with it.
  raw.unpipe()
  raw.on('error', () => {})
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length
    if (drained > DRAIN_LIMIT_BYTES) raw.socket?.destroy()
  })
  raw.resume()
}

/**
 * Call before sending an answer. A request answered before its body was read to the end (a refusal,
 * a 413, a bad name) still has the rest of that body on its socket: left paused, the next request on
 * a kept-alive connection would wait behind it for ever. The rest is drained (drainBody); a request
 * that was destroyed part-way cannot be, so its answer must say `Connection: close` and the socket
 * closes after it. Returns whether it must close.
 */
export function mustCloseAfterEarlyAnswer(raw: IncomingMessage): boolean {
  if (raw.complete) return false
  if (raw.destroyed) return true
  drainBody(raw)
  return false
}

/**
 * Reads a request body of at most `limit` bytes. Past the limit (declared or counted) it resolves null,
 * and the rest is read and dropped: the request is never destroyed part-way (`for await` with an early
 * exit does that), because a destroyed request cannot be drained and its kept-alive socket would hang
 * after the answer.
 */
export function readBodyUpTo(raw: IncomingMessage, limit: number): Promise<Buffer | null> {
  // Errors after this point (the client gone) need a listener, or they would be thrown.
  raw.on('error', () => {})
  if (Number(raw.headers['content-length']) > limit) {
    drainBody(raw)
    return Promise.resolve(null)
  }
  if (raw.readableEnded) return Promise.resolve(Buffer.alloc(0))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = () => {
      raw.off('data', onData)
      raw.off('end', onEnd)
      raw.off('error', onError)
      raw.off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      stop()
      drainBody(raw)
      resolve(null)
    }
    const onEnd = () => {
      stop()
      resolve(Buffer.concat(chunks, size))
    }
    const onError = (error: Error) => {
      stop()
      reject(error)
    }
    const onClose = () => {
      stop()
      reject(new Error('The client closed the connection before the body was sent'))
    }
    raw.on('data', onData)
    raw.on('end', onEnd)
    raw.on('error', onError)
    raw.on('close', onClose)
  })
}

export function forwardedRequestHeaders(headers: IncomingHttpHeaders, override: Record<string, string>): Record<string, string | string[]> {
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
  const refused = unreadableTarget(path)
  if (refused) {
    if (mustCloseAfterEarlyAnswer(request.raw)) reply.header('connection', 'close')
    return reply.code(400).headers(extraResponseHeaders).send({ code: 'PGRST100', details: refused, hint: null, message: 'The request path or query string cannot be read' })
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
  const response = await upstream.request({
    method: request.method as Dispatcher.HttpMethod,
    path,
    headers: forwardedRequestHeaders(request.headers, { ...override, 'x-forwarded-for': request.ip }),
    body: hasBody ? request.raw : null,
  })
  void reply.code(response.statusCode).headers({ ...responseHeaders(response.headers), ...extraResponseHeaders })
  // The service answered before it read the whole body: undici stops sending it (and destroys the request
  // stream), so the rest can never be drained here and the connection closes after the answer.
  if (hasBody && !request.raw.complete) reply.header('connection', 'close')
  if (request.method === 'HEAD') {
    await response.body.dump()
    return reply.send()
  }
  return reply.send(await smallBodyOrStream(response.body))
}

/**
 * Why a path and query cannot be passed on, or null: percent-escapes that are not UTF-8 (`%ff`, an
 * overlong `%c0%ae`; PostgREST answers those with a 500) or that decode to a NUL byte (PostgREST
 * reads a name only up to it). A '%' that starts no escape stays PostgREST's to read. Answered as
 * PostgREST answers a query it cannot parse (PGRST100).
 */
export function unreadableTarget(path: string): string | null {
  for (const part of path.split(/[/?&=]/)) {
    if (!part.includes('%')) continue
    let decoded: string
    try {
      decoded = decodeURIComponent(part.replace(/\+/g, ' ').replace(/%(?![0-9a-fA-F]{2})/g, '%25'))
    } catch {
      return `"${part.slice(0, 100)}" is not valid percent-encoded UTF-8`
    }
    if (decoded.includes('\u0000')) return `"${part.slice(0, 100)}" holds a NUL character (\\u0000), which is not accepted`
  }
  return null
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
