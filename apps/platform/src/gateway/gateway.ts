import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { PlatformContext } from '../platform-context.js'
import { checkApiKey, GatewayError, verifiedClaims, type KeyCheck } from './api-key.js'
import { isOpenAuthRequest, serveAuth } from '../services/auth/gateway-route.js'
import { isFunctionsRequest, serveFunction } from '../services/functions/gateway-route.js'
import { answerPreflight, corsHeaders } from './cors.js'
import type { GatewayProject } from './project-directory.js'
import { forward } from './proxy.js'
import { installFastPath } from './fast-path.js'
import { presentedApiKey, servicePath, withoutApiKeyParam } from './paths.js'
import { serveRealtimeHttp } from '../services/realtime/http-broadcast.js'
import { isOpenStorageRequest, serveStorage } from '../services/storage/gateway-route.js'
import { signaturePrefix, type GatewayService, type RequestLogEntry } from './request-log-entry.js'
import { graphqlTarget } from '../services/graphql/target.js'

const SERVICES: Record<string, GatewayService> = {
  'rest/v1': 'rest',
  'graphql/v1': 'graphql',
  'auth/v1': 'auth',
  'storage/v1': 'storage',
  'functions/v1': 'functions',
  'realtime/v1': 'realtime',
}
const REF = /^[a-z]{20}$/

/** Services of later issues: refused in the format each one's client reads. */
const NOT_SERVED: Partial<Record<GatewayService, (message: string) => object>> = {}

/** Kong's answer for a path no service owns. */
const NO_ROUTE = { message: 'no Route matched with those values' }

interface Pending {
  started: number
  ref: string
  service: GatewayService
  path: string
  role: string | null
  apikey: string | null
}

/**
 * The project URL (`/projects/{ref}/...`, or `{ref}.<domain>/...` through host-routing.ts): CORS, the key
 * check, then the service; every request recorded in the request log. Bodies stream through untouched.
 */
export async function registerGateway(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const pending = new WeakMap<FastifyRequest, Pending>()
  // REST reads and writes and function invocations that pass every check skip Fastify (fast-path.ts).
  installFastPath(app, ctx)

  await app.register(async (scope) => {
    // Bodies are the services' business: nothing is parsed or buffered here.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null))

    scope.addHook('onResponse', async (request, reply) => {
      const seen = pending.get(request)
      if (!seen) return
      const entry: RequestLogEntry = {
        timestamp: new Date(seen.started),
        projectRef: seen.ref,
        service: seen.service,
        method: request.method,
        path: seen.path,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
        role: seen.role,
        signaturePrefix: signaturePrefix(seen.apikey),
        userAgent: request.headers['user-agent'] ?? null,
        clientAddress: request.ip ?? null,
      }
      ctx.requestLog.record(entry)
    })

    scope.all('/projects/:ref/*', async (request, reply) => {
      const { ref } = request.params as { ref: string }
      const cors = corsHeaders(request)
      if (!REF.test(ref)) return reply.code(404).headers(cors).send(NO_ROUTE)
      const below = request.url.slice(`/projects/${ref}`.length)
      const service = SERVICES[below.split('/').slice(1, 3).join('/')] ?? 'unknown'
      const seen: Pending = { started: Date.now(), ref, service, path: below, role: null, apikey: null }
      if (answerPreflight(request, reply)) return reply
      try {
        const project = await ctx.directory.getCurrent(ref)
        if (!project) throw new GatewayError(404, NO_ROUTE.message)
        pending.set(request, seen)
        if (service === 'unknown') throw new GatewayError(404, NO_ROUTE.message)
        if (service === 'auth' && isOpenAuthRequest(request.method, below)) {
          // An email link opened in a browser: no key to present, the link's token is the credential.
          if (project.status !== 'ACTIVE_HEALTHY') throw new GatewayError(503, `The project is not running (status: ${project.status})`)
          return await serveAuth(request, reply, ctx, project, withoutApiKeyParam(below.slice('/auth/v1'.length)), null, cors)
        }
        if (service === 'storage' && isOpenStorageRequest(request.method, below)) {
          // Public objects and signed URLs are opened by browsers (<img src>): the URL's token or the bucket's
          // public flag is the credential, as on Supabase where these routes bypass the gateway's key check.
          if (project.status !== 'ACTIVE_HEALTHY') throw new GatewayError(503, `The project is not running (status: ${project.status})`)
          return await serveStorage(request, reply, ctx, project, withoutApiKeyParam(below.slice('/storage/v1'.length)), null, cors)
        }
        if (service === 'functions' && isFunctionsRequest(below)) {
          // A function decides itself whether a key is needed (verify_jwt), as on Supabase: no apikey check here.
          const caller = { role: null as string | null }
          try {
            return await serveFunction(request, reply, ctx, project, below, caller, cors)
          } finally {
            seen.role = caller.role
          }
        }
        const apikey = presentedApiKey(request.headers, below)
        const key = checkApiKey(project, apikey, request.headers.authorization, request.headers['user-agent'])
        seen.apikey = key.apikey
        if (project.status !== 'ACTIVE_HEALTHY') {
          throw new GatewayError(503, `The project is not running (status: ${project.status})`, 'Restore or restart the project from the dashboard.')
        }
        const claims = await verifiedClaims(project, key.bearer)
        seen.role = claims ? String(claims.role) : null
        return await serve(request, reply, ctx, project, service, below, { ...key, claims }, cors)
      } catch (error) {
        if (error instanceof GatewayError) return reply.code(error.status).headers(cors).send(error.body())
        request.log.warn({ err: error, ref, service }, 'gateway: the service failed')
        return reply
          .code(503)
          .headers(cors)
          .send({ message: `The ${service} service of this project is not available: ${(error as Error).message}` })
      }
    })
  })
}

async function serve(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: PlatformContext,
  project: GatewayProject,
  service: GatewayService,
  below: string,
  key: KeyCheck,
  cors: Record<string, string>,
): Promise<FastifyReply> {
  const path = servicePath(below) // after `/rest/v1`
  switch (service) {
    case 'rest': {
      const postgrest = await ctx.rest.acquire(project)
      await forward(request, reply, postgrest.http, path.startsWith('/') ? path : `/${path}`, { authorization: `Bearer ${key.bearer}` }, cors)
      return reply
    }
    case 'graphql': {
      const target = graphqlTarget(project, key.claims)
      if (!target) {
        return reply.code(401).headers(cors).send({ errors: [{ message: 'Invalid JWT: the Authorization token is not signed by this project or has expired' }] })
      }
      // The GraphQL service answers on the raw response; CORS headers go on first.
      reply.hijack()
      for (const [name, value] of Object.entries(cors)) reply.raw.setHeader(name, value)
      request.raw.url = `/graphql${path.startsWith('?') ? path : ''}`
      await ctx.graphql.handle(request.raw, reply.raw, target)
      return reply
    }
    case 'auth':
      return serveAuth(request, reply, ctx, project, path, key.claims, cors)
    case 'storage':
      return serveStorage(request, reply, ctx, project, path, key, cors)
    case 'functions':
      return serveFunction(request, reply, ctx, project, below, { role: key.claims ? String(key.claims.role) : null }, cors)
    case 'realtime':
      return serveRealtimeHttp(request, reply, ctx.realtime, project, path, { ...key, claims: key.claims }, cors)
    default: {
      const shape = NOT_SERVED[service]
      const message = `The ${service} API is not served by this platform yet`
      return reply.code(501).headers(cors).send(shape ? shape(message) : { message })
    }
  }
}
