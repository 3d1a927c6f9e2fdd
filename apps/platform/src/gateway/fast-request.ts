import type { FastifyBaseLogger } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import { mustCloseAfterEarlyAnswer } from './proxy.js'
import { guardedPolicy, withoutPlatformSetCookies } from './tenant-origin.js'
import type { GatewayService } from './request-log-entry.js'

/*
 * What the project URL's fast path (fast-path.ts) hands its routes (REST there, functions in
 * services/functions/fast-route.ts), in a module of its own so the routes do not import the path that calls them.
 */

/** What a fast route tells the request log about the request (written when the answer is done). */
export interface FastLogFacts {
  service: GatewayService
  role: string | null
  apikey: string | null
}

/** A request served by the fast path, for its routes. */
export interface FastRequest {
  req: IncomingMessage
  res: ServerResponse
  ref: string
  /** The path below the project, query included: `/rest/v1/todos?select=*`. */
  below: string
  cors: Record<string, string>
  /** The client's address (no trusted proxy: the socket's). */
  ip: string | undefined
  protocol: 'http' | 'https'
  /** Call once the route commits to answering: from then on the request log records it. */
  record(facts: FastLogFacts): void
  logger: FastifyBaseLogger
}

/** An answer of an in-process service (auth, storage): its status and headers, then JSON, bytes, a stream or nothing. */
export interface ServiceAnswer {
  status: number
  headers?: Record<string, string>
  body?: unknown
  stream?: Readable
}

/** A JSON answer of the gateway's own (an error), with the project URL's CORS and tenant-origin headers. */
export function answerJson(request: FastRequest, status: number, body: object, extra: Record<string, string> = {}): void {
  writeAnswer(request, { status, headers: extra, body })
}

/**
 * Writes an answer as the Fastify route would have written it (reply.send and tenant-origin.ts's onSend guard): the
 * project URL's CORS headers, the answer's own, the content type Fastify gives the body (JSON for an object or an
 * array, text for a string, octet-stream for bytes), and the tenant-origin guards: nosniff, the sandbox CSP on active
 * content (after a policy of the answer's own, which it can only narrow), no platform cookie set. A stream's headers
 * go out with its first bytes, so a stream that fails to open still answers `failed`'s error (Fastify does the same).
 */
export function writeAnswer(request: FastRequest, answer: ServiceAnswer, failed?: (error: Error) => ServiceAnswer): void {
  const { req, res } = request
  if (res.headersSent || res.destroyed) return
  // Names in lower case, as Fastify's reply keeps them: the answer's own replace the CORS headers of the same name.
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of [...Object.entries(request.cors), ...Object.entries(answer.headers ?? {})]) headers[name.toLowerCase()] = value
  let payload: string | Buffer | undefined
  if (answer.stream === undefined && answer.body !== undefined) {
    if (typeof answer.body === 'string') payload = answer.body
    else if (Buffer.isBuffer(answer.body)) payload = answer.body
    else payload = JSON.stringify(answer.body)
    const type = typeof answer.body === 'string' ? 'text/plain; charset=utf-8' : Buffer.isBuffer(answer.body) ? 'application/octet-stream' : 'application/json; charset=utf-8'
    headers['content-type'] ??= type
    headers['content-length'] = String(Buffer.byteLength(payload))
  } else if (answer.stream === undefined && answer.status !== 204 && answer.status !== 304) {
    // Nothing to send (a HEAD keeps the length its GET would have).
    headers['content-length'] ??= '0'
  }
  headers['x-content-type-options'] = 'nosniff'
  const policy = guardedPolicy(headers['content-type'], headers['content-security-policy'])
  if (policy !== undefined) headers['content-security-policy'] = policy
  const cookies = withoutPlatformSetCookies(headers['set-cookie'])
  if (cookies?.length) headers['set-cookie'] = cookies
  else if (cookies) delete headers['set-cookie']
  // A body left unread on a kept-alive socket would be read as the next request: it is drained, or the socket closes.
  if (mustCloseAfterEarlyAnswer(req)) headers.connection = 'close'
  if (answer.stream === undefined) {
    res.writeHead(answer.status, headers)
    res.end(payload)
    return
  }
  const stream = answer.stream
  res.statusCode = answer.status
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
  stream.once('error', (error) => {
    stream.unpipe(res)
    if (!res.headersSent && failed) {
      for (const name of res.getHeaderNames()) res.removeHeader(name)
      writeAnswer(request, failed(error))
    } else {
      request.logger.warn({ err: error, ref: request.ref }, 'gateway: an answer stream failed')
      res.destroy()
    }
  })
  // The client gone: the source (an open file) is closed too.
  res.once('close', () => {
    if (!res.writableFinished) stream.destroy()
  })
  stream.pipe(res)
}
