import type { FastifyReply, FastifyRequest } from 'fastify'
import type { JWTPayload } from 'jose'
import type { PlatformContext } from '../../platform-context.js'
import { API_VERSION_2024, API_VERSION_HEADER, AuthError, badJson } from './errors.js'
import { OPEN_AUTH_PATHS } from './service.js'
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

/** Hands a request below /auth/v1 (`path` starts after it) to the auth service and writes its answer. */
export async function serveAuth(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: PlatformContext,
  project: GatewayProject,
  path: string,
  claims: JWTPayload | null,
  cors: Record<string, string>,
): Promise<FastifyReply> {
  const apiVersion = headerText(request.headers[API_VERSION_HEADER])
  const mark = path.indexOf('?')
  const pathname = (mark < 0 ? path : path.slice(0, mark)) || '/'
  let body: Record<string, unknown>
  try {
    body = await readJsonObject(request)
  } catch (error) {
    if (!(error instanceof AuthError)) throw error
    // Refused before the body was read to its end: drained, or the connection closes after the answer.
    if (mustCloseAfterEarlyAnswer(request.raw)) reply.header('connection', 'close')
    return reply.code(error.status).headers(cors).send(error.body(apiVersion))
  }
  const answer = await ctx.auth.handle(
    {
      project,
      method: request.method,
      path: pathname.startsWith('/') ? pathname : `/${pathname}`,
      query: new URLSearchParams(mark < 0 ? '' : path.slice(mark + 1)),
      body,
      claims,
      ip: request.ip ?? null,
      userAgent: headerText(request.headers['user-agent']) ?? null,
      publicBase: publicApiBase(ctx.config, project.ref, request.headers.host, request.protocol),
    },
    apiVersion,
  )
  reply.code(answer.status).headers(cors).headers(answer.headers ?? {})
  if (apiVersion && apiVersion >= API_VERSION_2024) reply.header(API_VERSION_HEADER, API_VERSION_2024)
  return answer.body === undefined ? reply.send() : reply.send(answer.body)
}

/** The request's JSON body as an object ({} when there is none). */
async function readJsonObject(request: FastifyRequest): Promise<Record<string, unknown>> {
  const read = await readBodyUpTo(request.raw, MAX_AUTH_BODY_BYTES)
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

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
