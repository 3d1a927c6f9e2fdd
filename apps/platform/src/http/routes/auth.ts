import rateLimit from '@fastify/rate-limit'
import { Email } from '@stratum/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { SESSION_COOKIE, SESSION_DAYS } from '../../auth/identity.js'
import { verifyPassword } from '../../auth/passwords.js'
import { findUserByEmail, toProfile } from '../../auth/users.js'
import type { PlatformContext } from '../../platform-context.js'
import { unauthenticated } from '../../errors.js'
import { route } from '../typed-route.js'

/** Verifying against a dummy hash keeps unknown emails as slow as wrong passwords. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + 'A'.repeat(86) + '=='

/**
 * The account a sign-in attempt counts against: the email exactly as sign-in reads it (the same
 * schema trims and lower-cases it), so ' Victim@Example.com ' and 'victim@example.com' share one
 * limit. Input sign-in would refuse anyway still counts, under its plain text.
 */
export function loginAccountKey(body: unknown): string {
  const email = (body as { email?: unknown } | null | undefined)?.email
  const parsed = Email.safeParse(email)
  return parsed.success ? parsed.data : String(email ?? '').trim().toLowerCase()
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (no cross-site POST carries it), and Secure by the
 * cookie defaults app.ts sets: when the public URL is https, or the request came over https
 * (directly, or through a proxy STRATUM_TRUST_PROXY trusts).
 */
export function setSessionCookie(_request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    maxAge: SESSION_DAYS * 24 * 3600,
  })
}

export async function authRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  // preHandler: the key needs the parsed body (the email).
  await app.register(rateLimit, { global: false, hook: 'preHandler' })

  // GET /api/health (readiness of the platform itself) is in routes/health.ts.

  route(
    app,
    'POST /api/auth/login',
    async (request, reply, input) => {
      const body = input.body
      const user = await findUserByEmail(ctx.db, body.email)
      const valid = await verifyPassword(body.password, user?.password_hash ?? DUMMY_HASH)
      if (!user || !valid) throw unauthenticated('Invalid email or password')
      setSessionCookie(request, reply, await ctx.identities.createSession(user.id))
      return toProfile(user)
    },
    {
      config: {
        rateLimit: {
          max: ctx.config.loginRateLimitPerMinute,
          timeWindow: 60_000,
          // Per address and account: one noisy client cannot lock everyone else out.
          keyGenerator: (request) => `${request.ip}:${loginAccountKey(request.body)}`,
          errorResponseBuilder: (_request, context) => ({
            statusCode: 429,
            message: `Too many sign-in attempts. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
          }),
        },
      },
    },
  )

  route(app, 'POST /api/auth/logout', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE]
    if (token) await ctx.identities.endSession(token)
    reply.clearCookie(SESSION_COOKIE, { path: '/' })
    return reply.code(204).send()
  })
}
