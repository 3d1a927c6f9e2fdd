import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AccessTokenPattern } from '@stratum/contracts'
import { SESSION_COOKIE, type Identity } from '../auth/identity.js'
import type { PlatformContext } from '../platform-context.js'
import { unauthenticated, forbidden } from '../errors.js'

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity | null
  }
}

/** Routes anyone may call. */
// Signed download links carry their own proof (control/signed-urls.ts).
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/openapi.json',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'GET /api/backups/download/:token',
  'GET /platform/storage/:ref/archive/download',
  // An invitation link is its own proof; signing up with it creates the account (routes/invitations.ts).
  'GET /platform/invitations/:token',
  'POST /platform/invitations/:token/sign-up',
])
/** What an invited user may do before replacing their one-time password. */
const BEFORE_PASSWORD_CHANGE = new Set(['GET /platform/profile', 'PUT /platform/profile/password', 'GET /platform/profile/permissions'])
const API_PREFIXES = ['/api/', '/platform/', '/v1/']
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url.startsWith(prefix))
}

/**
 * Every /api, /platform and /v1 route accepts a session cookie or a personal access token
 * (`Authorization: Bearer sbp_...`). Cookie-authenticated mutations must come from our own origin
 * (SameSite cookies already stop most cross-site requests; the Origin check stops the rest).
 */
export function registerAuthHook(app: FastifyInstance, ctx: PlatformContext): void {
  app.decorateRequest('identity', null)
  app.addHook('onRequest', async (request) => {
    if (!isApiPath(request.url)) return
    request.identity = await resolveIdentity(request, ctx)
    const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`
    if (PUBLIC_ROUTES.has(route)) {
      if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request, ctx)
      return
    }
    if (!request.identity) throw unauthenticated('Not signed in')
    if (request.identity.via === 'session' && !SAFE_METHODS.has(request.method)) assertSameOrigin(request, ctx)
    if (request.identity.user.password_change_required && !BEFORE_PASSWORD_CHANGE.has(route)) {
      throw forbidden('Set a new password before continuing: your account still uses its one-time password')
    }
  })
}

async function resolveIdentity(request: FastifyRequest, ctx: PlatformContext): Promise<Identity | null> {
  const header = request.headers.authorization
  if (header) {
    const token = header.replace(/^Bearer\s+/i, '').trim()
    if (!AccessTokenPattern.test(token)) throw unauthenticated('Invalid access token: expected sbp_ followed by 40 hex characters')
    const identity = await ctx.identities.fromAccessToken(token)
    if (!identity) throw unauthenticated('Invalid or revoked access token')
    return identity
  }
  const session = request.cookies[SESSION_COOKIE]
  return session ? ctx.identities.fromSession(session) : null
}

function assertSameOrigin(request: FastifyRequest, ctx: PlatformContext): void {
  const origin = request.headers.origin
  const expected = ctx.config.publicUrl ? new URL(ctx.config.publicUrl).host : request.headers.host
  let originHost: string | null = null
  try {
    originHost = origin ? new URL(origin).host : null
  } catch {
    originHost = null
  }
  if (!originHost || originHost !== expected) {
    throw forbidden('Cross-site request refused: the Origin header must match this site')
  }
}
