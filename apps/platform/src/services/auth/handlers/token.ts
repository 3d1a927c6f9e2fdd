import { z } from 'zod'
import { audit } from '../audit.js'
import { AuthError, invalidCredentials, OAuthError, rateLimited, validationFailed } from '../errors.js'
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
  // Sign-ins this platform does not offer, refused as GoTrue refuses them while they are off.
  if (grant === 'web3') throw new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled')
  if (grant === 'id_token') return idTokenGrant(request)
  throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type')
}

/** The issuer GoTrue expects of each built-in provider's ID tokens. */
const PROVIDER_ISSUERS: Record<string, string> = {
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  kakao: 'https://kauth.kakao.com',
  snapchat: 'https://accounts.snapchat.com/accounts/oauth2/token',
  vercel_marketplace: 'https://marketplace.vercel.com',
  linkedin_oidc: 'https://www.linkedin.com/oauth',
  keycloak: '',
}

const IdTokenGrant = z.object({
  id_token: z.string().max(16_384).optional(),
  provider: z.string().max(255).optional(),
  client_id: z.string().max(255).optional(),
  issuer: z.string().max(2_000).optional(),
  nonce: z.string().max(1_000).optional(),
  access_token: z.string().max(16_384).optional(),
  link_identity: z.boolean().optional(),
  gotrue_meta_security: z.unknown().optional(),
})

/**
 * grant_type=id_token (signInWithIdToken): no external provider can be enabled on this platform, so every provider is
 * refused with the text GoTrue gives a disabled one, after the same input checks.
 */
async function idTokenGrant(request: AuthRequest): Promise<AuthResponse> {
  const body = parseBody(IdTokenGrant, request.body)
  if (!body.id_token) throw new OAuthError('invalid request', 'id_token required')
  if (!body.provider && (!body.client_id || !body.issuer)) throw new OAuthError('invalid request', 'provider or client_id and issuer required')
  const provider = body.provider ?? ''
  if (provider === 'apple' || provider === 'azure') {
    const issuer = tokenIssuer(body.id_token)
    const label = provider === 'apple' ? 'Apple' : 'Azure'
    if (!issuer) throw validationFailed(`Unable to detect issuer in ID token for ${label} provider`)
    throw new AuthError(400, 'provider_disabled', `Provider (issuer "${issuer}") is not enabled`)
  }
  const known = Object.entries(PROVIDER_ISSUERS).find(([name, issuer]) => name === provider || (issuer && issuer === body.issuer))
  if (known) throw new AuthError(400, 'provider_disabled', `Provider (issuer "${known[1]}") is not enabled`)
  if (provider.startsWith('custom:')) throw validationFailed('Custom OAuth providers are disabled')
  throw validationFailed(`Custom OIDC provider "${provider}" not allowed`)
}

/** The `iss` of an unverified JWT, or null when it is none. */
function tokenIssuer(token: string): string | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { iss?: unknown }
    return typeof claims.iss === 'string' ? claims.iss : null
  } catch {
    return null
  }
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
  if (!(await deps.limiter.take(request.project.ref, `otp:${ref}:ip:${request.ip}`, limit, FIVE_MINUTES))) throw rateLimited()
  if (!(await deps.limiter.take(request.project.ref, `otp:${ref}:account:${email ?? phone}`, limit, FIVE_MINUTES))) throw rateLimited()
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
  if (!(await deps.limiter.take(request.project.ref, `refresh:${request.project.ref}:${request.ip}`, settings.rate_limit_token_refresh, FIVE_MINUTES))) throw rateLimited()
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
  if (!(await deps.limiter.take(request.project.ref, `verify:${request.project.ref}:${request.ip}`, request.settings.rate_limit_verify, FIVE_MINUTES))) throw rateLimited()
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { userId, method } = await redeemAuthCode(db, body.auth_code, body.code_verifier)
    const user = await findUserById(db, userId)
    if (!user) throw new AuthError(404, 'user_not_found', 'User not found')
    return { status: 200, body: await startSession(db, user, method, sessionContext(request)) }
  })
}
