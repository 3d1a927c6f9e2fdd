import { z } from 'zod'
import { audit } from '../audit.js'
import { AuthError, rateLimited, validationFailed } from '../errors.js'
import { normalEmail, normalPhone } from '../input.js'
import { sendEmailToken, sendReauthenticationEmail, sendSmsToken } from '../one-time.js'
import { FIVE_MINUTES } from '../rate-limit.js'
import { parseBody, type AuthDeps, type AuthRequest, type AuthResponse } from '../request.js'
import { findUserByEmail, findUserByPhone, updateUser, type UserRow } from '../users.js'
import { currentUser } from './user.js'

const ResendBody = z.object({
  type: z.string().max(32).optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
  gotrue_meta_security: z.unknown().optional(),
  options: z.unknown().optional(),
})

/** For how long a message of the same kind is not sent again to the same user (GoTrue's max frequency). */
function tooSoon(sentAt: Date | null, seconds: number): AuthError | null {
  const waitMs = (sentAt?.getTime() ?? 0) + seconds * 1000 - Date.now()
  if (waitMs <= 0) return null
  return new AuthError(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${Math.ceil(waitMs / 1000)} seconds.`)
}

/**
 * POST /resend: the sign-up confirmation (email or SMS) or the pending email or phone change's message, sent again,
 * as GoTrue's Resend: an unknown address, a confirmed one or no pending change gets the same empty answer, and
 * nothing is sent.
 */
export async function resend(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(ResendBody, request.body)
  const { settings, project } = request
  if (!body.type || !['signup', 'email_change', 'sms', 'phone_change'].includes(body.type)) {
    throw validationFailed('Missing one of these types: signup, email_change, sms, phone_change')
  }
  if (!body.email && body.type === 'signup') throw validationFailed('Type provided requires an email address')
  if (!body.phone && body.type === 'sms') throw validationFailed('Type provided requires a phone number')
  if (body.email && body.phone) throw validationFailed('Only an email address or phone number should be provided.')
  if (!body.email && !body.phone) throw validationFailed('Missing email address or phone number')
  if (body.email && !settings.external_email_enabled) throw new AuthError(400, 'email_provider_disabled', 'Email logins are disabled')
  if (body.phone && !settings.external_phone_enabled) throw new AuthError(400, 'phone_provider_disabled', 'Phone logins are disabled')
  const email = body.email ? normalEmail(body.email) : null
  const phone = body.phone ? normalPhone(body.phone) : null
  if (!(await deps.limiter.take(project.ref, `otp:${project.ref}:ip:${request.ip}`, settings.rate_limit_otp, FIVE_MINUTES))) throw rateLimited()
  await deps.databases.transaction(project.ref, async (db) => {
    const user = email ? await findUserByEmail(db, email) : await findUserByPhone(db, phone!)
    if (!user) return
    switch (body.type) {
      case 'signup':
        if (user.email_confirmed_at) return
        throwIf(tooSoon(user.confirmation_sent_at, settings.smtp_max_frequency))
        await audit(db, 'user_confirmation_requested', user, request.ip)
        await sendEmailToken(db, deps, request, user, 'confirmation', user.email!)
        return
      case 'sms':
        if (user.phone_confirmed_at) return
        await audit(db, 'user_recovery_requested', user, request.ip)
        await sendSmsToken(db, deps, request, user, 'confirmation', user.phone!)
        return
      case 'email_change': {
        if (!user.email_change) return
        throwIf(tooSoon(user.email_change_sent_at, settings.smtp_max_frequency))
        // As when the change was asked for: both addresses again with secure email change on.
        let pending = await updateUser(db, user.id, { email_change_confirm_status: 0, email_change_token_current: '' })
        if (settings.mailer_secure_email_change_enabled && user.email) pending = await sendEmailToken(db, deps, request, pending, 'email_change_current', user.email)
        await sendEmailToken(db, deps, request, pending, 'email_change', user.email_change)
        return
      }
      default:
        if (!user.phone_change) return
        await sendSmsToken(db, deps, request, user, 'phone_change', user.phone_change)
    }
  })
  return { status: 200, body: {} }
}

function throwIf(error: AuthError | null): void {
  if (error) throw error
}

/**
 * GET /reauthenticate: a code to the signed-in user's email (or phone), the nonce a password change needs when the
 * project requires reauthentication. A bearer without a user (the anon key) has no address: GoTrue's text says so.
 */
export async function reauthenticate(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const noAddress = () => validationFailed('Reauthentication requires the user to have an email or a phone number')
  if (request.claims && typeof request.claims.sub !== 'string' && (request.claims.role === 'anon' || request.claims.role === 'service_role')) throw noAddress()
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { user } = await currentUser(db, request, true)
    if (!user.email && !user.phone) throw noAddress()
    if (user.email && !user.email_confirmed_at) throw new AuthError(422, 'email_not_confirmed', 'Please verify your email first.')
    if (!user.email && !user.phone_confirmed_at) throw new AuthError(422, 'phone_not_confirmed', 'Please verify your phone first.')
    throwIf(tooSoon(user.reauthentication_sent_at, user.email ? request.settings.smtp_max_frequency : 60))
    await audit(db, 'user_reauthenticate_requested', user, request.ip)
    if (user.email) await sendReauthenticationEmail(db, deps, request, user, user.email)
    else await sendSmsToken(db, deps, request, user, 'reauthentication', user.phone!)
    return { status: 200, body: {} }
  })
}

const manualLinkingDisabled = () => new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled')

/**
 * GET /user/identities/authorize: linking another provider's identity goes through that provider's OAuth flow. With
 * manual linking off (the default) GoTrue refuses it first; with it on, the provider named must be one the project
 * enabled, and this platform has no external OAuth provider to enable.
 */
export async function linkIdentity(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  if (!request.settings.security_manual_linking_enabled) throw manualLinkingDisabled()
  await deps.databases.transaction(request.project.ref, (db) => currentUser(db, request))
  throw unsupportedProvider(request.query.get('provider') ?? '')
}

/** GoTrue's OAuth providers: named, they are off here; any other name is unknown. */
const OAUTH_PROVIDERS = new Set([
  'apple', 'azure', 'bitbucket', 'discord', 'facebook', 'figma', 'fly', 'github', 'gitlab', 'google', 'kakao', 'keycloak',
  'linkedin', 'linkedin_oidc', 'notion', 'spotify', 'slack', 'slack_oidc', 'snapchat', 'twitch', 'twitter', 'x', 'workos', 'zoom',
])

/** GoTrue's refusal of an OAuth redirect to a provider it cannot use (external.go: "Unsupported provider: ..."). */
function unsupportedProvider(provider: string): AuthError {
  const reason = OAUTH_PROVIDERS.has(provider.toLowerCase()) ? 'provider is not enabled' : `Provider ${provider} could not be found`
  return validationFailed(`Unsupported provider: ${reason}`)
}

/** GET /authorize (signInWithOAuth's redirect): no external provider can be enabled on this platform. */
export async function authorize(request: AuthRequest): Promise<AuthResponse> {
  throw unsupportedProvider(request.query.get('provider') ?? '')
}

/**
 * DELETE /user/identities/{id}: unlinks one of the signed-in user's identities, keeping at least one, as GoTrue's
 * DeleteIdentity does: a phone identity takes the phone with it; an email identity the email, unless another identity
 * carries one.
 */
export async function unlinkIdentity(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  if (!request.settings.security_manual_linking_enabled) throw manualLinkingDisabled()
  const id = request.path.split('/')[3] ?? ''
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new AuthError(404, 'validation_failed', 'identity_id must be an UUID')
  if (request.claims?.aud !== undefined && request.claims.aud !== 'authenticated') {
    throw new AuthError(403, 'unexpected_audience', "Token audience doesn't match request audience")
  }
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { user } = await currentUser(db, request, true)
    const { rows: identities } = await db.query<{ id: string; provider: string; provider_id: string; email: string | null }>(
      'SELECT id, provider, provider_id, email FROM auth.identities WHERE user_id = $1 ORDER BY created_at FOR UPDATE',
      [user.id],
    )
    if (identities.length <= 1) throw new AuthError(422, 'single_identity_not_deletable', 'User must have at least 1 identity after unlinking')
    const identity = identities.find((candidate) => candidate.id === id.toLowerCase())
    if (!identity) throw new AuthError(422, 'identity_not_found', "Identity doesn't exist")
    await audit(db, 'identity_unlinked', user, request.ip, { identity_id: identity.id, provider: identity.provider, provider_id: identity.provider_id })
    await db.query('DELETE FROM auth.identities WHERE id = $1', [identity.id])
    const rest = identities.filter((candidate) => candidate !== identity)
    let updated: UserRow = user
    if (identity.provider === 'phone') {
      updated = await updateUser(db, user.id, { phone: null, phone_confirmed_at: null })
    } else if (!rest.some((candidate) => candidate.email && candidate.email === user.email)) {
      // The user's email came from this identity: another identity's email takes its place, or none.
      const next = rest.find((candidate) => candidate.email)?.email ?? null
      updated = await updateUser(db, user.id, { email: next })
    }
    const providers = [...new Set(rest.map((candidate) => candidate.provider))]
    await updateUser(db, user.id, { raw_app_meta_data: { ...updated.raw_app_meta_data, provider: providers[0], providers } })
    return { status: 200, body: {} }
  })
}
