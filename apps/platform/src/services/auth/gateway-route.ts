import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingMessage } from 'node:http'
import type { JWTPayload } from 'jose'
import type { PlatformContext } from '../../platform-context.js'
import { API_VERSION_2024, API_VERSION_HEADER, AuthError, badJson } from './errors.js'
import { OPEN_AUTH_PATHS } from './service.js'
import type { ServiceAnswer } from '../../gateway/fast-request.js'
import { headerText } from '../../gateway/paths.js'
import type { GatewayProject } from '../../gateway/project-directory.js'
import { mustCloseAfterEarlyAnswer, readBodyUpTo } from '../../gateway/proxy.js'
import { publicApiBase } from '../../gateway/public-url.js'

/** Auth requests are small JSON documents; anything bigger is refused before it is read in full. */
const MAX_AUTH_BODY_BYTES = 64 * 1024

/** True for the auth paths a browser reaches from an email link, without an API key. */
export function isOpenAuthRequest(method: string, below: string): boolean {
  const path = below.split('?')[0]!.replace(/^\/auth\/v1/, '')
  return method === 'GET' && OPEN_AUTH_PATHS.has(path)
}

/** A request below /auth/v1 as the gateway passed it: `path` starts after /auth/v1, the key and JWT checked. */
export interface GatewayAuthRequest {
  raw: IncomingMessage
  project: GatewayProject
  path: string
  claims: JWTPayload | null
  ip: string | null
  protocol: string
}

/**
 * The auth service's answer to a request: its JSON body read (at most 64 KB), then the service. Both of the gateway's
 * paths write it (serveAuth through Fastify, gateway/fast-path.ts on the raw listener).
 */
export async function authAnswer(ctx: PlatformContext, request: GatewayAuthRequest): Promise<ServiceAnswer> {
  const { raw, project, path } = request
  const apiVersion = headerText(raw.headers[API_VERSION_HEADER])
  const versioned = (answer: ServiceAnswer): ServiceAnswer =>
    apiVersion && apiVersion >= API_VERSION_2024 ? { ...answer, headers: { ...answer.headers, [API_VERSION_HEADER]: API_VERSION_2024 } } : answer
  const mark = path.indexOf('?')
  const pathname = (mark < 0 ? path : path.slice(0, mark)) || '/'
  let body: Record<string, unknown>
  try {
    body = await readJsonObject(raw)
  } catch (error) {
    if (!(error instanceof AuthError)) throw error
    // Refused before the body was read to its end: the writer drains it, or the connection closes after the answer.
    return { status: error.status, body: error.body(apiVersion) }
  }
  const answer = await ctx.auth.handle(
    {
      project,
      method: raw.method!,
      path: pathname.startsWith('/') ? pathname : `/${pathname}`,
      query: new URLSearchParams(mark < 0 ? '' : path.slice(mark + 1)),
      body,
      claims: request.claims,
      ip: request.ip,
      userAgent: headerText(raw.headers['user-agent']) ?? null,
      publicBase: publicApiBase(ctx.config, project.ref, raw.headers.host, request.protocol),
    },
    apiVersion,
  )
  return versioned(answer)
}

/** Hands a request below /auth/v1 (`path` starts after it) to the auth service and writes its answer through Fastify. */
export async function serveAuth(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: PlatformContext,
  project: GatewayProject,
  path: string,
  claims: JWTPayload | null,
  cors: Record<string, string>,
): Promise<FastifyReply> {
  const answer = await authAnswer(ctx, { raw: request.raw, project, path, claims, ip: request.ip ?? null, protocol: request.protocol })
  if (mustCloseAfterEarlyAnswer(request.raw)) reply.header('connection', 'close')
  reply.code(answer.status).headers(cors).headers(answer.headers ?? {})
  return answer.body === undefined ? reply.send() : reply.send(answer.body)
}

/** The request's JSON body as an object ({} when there is none). */
async function readJsonObject(raw: IncomingMessage): Promise<Record<string, unknown>> {
  const read = await readBodyUpTo(raw, MAX_AUTH_BODY_BYTES)
  if (read === null) throw new AuthError(413, 'request_too_large', 'Request body is larger than 64 KB')
  const text = read.toString('utf8').trim()
  if (!text) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw badJson()
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badJson()
  return parsed as Record<string, unknown>
}
