import type { FastifyBaseLogger } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { mustCloseAfterEarlyAnswer } from './proxy.js'
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

/** A JSON answer of the gateway's own (an error), with the project URL's CORS and tenant-origin headers. */
export function answerJson(request: FastRequest, status: number, body: object, extra: Record<string, string> = {}): void {
  const { req, res } = request
  if (res.headersSent || res.destroyed) return
  const text = JSON.stringify(body)
  const headers: Record<string, string> = {
    ...request.cors,
    ...extra,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'x-content-type-options': 'nosniff',
  }
  // A body left unread on a kept-alive socket would be read as the next request: it is drained, or the socket closes.
  if (mustCloseAfterEarlyAnswer(req)) headers.connection = 'close'
  res.writeHead(status, headers)
  res.end(text)
}
