import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import type { PlatformContext } from '../platform-context.js'
import { serveFunctionFast } from '../services/functions/fast-route.js'
import { checkApiKey, verifiedClaims, type KeyCheck } from './api-key.js'
import { corsHeaders } from './cors.js'
import type { GatewayProject } from './project-directory.js'
import { projectHostRewriter } from './host-routing.js'
import { presentedApiKey, servicePath } from './paths.js'
import { answerJson, writeAnswer, type FastRequest } from './fast-request.js'
import { authAnswer, isOpenAuthRequest } from '../services/auth/gateway-route.js'
import { isOpenStorageRequest, storageAnswer, storageFailure } from '../services/storage/gateway-route.js'
import { forwardedRequestHeaders, unreadableTarget } from './proxy.js'
import { bodyOrGone, proxyRaw } from './raw-proxy.js'
import { withoutPlatformCookies } from './tenant-origin.js'
import { graphqlTarget } from '../services/graphql/target.js'
import { signaturePrefix } from './request-log-entry.js'

/**
 * The project URL's hot paths without Fastify (issue 32: a Fastify route cost more than PostgREST itself on a
 * 100-row read): a REST request or a function invocation that passes every check (the project running, the key,
 * the JWT, the function's verify_jwt) goes from the node:http listener straight to undici's dispatcher on the
 * service's socket (raw-proxy.ts), a GraphQL POST to the project's engine, and an auth or storage request to the
 * in-process service, its answer written as the Fastify route writes it (fast-request.ts writeAnswer). Everything
 * else (a refusal, a preflight, realtime, a trusted proxy's X-Forwarded-For to read) goes on to the Fastify routes of
 * gateway.ts, which answer exactly as before: a request is handed over untouched (its body unread) whenever the fast
 * path would not serve it.
 * Both paths write the same request log entries.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void
type FastService = 'rest' | 'functions' | 'graphql' | 'auth' | 'storage'

/** A request the fast path may serve: `/projects/{ref}/rest/v1...`, `.../functions/v1/...`, `.../graphql/v1`, `.../auth/v1...`, `.../storage/v1...`. */
const FAST_TARGET = /^\/projects\/([a-z]{20})(\/(rest|functions|graphql|auth|storage)\/v1(?:[/?]|$)[^]*)$/
const FAST_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'])
/** As proxy.ts: answers up to this size are written in one go, larger ones stream. */
const BUFFERED_BODY_LIMIT = 256 * 1024

/**
 * Puts the fast path in front of the Fastify app's own request handler (the project listener only). With a
 * trusted proxy (STRATUM_TRUST_PROXY) the client's address is Fastify's to work out: everything goes to Fastify.
 */
export function installFastPath(app: FastifyInstance, ctx: PlatformContext): void {
  if (ctx.config.trustProxy !== false) return
  const server = app.server
  const listeners = server.listeners('request') as Handler[]
  // Fastify's own handler, added when the server was made; anything else means a setup this does not know.
  if (listeners.length !== 1) return
  const fastify = listeners[0]!
  server.removeListener('request', fastify)
  const rewrite = projectHostRewriter(ctx.config.projectDomain)
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = rewrite ? rewrite(req) : (req.url ?? '/')
    const match = FAST_METHODS.has(req.method!) ? FAST_TARGET.exec(url) : null
    if (!match) return fastify(req, res)
    const request = fastRequest(ctx, app.log, req, res, match[1]!, match[2]!)
    const attempt = FAST_SERVICES[match[3] as FastService](ctx, request)
    attempt.then(
      (served) => {
        if (!served) fastify(req, res)
      },
      (error: unknown) => {
        // Thrown before the route committed (nothing written): Fastify's route answers, in its own error shape.
        app.log.debug({ err: error }, 'gateway fast path: handed to the Fastify route')
        if (!res.headersSent && !res.writableEnded) fastify(req, res)
        else res.destroy()
      },
    )
  })
}

function fastRequest(ctx: PlatformContext, logger: FastifyBaseLogger, req: IncomingMessage, res: ServerResponse, ref: string, below: string): FastRequest {
  const started = performance.now()
  const timestamp = Date.now()
  const ip = req.socket.remoteAddress
  // tenant-origin.ts's onRequest guard: the platform's cookies never reach a service (a function would read the
  // dashboard's session). Done again, to the same effect, if the request goes on to Fastify.
  const cookie = req.headers.cookie
  if (cookie !== undefined) {
    const kept = withoutPlatformCookies(cookie)
    if (kept === undefined) delete req.headers.cookie
    else req.headers.cookie = kept
  }
  return {
    req,
    res,
    ref,
    below,
    cors: corsHeaders(req),
    ip,
    protocol: (req.socket as TLSSocket).encrypted ? 'https' : 'http',
    logger,
    record(facts) {
      res.once('close', () => {
        ctx.requestLog.record({
          timestamp: new Date(timestamp),
          projectRef: ref,
          service: facts.service,
          method: req.method!,
          path: below,
          // Nothing was answered: the client went away first (499, as nginx names it).
          status: res.headersSent ? res.statusCode : 499,
          durationMs: Math.round((performance.now() - started) * 1000) / 1000,
          role: facts.role,
          signaturePrefix: signaturePrefix(facts.apikey),
          userAgent: req.headers['user-agent'] ?? null,
          clientAddress: ip ?? null,
        })
      })
    },
  }
}

/**
 * The project, running, and the key the request presents, checked (checkApiKey); null when the Fastify route must
 * answer instead (no such project, not running, or a refusal, which it words in the service's own shape).
 */
async function runningProjectAndKey(ctx: PlatformContext, request: FastRequest): Promise<{ project: GatewayProject; key: Omit<KeyCheck, 'claims'> } | null> {
  const { req, below } = request
  const project = await ctx.directory.getCurrent(request.ref)
  if (!project || project.status !== 'ACTIVE_HEALTHY') return null
  try {
    return { project, key: checkApiKey(project, presentedApiKey(req.headers, below), req.headers.authorization, req.headers['user-agent']) }
  } catch {
    return null
  }
}

/**
 * `/rest/v1`: the key check (checkApiKey), the bearer's claims (for the log's role; PostgREST verifies the JWT
 * itself), then PostgREST over its socket. Refusals and unreadable paths are the Fastify route's (false).
 */
async function serveRest(ctx: PlatformContext, request: FastRequest): Promise<boolean> {
  const { req, res, below } = request
  const checked = await runningProjectAndKey(ctx, request)
  if (!checked) return false
  const { project, key } = checked
  const path = servicePath(below)
  const target = path.startsWith('/') ? path : `/${path}`
  if (unreadableTarget(target)) return false
  const claims = await verifiedClaims(project, key.bearer)
  request.record({ service: 'rest', role: claims ? String(claims.role) : null, apikey: key.apikey })
  let postgrest
  try {
    postgrest = await ctx.rest.acquire(project)
  } catch (error) {
    request.logger.warn({ err: error, ref: request.ref, service: 'rest' }, 'gateway: the service failed')
    answerJson(request, 503, { message: `The rest service of this project is not available: ${(error as Error).message}` })
    return true
  }
  const body = await bodyOrGone(req, res)
  if (body === undefined) return true
  proxyRaw(
    postgrest.http,
    req,
    res,
    {
      method: req.method as 'GET',
      path: target,
      headers: forwardedRequestHeaders(req.headers, { authorization: `Bearer ${key.bearer}`, ...(request.ip ? { 'x-forwarded-for': request.ip } : {}) }),
      body,
    },
    { override: request.cors, corsUnlessOwn: null, bufferLimit: BUFFERED_BODY_LIMIT },
    {
      failed: (error) => {
        request.logger.warn({ err: error, ref: request.ref, service: 'rest' }, 'gateway: the service failed')
        answerJson(request, 503, { message: `The rest service of this project is not available: ${error.message}` })
      },
      done: () => {},
    },
  )
  return true
}

/**
 * `/graphql/v1` (POST): the key check, then the JWT (its role must be one GraphQL runs as: graphqlTarget), then the
 * project's engine on the raw request and response, as gateway.ts's route does after the same checks. Refusals, other
 * methods and stopped projects are the Fastify route's (false).
 */
async function serveGraphql(ctx: PlatformContext, request: FastRequest): Promise<boolean> {
  const { req, res, below } = request
  if (req.method !== 'POST') return false
  const checked = await runningProjectAndKey(ctx, request)
  if (!checked) return false
  const { project, key } = checked
  const target = graphqlTarget(project, await verifiedClaims(project, key.bearer))
  if (!target) return false
  request.record({ service: 'graphql', role: target.role, apikey: key.apikey })
  for (const [name, value] of Object.entries(request.cors)) res.setHeader(name, value)
  const path = servicePath(below)
  req.url = `/graphql${path.startsWith('?') ? path : ''}`
  try {
    await ctx.graphql.handle(req, res, target)
  } catch (error) {
    // The body may be read already: the answer is this route's, in the Fastify route's words.
    request.logger.warn({ err: error, ref: request.ref, service: 'graphql' }, 'gateway: the service failed')
    if (!res.headersSent) answerJson(request, 503, { message: `The graphql service of this project is not available: ${(error as Error).message}` })
    else res.destroy()
  }
  return true
}

/**
 * `/auth/v1` and `/storage/v1`: the checks of gateway.ts's route (an open path needs the project running, anything
 * else the key as well; the bearer's claims verified), then the in-process service (authAnswer, storageAnswer), its
 * answer written here. Refusals of the gateway's own are the Fastify route's (false).
 */
async function serveInProcess(ctx: PlatformContext, request: FastRequest, service: 'auth' | 'storage'): Promise<boolean> {
  const { req, below } = request
  const open = service === 'auth' ? isOpenAuthRequest(req.method!, below) : isOpenStorageRequest(req.method!, below)
  let project: GatewayProject
  let key: KeyCheck | null = null
  if (open) {
    const found = await ctx.directory.getCurrent(request.ref)
    if (!found || found.status !== 'ACTIVE_HEALTHY') return false
    project = found
  } else {
    const checked = await runningProjectAndKey(ctx, request)
    if (!checked) return false
    project = checked.project
    key = { ...checked.key, claims: await verifiedClaims(project, checked.key.bearer) }
  }
  request.record({ service, role: key?.claims ? String(key.claims.role) : null, apikey: key?.apikey ?? null })
  const path = servicePath(below)
  try {
    if (service === 'auth') {
      writeAnswer(request, await authAnswer(ctx, { raw: req, project, path, claims: key?.claims ?? null, ip: request.ip ?? null, protocol: request.protocol }))
    } else {
      writeAnswer(request, await storageAnswer(ctx, { raw: req, project, path, key }, request.logger), storageFailure)
    }
  } catch (error) {
    // The body may be read already: the answer is this route's, in the Fastify route's words.
    request.logger.warn({ err: error, ref: request.ref, service }, 'gateway: the service failed')
    answerJson(request, 503, { message: `The ${service} service of this project is not available: ${(error as Error).message}` })
  }
  return true
}

const FAST_SERVICES: Record<FastService, (ctx: PlatformContext, request: FastRequest) => Promise<boolean>> = {
  rest: serveRest,
  graphql: serveGraphql,
  functions: serveFunctionFast,
  auth: (ctx, request) => serveInProcess(ctx, request, 'auth'),
  storage: (ctx, request) => serveInProcess(ctx, request, 'storage'),
}
