import { z } from 'zod'
import { audit } from '../audit.js'
import { AuthError, invalidCredentials, rateLimited, validationFailed } from '../errors.js'
import { normalEmail, normalPhone } from '../input.js'
import { passwordMatches } from '../passwords.js'
import { redeemAuthCode } from '../pkce.js'
import { FIVE_MINUTES } from '../rate-limit.js'
import { parseBody, sessionContext, type AuthDeps, type AuthRequest, type AuthResponse } from '../request.js'
import { refreshSession, startSession } from '../sessions.js'
import { findUserByEmail, findUserById, findUserByPhone } from '../users.js'

const PasswordGrant = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.string().max(1_000),
  gotrue_meta_security: z.unknown().optional(),
})
const RefreshGrant = z.object({ refresh_token: z.string().min(1).max(255) })

/** POST /token?grant_type=password | refresh_token. */
export async function token(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const grant = request.query.get('grant_type')
  if (grant === 'password') return passwordGrant(request, deps)
  if (grant === 'refresh_token') return refreshGrant(request, deps)
  if (grant === 'pkce') return pkceGrant(request, deps)
  throw validationFailed('unsupported_grant_type')
}

/**
 * Sign-in with a password. Attempts count per IP address and per account (rate_limit_otp per five
 * minutes), so guessing one account's password from many addresses is slowed down too.
 */
async function passwordGrant(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(PasswordGrant, request.body)
  if (!body.email && !body.phone) throw validationFailed('missing email or phone')
  const email = body.email ? normalEmail(body.email) : null
  const phone = email ? null : normalPhone(body.phone)
  const { ref } = request.project
  const limit = request.settings.rate_limit_otp
  if (!deps.limiter.take(`otp:${ref}:ip:${request.ip}`, limit, FIVE_MINUTES)) throw rateLimited()
  if (!deps.limiter.take(`otp:${ref}:account:${email ?? phone}`, limit, FIVE_MINUTES)) throw rateLimited()
  return deps.databases.transaction(ref, async (db) => {
    const user = email ? await findUserByEmail(db, email) : await findUserByPhone(db, phone!)
    if (!(await passwordMatches(body.password, user?.encrypted_password ?? null)) || !user) throw invalidCredentials()
    if (email && !user.email_confirmed_at) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed')
    if (phone && !user.phone_confirmed_at) throw new AuthError(400, 'phone_not_confirmed', 'Phone not confirmed')
    if (user.banned_until && user.banned_until > new Date()) throw new AuthError(400, 'user_banned', 'User is banned')
    await audit(db, 'login', user, request.ip, { provider: email ? 'email' : 'phone' })
    return { status: 200, body: await startSession(db, user, 'password', sessionContext(request)) }
  })
}

async function refreshGrant(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(RefreshGrant, request.body)
  const { settings } = request
  if (!deps.limiter.take(`refresh:${request.project.ref}:${request.ip}`, settings.rate_limit_token_refresh, FIVE_MINUTES)) throw rateLimited()
  const session = await deps.databases.transaction(request.project.ref, (db) =>
    refreshSession(db, body.refresh_token, {
      ...sessionContext(request),
      rotation: settings.refresh_token_rotation_enabled,
      reuseIntervalSeconds: settings.security_refresh_token_reuse_interval,
    }),
  )
  if (session instanceof AuthError) throw session
  return { status: 200, body: session }
}

const PkceGrant = z.object({ auth_code: z.string().min(1).max(255), code_verifier: z.string().min(43).max(128) })

/** The auth code of a PKCE link, with the verifier only the app that asked for the link holds. */
async function pkceGrant(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(PkceGrant, request.body)
  if (!deps.limiter.take(`verify:${request.project.ref}:${request.ip}`, request.settings.rate_limit_verify, FIVE_MINUTES)) throw rateLimited()
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { userId, method } = await redeemAuthCode(db, body.auth_code, body.code_verifier)
    const user = await findUserById(db, userId)
    if (!user) throw new AuthError(404, 'user_not_found', 'User not found')
    return { status: 200, body: await startSession(db, user, method, sessionContext(request)) }
  })
}
