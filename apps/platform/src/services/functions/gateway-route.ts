import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders } from 'node:http'
import type { Dispatcher } from 'undici'
import type { PlatformContext } from '../../platform-context.js'
import type { FunctionProcess } from './function-process.js'
import { GatewayError, isDisabledLegacyKey, namedKeyRole } from '../../gateway/api-key.js'
import { verifiedProjectClaims } from '../../keys/project-keys.js'
import type { GatewayProject } from '../../gateway/project-directory.js'

/**
 * /functions/v1/<slug>/...: every request goes to the function, which decides about keys itself as on
 * Supabase: with verify_jwt (the default) a valid JWT of the project in Authorization, without it
 * nothing. So the gateway lets functions requests through without an apikey (gateway.ts).
 */
export const isFunctionsRequest = (below: string): boolean => /^\/functions\/v1(\/|$|\?)/.test(below)

/** Below /functions/v1: the slug, the rest of the path, the query. */
export const FUNCTION_TARGET = /^\/([^/?]+)([^?]*)(\?.*)?$/
/** As deploys accept them (contracts FunctionSlug): anything else cannot exist. */
export const SLUG = /^[A-Za-z][A-Za-z0-9_-]{0,127}$/
const NOT_FOUND = { code: 'NOT_FOUND', message: 'Requested function was not found' }

/** Not passed on: hop-by-hop headers and the forwarding headers (set again below from what the gateway saw). */
const DROPPED_REQUEST_HEADERS = new Set([
  // Cookies pass (a function may serve a web app): the platform's own were removed before routing (tenant-origin.ts).
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect', 'host',
  'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto',
])
const DROPPED_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade'])

export class FunctionTimeout extends Error {}
/** The client went away: nothing to answer, and nothing wrong with the function. */
class ClientGone extends Error {}
/** How long a failed request waits to see the process exit, so its answer can say why. */
export const EXIT_WAIT_MS = 5_000

export interface FunctionCaller {
  /** The verified JWT's role, for the request log. */
  role: string | null
}

/**
 * verify_jwt's check: the caller's role, or the relay's refusal. A publishable or secret key as the bearer stands
 * for its role (supabase-js sends the key it was made with); anything else must be a valid, unexpired JWT of the
 * project. Like Supabase's relay, only the signature and expiry decide: a JWT without a `role` claim passes (its role
 * is logged as null), since the function, not PostgREST, is what reads it.
 */
export async function jwtCaller(
  project: GatewayProject,
  headers: IncomingHttpHeaders,
): Promise<{ role: string | null } | { refusal: { status: number; body: object } }> {
  const refusal = (status: number, message: string) => ({ refusal: { status, body: { code: status, message } } })
  const authorization = headers.authorization
  if (!authorization) return refusal(401, 'Missing authorization header')
  const token = /^Bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim()
  if (isDisabledLegacyKey(project, token)) return refusal(401, 'Legacy API keys are disabled')
  let namedRole: string | null = null
  try {
    namedRole = token ? namedKeyRole(project, token, headers['user-agent']) : null
  } catch (error) {
    if (error instanceof GatewayError) return refusal(error.status, error.message)
    throw error
  }
  if (namedRole) return { role: namedRole }
  const claims = token ? await verifiedProjectClaims(project, token) : null
  if (!claims) return refusal(401, 'Invalid JWT')
  return { role: typeof claims.role === 'string' ? claims.role : null }
}

/** Serves a request below /functions/v1 (`below` is the whole path below the project, query included). */
export async function serveFunction(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: PlatformContext,
  project: GatewayProject,
  below: string,
  caller: FunctionCaller,
  cors: Record<string, string>,
): Promise<FastifyReply> {
  const rest = below.slice('/functions/v1'.length)
  const match = FUNCTION_TARGET.exec(rest)
  if (!match) return reply.code(404).headers(cors).send(NOT_FOUND)
  const slug = decodeSegment(match[1]!)
  const row = slug !== null && SLUG.test(slug) ? await ctx.functions.find(project.ref, slug) : null
  if (!row) return reply.code(404).headers(cors).send(NOT_FOUND)

  // Refusals of the relay itself (the function never ran) carry Supabase's relay flag: functions-js raises them as a
  // FunctionsRelayError, not as the function's own FunctionsHttpError.
  const refuse = (status: number, body: object) => reply.code(status).headers({ ...cors, 'x-relay-error': 'true' }).send(body)
  if (row.verify_jwt) {
    const checked = await jwtCaller(project, request.headers)
    if ('refusal' in checked) return refuse(checked.refusal.status, checked.refusal.body)
    caller.role = checked.role
  }
  if (project.status !== 'ACTIVE_HEALTHY') {
    return refuse(503, { error: 'The project is not running', message: `The project is not running (status: ${project.status})` })
  }

  let process: FunctionProcess
  try {
    process = await ctx.functions.acquire(project, row)
  } catch (error) {
    request.log.warn({ ref: project.ref, function: slug, err: error }, 'edge function failed to start')
    return reply.code(503).headers(cors).send({ code: 'BOOT_ERROR', error: 'The function failed to start', message: (error as Error).message })
  }
  return proxyToFunction(request, reply, ctx, process, `/${match[1]}${match[2]}${match[3] ?? ''}`, cors)
}

/**
 * Streams the request to the function's socket and its answer back, within the wall-clock limit. A
 * hung request kills the process (504); a process that dies answers 502 with its error; either way
 * the next request starts a fresh one.
 */
async function proxyToFunction(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: PlatformContext,
  process: FunctionProcess,
  path: string,
  cors: Record<string, string>,
): Promise<FastifyReply> {
  const limit = ctx.functions.timeoutMs
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new FunctionTimeout()), limit)
  const end = process.begin()
  const finish = () => {
    clearTimeout(timer)
    end()
  }
  // A client that disconnects cancels the request to the function (its req.signal aborts).
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new ClientGone())
  })
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
  let response: Dispatcher.ResponseData
  try {
    response = await process.http.request({
      origin: 'http://localhost',
      method: request.method as Dispatcher.HttpMethod,
      path,
      headers: requestHeaders(request),
      body: hasBody ? request.raw : null,
      signal: controller.signal,
      // The wall-clock limit above is the only one: a function may take its time to answer or stream.
      headersTimeout: 0,
      bodyTimeout: 0,
    })
  } catch (error) {
    finish()
    // Nobody reads this answer; the request log records the client's close (499, as nginx names it).
    if (controller.signal.reason instanceof ClientGone) return reply.code(499).send()
    if (controller.signal.reason instanceof FunctionTimeout) {
      process.kill()
      void ctx.functions.discard(process)
      return reply.code(504).headers(cors).send({ error: 'Function timed out', message: `The function did not answer within ${limit} ms (wall-clock limit); its process was stopped` })
    }
    // Did the process die? Give it a moment to be seen exiting, so the answer can say why.
    await Promise.race([process.exited, new Promise((resolve) => setTimeout(resolve, EXIT_WAIT_MS).unref())])
    const message = process.hasExited ? process.exitReason() : `The function could not be reached: ${(error as Error).message}`
    void ctx.functions.discard(process)
    request.log.warn({ function: process.key, err: error }, 'edge function request failed')
    return reply.code(502).headers(cors).send({ error: 'The function crashed', message })
  }
  // The function answered before the client's body was read (undici stops sending it): the rest of that body
  // would be read as the next request on this connection, so the connection ends with this answer.
  if (hasBody && !request.raw.complete) reply.header('connection', 'close')
  response.body.once('end', finish)
  response.body.once('close', finish)
  response.body.once('error', (error) => {
    finish()
    if (controller.signal.reason instanceof FunctionTimeout) {
      process.kill()
      void ctx.functions.discard(process)
    }
    request.log.warn({ function: process.key, err: error }, 'edge function answer cut short')
  })
  void reply.code(response.statusCode).headers(responseHeaders(response.headers, cors))
  if (request.method === 'HEAD') {
    await response.body.dump()
    return reply.send()
  }
  // Streamed as the function writes it (server-sent events, large downloads): nothing is buffered here.
  return reply.send(response.body)
}

function requestHeaders(request: FastifyRequest): Record<string, string | string[]> {
  return functionRequestHeaders(request.headers, request.protocol, request.ip)
}

/** What the function gets of the client's headers, with the client's view of the URL and address. */
export function functionRequestHeaders(headers: IncomingHttpHeaders, protocol: string, ip: string | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined || DROPPED_REQUEST_HEADERS.has(name)) continue
    out[name] = value
  }
  // The client's view of the URL, for req.url inside the function (bootstrap.ts).
  out['x-forwarded-host'] = headers.host ?? 'localhost'
  out['x-forwarded-proto'] = protocol
  if (ip) out['x-forwarded-for'] = ip
  return out
}

/** The function's own CORS headers win; the gateway's are added when it sets none. */
function responseHeaders(headers: Dispatcher.ResponseData['headers'], cors: Record<string, string>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue
    out[name] = value
  }
  if (!('access-control-allow-origin' in out)) Object.assign(out, cors)
  return out
}

export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}
