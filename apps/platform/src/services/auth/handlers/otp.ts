import { z } from 'zod'
import { audit } from '../audit.js'
import { AuthError, invalidChannel, rateLimited, validationFailed } from '../errors.js'
import { Metadata, normalEmail, normalPhone } from '../input.js'
import { sendEmailToken, sendSmsToken } from '../one-time.js'
import { FIVE_MINUTES } from '../rate-limit.js'
import { parseBody, type AuthDeps, type AuthRequest, type AuthResponse } from '../request.js'
import { findUserByEmail, findUserByPhone, insertUser } from '../users.js'

const OtpBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  create_user: z.boolean().optional(),
  data: Metadata.optional(),
  channel: z.enum(['sms', 'whatsapp']).nullish(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
  gotrue_meta_security: z.unknown().optional(),
})

/**
 * POST /otp (and /magiclink, its older email-only form): a sign-in link and code by email, or a code
 * by SMS. An unknown address gets an account first unless `create_user` is false; a new email
 * account's first message is the sign-up confirmation, as in GoTrue.
 */
export async function otp(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(OtpBody, request.body)
  if (!body.email && !body.phone) throw validationFailed('Only an email address or phone number should be provided')
  const { settings, project } = request
  const viaPhone = !body.email
  if (viaPhone && !settings.external_phone_enabled) throw new AuthError(422, 'phone_provider_disabled', 'Unsupported phone provider')
  if (!viaPhone && !settings.external_email_enabled) throw new AuthError(422, 'email_provider_disabled', 'Email logins are disabled')
  const email = viaPhone ? null : normalEmail(body.email)
  const phone = viaPhone ? normalPhone(body.phone) : null
  if (viaPhone && body.channel === 'whatsapp') throw invalidChannel()
  if (!(await deps.limiter.take(request.project.ref, `otp:${project.ref}:ip:${request.ip}`, settings.rate_limit_otp, FIVE_MINUTES))) throw rateLimited()
  await deps.databases.transaction(project.ref, async (db) => {
    let user = email ? await findUserByEmail(db, email) : await findUserByPhone(db, phone!)
    if (!user) {
      if (body.create_user === false || settings.disable_signup) throw new AuthError(422, 'otp_disabled', 'Signups not allowed for otp')
      user = await insertUser(db, { email, phone, passwordHash: null, userMetadata: body.data ?? {}, emailConfirmed: false, phoneConfirmed: false })
      await audit(db, 'user_signedup', user, request.ip)
    }
    if (phone) await sendSmsToken(db, deps, request, user, user.phone_confirmed_at ? 'login' : 'confirmation', phone)
    else await sendEmailToken(db, deps, request, user, user.email_confirmed_at ? 'magic_link' : 'confirmation', email!)
  })
  return { status: 200, body: {} }
}

const RecoverBody = z.object({ email: z.string(), code_challenge: z.string().nullish(), code_challenge_method: z.string().nullish(), gotrue_meta_security: z.unknown().optional() })

/** POST /recover: a password reset link by email. Unknown addresses get the same answer and nothing is sent. */
export async function recover(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(RecoverBody, request.body)
  const email = normalEmail(body.email)
  if (!(await deps.limiter.take(request.project.ref, `otp:${request.project.ref}:ip:${request.ip}`, request.settings.rate_limit_otp, FIVE_MINUTES))) throw rateLimited()
  await deps.databases.transaction(request.project.ref, async (db) => {
    const user = await findUserByEmail(db, email)
    if (!user) return
    await sendEmailToken(db, deps, request, user, 'recovery', email)
    await audit(db, 'user_recovery_requested', user, request.ip)
  })
  return { status: 200, body: {} }
}
