import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { AuthError, invalidChannel, rateLimited, validationFailed } from '../errors.js'
import { checkedPassword, Metadata, normalEmail, normalPhone } from '../input.js'
import { sendEmailToken, sendSmsToken } from '../one-time.js'
import { hashPassword } from '../passwords.js'
import { FIVE_MINUTES } from '../rate-limit.js'
import { parseBody, sessionContext, type AuthDeps, type AuthRequest, type AuthResponse } from '../request.js'
import { startSession } from '../sessions.js'
import { audit } from '../audit.js'
import { findUserByEmail, findUserByPhone, insertUser, updateUser, userJson } from '../users.js'

const SignupBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.unknown().optional(),
  data: Metadata.optional(),
  channel: z.enum(['sms', 'whatsapp']).nullish(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
  gotrue_meta_security: z.unknown().optional(),
})

/**
 * POST /signup with an email or a phone and a password. With confirmation on (the default) the user
 * gets a link and code by email (or a code by SMS) and no session yet; with it off, a session.
 */
export async function signup(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(SignupBody, request.body)
  const { settings } = request
  if (settings.disable_signup) throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance')
  if (!body.email && !body.phone) return anonymousSignup(request, deps, body.data ?? {})
  const viaPhone = !body.email
  if (viaPhone && !settings.external_phone_enabled) throw new AuthError(422, 'phone_provider_disabled', 'Phone signups are disabled')
  if (!viaPhone && !settings.external_email_enabled) throw new AuthError(422, 'email_provider_disabled', 'Email signups are disabled')
  const email = viaPhone ? null : normalEmail(body.email)
  const phone = viaPhone ? normalPhone(body.phone) : null
  if (viaPhone && body.channel === 'whatsapp') throw invalidChannel()
  if (body.password === undefined || body.password === '') throw validationFailed('Signup requires a valid password')
  const password = checkedPassword(body.password, settings)
  if (!(await deps.limiter.take(request.project.ref, `otp:${request.project.ref}:ip:${request.ip}`, settings.rate_limit_otp, FIVE_MINUTES))) throw rateLimited()
  const autoconfirm = viaPhone ? settings.sms_autoconfirm : settings.mailer_autoconfirm
  const passwordHash = await hashPassword(password)

  return deps.databases.transaction(request.project.ref, async (db) => {
    const existing = email ? await findUserByEmail(db, email) : await findUserByPhone(db, phone!)
    if (existing && (viaPhone ? existing.phone_confirmed_at : existing.email_confirmed_at)) {
      if (autoconfirm) throw new AuthError(422, 'user_already_exists', 'User already registered')
      // With confirmation on, GoTrue answers as for a new user, so sign-up does not reveal who has an account.
      return { status: 200, body: await obfuscatedUser(db, existing, email, phone) }
    }
    // An address that never confirmed: signing up again takes the new password (as in GoTrue).
    let user = existing
      ? await updateUser(db, existing.id, {
          encrypted_password: passwordHash,
          raw_user_meta_data: { ...existing.raw_user_meta_data, ...(body.data ?? {}) },
          ...(autoconfirm ? { [viaPhone ? 'phone_confirmed_at' : 'email_confirmed_at']: new Date() } : {}),
        })
      : await insertUser(db, { email, phone, passwordHash, userMetadata: body.data ?? {}, emailConfirmed: autoconfirm && !viaPhone, phoneConfirmed: autoconfirm && viaPhone })
    if (!existing) await audit(db, 'user_signedup', user, request.ip)
    if (autoconfirm) {
      return { status: 200, body: await startSession(db, user, 'password', sessionContext(request)) }
    }
    const lastSent = user.confirmation_sent_at?.getTime() ?? 0
    if (Date.now() - lastSent >= settings.smtp_max_frequency * 1000) {
      user = viaPhone
        ? await sendSmsToken(db, deps, request, user, 'confirmation', phone!)
        : await sendEmailToken(db, deps, request, user, 'confirmation', email!)
      await audit(db, 'user_confirmation_requested', user, request.ip)
    }
    return { status: 200, body: await userJson(db, user) }
  })
}

/** signInAnonymously: a user without email or phone, signed in at once (when the project allows it). */
async function anonymousSignup(request: AuthRequest, deps: AuthDeps, data: Record<string, unknown>): Promise<AuthResponse> {
  const { settings, project } = request
  if (!settings.external_anonymous_users_enabled) throw new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled')
  if (settings.disable_signup) throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance')
  if (!(await deps.limiter.take(request.project.ref, `anonymous:${project.ref}:${request.ip}`, settings.rate_limit_anonymous_users, HOUR))) throw rateLimited()
  return deps.databases.transaction(project.ref, async (db) => {
    const user = await insertUser(db, { email: null, phone: null, passwordHash: null, userMetadata: data, emailConfirmed: false, phoneConfirmed: false, anonymous: true })
    await audit(db, 'user_signedup', user, request.ip, { provider: 'anonymous' })
    return { status: 200, body: await startSession(db, user, 'anonymous', sessionContext(request)) }
  })
}

const HOUR = 60 * 60_000

/** What sign-up answers for an address that already has a confirmed account: a look-alike, nothing sent. */
async function obfuscatedUser(db: Parameters<typeof userJson>[0], existing: Parameters<typeof userJson>[1], email: string | null, phone: string | null) {
  const now = new Date()
  const json = await userJson(db, {
    ...existing,
    id: randomUUID(),
    created_at: now,
    updated_at: now,
    confirmation_sent_at: now,
    last_sign_in_at: null,
    email_confirmed_at: null,
    phone_confirmed_at: null,
    confirmed_at: null,
  })
  return { ...json, email: email ?? '', phone: phone ?? '', identities: [], user_metadata: {}, app_metadata: { provider: email ? 'email' : 'phone', providers: [email ? 'email' : 'phone'] } }
}
