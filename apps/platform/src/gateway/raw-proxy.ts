import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Dispatcher } from 'undici'
import { isPlatformCookieName, tenantContentHeaders } from './tenant-origin.js'

/**
 * The project URL's proxy without Fastify (fast-path.ts): undici's dispatcher straight onto the service's socket,
 * its answer written to the client's ServerResponse as it arrives. No Readable stream of the answer, no header
 * objects built and merged: the upstream's raw header list is filtered once into the list Node writes.
 *
 * It reproduces what the Fastify route (proxy.ts and tenant-origin.ts's onSend hook) answers, header for header.
 */

/** Headers of one connection, never passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP_RESPONSE = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade', 'proxy-authenticate', 'proxy-authorization', 'te', 'expect', 'host'])

export interface RawAnswerShape {
  /** Set on top of the upstream's: CORS on the REST route (the gateway's win over the service's). */
  override: Record<string, string>
  /** Added only when the upstream sets no access-control-allow-origin (a function's own CORS wins). */
  corsUnlessOwn: Record<string, string> | null
  /**
   * Small answers are read whole and written in one go (one write instead of one per chunk); past this size,
   * and for every answer when 0, they stream (a function's server-sent events must not wait).
   */
  bufferLimit: number
}

export interface RawProxyCallbacks {
  /** The upstream failed before anything was written to the client: the caller answers (its own error shape). */
  failed(error: Error): void
  /** The upstream failed after the answer began: the client's connection is cut (the client sees it). */
  cutShort?(error: Error): void
  /** The exchange is over (answered, failed or abandoned): exactly once. */
  done(): void
}

/**
 * Sends the client's request to `upstream` and writes the answer to `res`. The request body (when the method has
 * one) is streamed from `req` untouched; the answer is filtered by `shape` and the tenant-origin guards.
 */
export function proxyRaw(
  upstream: Dispatcher,
  req: IncomingMessage,
  res: ServerResponse,
  options: Dispatcher.DispatchOptions,
  shape: RawAnswerShape,
  callbacks: RawProxyCallbacks,
): RawExchange {
  const exchange = new RawExchange(req, res, options.method === 'HEAD', options.body != null, shape, callbacks)
  // Gone while the checks ran: nothing is sent on.
  if (res.destroyed) {
    exchange.abort(new ClientGone())
    return exchange
  }
  // A client that goes away cancels the upstream request (a function's req.signal aborts).
  res.once('close', () => exchange.clientClosed())
  upstream.dispatch(options, exchange)
  return exchange
}

export class RawExchange implements Dispatcher.DispatchHandlers {
  private abortUpstream: ((error?: Error) => void) | null = null
  private status = 0
  private headers: string[] = []
  private contentType: string | string[] | undefined
  private chunks: Buffer[] = []
  private size = 0
  private streaming = false
  private finished = false
  private resume: (() => void) | null = null
  private readonly onDrain = () => this.resume?.()

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly head: boolean,
    private readonly hasBody: boolean,
    private readonly shape: RawAnswerShape,
    private readonly callbacks: RawProxyCallbacks,
  ) {}

  /** Cancels the upstream request (a timeout, the client gone); `failed` is told unless the answer has begun. */
  abort(error: Error): void {
    if (this.finished) return
    if (this.abortUpstream) this.abortUpstream(error)
    else this.onError(error)
  }

  clientClosed(): void {
    if (!this.finished && !this.res.writableFinished) this.abort(new ClientGone())
  }

  onConnect(abort: (error?: Error) => void): void {
    this.abortUpstream = abort
    // Given up on while it waited for a connection (a timeout, the client gone): never sent.
    if (this.finished) abort(new ClientGone())
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[] | string[] | null, resume: () => void): boolean {
    if (this.finished) return false
    // 1xx interim answers (100 Continue) are not passed on: the final answer follows.
    if (statusCode < 200) return true
    this.status = statusCode
    this.resume = resume
    const answer = answerHeaders(rawHeaders ?? [], this.shape)
    this.headers = answer.headers
    this.contentType = answer.contentType
    const declared = Number(headerValue(this.headers, 'content-length'))
    if (!this.shape.bufferLimit || declared > this.shape.bufferLimit) this.startStreaming()
    return true
  }

  onData(chunk: Buffer): boolean {
    if (this.finished) return false
    if (this.streaming) return this.write(chunk)
    this.chunks.push(chunk)
    this.size += chunk.length
    if (this.size <= this.shape.bufferLimit) return true
    this.startStreaming()
    const buffered = this.chunks
    this.chunks = []
    let more = true
    for (const part of buffered) more = this.write(part)
    return more
  }

  onComplete(): void {
    if (this.finished) return
    this.finished = true
    const { res } = this
    if (!this.streaming) {
      // Fastify's reply.send(Buffer): a type when the service gave none, the exact length, none of either on a 204.
      const noBody = this.status === 204 || this.status === 304
      if (!this.head && !noBody) setHeader(this.headers, 'content-length', String(this.size))
      this.writeHead()
      if (this.head || noBody) res.end()
      else res.end(this.size === 0 ? undefined : this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size))
    } else {
      res.end()
    }
    this.res.off('drain', this.onDrain)
    this.callbacks.done()
  }

  onError(error: Error): void {
    if (this.finished) return
    this.finished = true
    this.res.off('drain', this.onDrain)
    if (this.res.headersSent || this.streaming) {
      // Part of the answer is out: the client sees it cut short.
      if (!(error instanceof ClientGone)) this.callbacks.cutShort?.(error)
      this.res.destroy()
    } else if (!(error instanceof ClientGone)) {
      this.callbacks.failed(error)
    }
    this.callbacks.done()
  }

  onBodySent(): void {}

  private startStreaming(): void {
    this.streaming = true
    // A streamed answer keeps the service's framing (its content-length, or chunked).
    this.writeHead()
    this.res.on('drain', this.onDrain)
  }

  private writeHead(): void {
    guard(this.headers, this.contentType, !this.streaming && !this.head)
    // The service answered before it read the whole body: undici stops sending it, the rest can never be drained
    // here, so the connection closes after the answer.
    if (this.hasBody && !this.req.complete) setHeader(this.headers, 'connection', 'close')
    // Fastify's rule for answers without a body: no type, no length on a 204.
    if (this.status === 204) {
      dropHeader(this.headers, 'content-type')
      dropHeader(this.headers, 'content-length')
    }
    this.res.writeHead(this.status, this.headers)
  }

  private write(chunk: Buffer): boolean {
    if (this.head || this.res.destroyed) return true
    return this.res.write(chunk)
  }
}

/** Bodies of at most this size (as declared by Content-Length) are read before the request is sent. */
const SMALL_BODY_BYTES = 64 * 1024

/**
 * The body to send on: read whole when its declared length is small, so that undici writes the request (headers and
 * body) in one go instead of the headers and then each chunk of a stream; else the stream itself. Rejects with
 * ClientGone when the client goes away before the end of its body.
 */
export function bodyToSend(req: IncomingMessage): Buffer | IncomingMessage | Promise<Buffer | IncomingMessage> {
  const declared = req.headers['content-length']
  if (declared === undefined || req.headers['transfer-encoding'] !== undefined || Number(declared) > SMALL_BODY_BYTES) return req
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.length
    })
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)))
    req.once('error', () => reject(new ClientGone()))
    req.once('close', () => {
      if (!req.complete) reject(new ClientGone())
    })
  })
}

/**
 * The request's body for the fast paths: null for GET and HEAD, else bodyToSend's; undefined when the client went
 * away half-way through it (the response is destroyed then: nothing to answer, the log says 499).
 */
export async function bodyOrGone(req: IncomingMessage, res: ServerResponse): Promise<Buffer | IncomingMessage | null | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return null
  try {
    return await bodyToSend(req)
  } catch {
    res.destroy()
    return undefined
  }
}

/** The client went away: nothing to answer. */
export class ClientGone extends Error {
  constructor() {
    super('The client closed the connection')
  }
}

/**
 * The upstream's raw header list (name, value, name, value...) as the client gets it: hop-by-hop headers dropped,
 * the shape's CORS applied, the platform's cookies never set; the tenant-origin guards follow when it is written
 * (guard, below). Also answers the service's content type, which decides them.
 */
export function answerHeaders(raw: Array<Buffer | string>, shape: RawAnswerShape): { headers: string[]; contentType: string | string[] | undefined } {
  const out: string[] = []
  const overridden = shape.override
  let ownCors = false
  let contentType: string | string[] | undefined
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toString('latin1')
    const value = raw[index + 1]!.toString('latin1')
    const lower = name.toLowerCase()
    if (HOP_BY_HOP_RESPONSE.has(lower) || lower in overridden || lower === 'x-content-type-options') continue
    if (lower === 'set-cookie' && isPlatformCookieName(value.split('=')[0] ?? '')) continue
    if (lower === 'access-control-allow-origin') ownCors = true
    if (lower === 'content-type') contentType = contentType === undefined ? value : [...[contentType].flat(), value]
    out.push(name, value)
  }
  for (const name in overridden) out.push(name, overridden[name]!)
  if (shape.corsUnlessOwn && !ownCors) for (const name in shape.corsUnlessOwn) out.push(name, shape.corsUnlessOwn[name]!)
  return { headers: out, contentType }
}

/**
 * tenant-origin.ts's guards, added to a header list. A buffered answer without a type is sent by Fastify as
 * application/octet-stream (passive); a streamed one, or a HEAD answer, keeps having none (active: sandboxed).
 */
function guard(out: string[], contentType: string | string[] | undefined, buffered: boolean): void {
  if (contentType === undefined && buffered) {
    out.push('content-type', 'application/octet-stream')
    contentType = 'application/octet-stream'
  }
  const added = tenantContentHeaders(contentType)
  out.push('x-content-type-options', added['x-content-type-options']!)
  // A tenant's own policy stays: a second CSP header only narrows what the first allows.
  if (added['content-security-policy']) out.push('content-security-policy', added['content-security-policy'])
}

function headerValue(list: string[], lower: string): string | undefined {
  for (let index = 0; index < list.length; index += 2) if (list[index]!.toLowerCase() === lower) return list[index + 1]
  return undefined
}

function dropHeader(list: string[], lower: string): void {
  for (let index = list.length - 2; index >= 0; index -= 2) if (list[index]!.toLowerCase() === lower) list.splice(index, 2)
}

function setHeader(list: string[], lower: string, value: string): void {
  dropHeader(list, lower)
  list.push(lower, value)
}
