import type pg from 'pg'
import { rememberChallenge } from './pkce.js'
import { allowedRedirect } from './redirects.js'
import { renderEmail, type EmailKind } from './outbox.js'
import type { AuthDeps, AuthRequest } from './request.js'
import { newOtp, tokenHash } from './tokens.js'
import { updateUser, type UserRow } from './users.js'

/**
 * Which auth.users column holds the hash of each kind of one-time token, as in GoTrue: sign-up and
 * invite confirmations share confirmation_token, magic links and recovery share recovery_token.
 */
const EMAIL_COLUMNS: Record<EmailKind, { token: keyof UserRow; sentAt: keyof UserRow; linkType: string }> = {
  confirmation: { token: 'confirmation_token', sentAt: 'confirmation_sent_at', linkType: 'signup' },
  invite: { token: 'confirmation_token', sentAt: 'confirmation_sent_at', linkType: 'invite' },
  magic_link: { token: 'recovery_token', sentAt: 'recovery_sent_at', linkType: 'magiclink' },
  recovery: { token: 'recovery_token', sentAt: 'recovery_sent_at', linkType: 'recovery' },
  email_change: { token: 'email_change_token_new', sentAt: 'email_change_sent_at', linkType: 'email_change' },
  email_change_current: { token: 'email_change_token_current', sentAt: 'email_change_sent_at', linkType: 'email_change' },
  reauthentication: { token: 'reauthentication_token', sentAt: 'reauthentication_sent_at', linkType: 'reauthentication' },
}

/** A link and code made for a user, and what was stored of them. */
export interface EmailToken {
  user: UserRow
  link: string
  code: string
  hash: string
  redirectTo: string
  /** The `type` of the link: signup, invite, magiclink, recovery, email_change. */
  linkType: string
}

/**
 * Makes a link and a code for `kind` (for `to`, the new address for an email change) and stores the
 * hash (and a PKCE challenge when the request has one). The link goes through GET /auth/v1/verify,
 * then to `redirect_to` when the project allows it, else to the site URL.
 */
export async function issueEmailToken(db: pg.PoolClient, request: AuthRequest, user: UserRow, kind: EmailKind, to: string): Promise<EmailToken> {
  const { token, sentAt, linkType } = EMAIL_COLUMNS[kind]
  const code = newOtp(request.settings.mailer_otp_length)
  const hash = tokenHash(to, code)
  const redirectTo = allowedRedirect(request.query.get('redirect_to') ?? stringField(request.body, 'redirect_to'), request.settings)
  const link = `${request.publicBase}/auth/v1/verify?${new URLSearchParams({ token: hash, type: linkType, redirect_to: redirectTo })}`
  await rememberChallenge(db, request, user.id, linkType)
  const updated = await updateUser(db, user.id, { [token]: hash, [sentAt]: new Date() })
  return { user: updated, link, code, hash, redirectTo, linkType }
}

/** Issues a link and code for `kind` and emails them (outbox or the project's SMTP server). */
export async function sendEmailToken(db: pg.PoolClient, deps: AuthDeps, request: AuthRequest, user: UserRow, kind: EmailKind, to: string): Promise<UserRow> {
  const issued = await issueEmailToken(db, request, user, kind, to)
  const email = renderEmail({ kind, to, link: issued.link, code: issued.code, site: request.settings.site_url, email: user.email ?? '', newEmail: to })
  await deps.outbox.send(request.project.ref, request.settings, { channel: 'email', kind, recipient: to, ...email })
  return issued.user
}

export type SmsKind = 'confirmation' | 'login' | 'phone_change' | 'reauthentication'

/** The fixed code of a test number (sms_test_otp: `phone=code,...`), or null. */
export function testOtp(settings: AuthRequest['settings'], phone: string): string | null {
  for (const pair of (settings.sms_test_otp ?? '').split(',')) {
    const [number, code] = pair.split('=')
    if (number === phone && code) return code
  }
  return null
}

/** Texts the user a code: to confirm a phone sign-up, to sign in, to confirm a new number or to reauthenticate. */
export async function sendSmsToken(db: pg.PoolClient, deps: AuthDeps, request: AuthRequest, user: UserRow, kind: SmsKind, to: string): Promise<UserRow> {
  // A test number's code is fixed and nothing is sent (GoTrue's sms_test_otp).
  const fixed = testOtp(request.settings, to)
  const code = fixed ?? newOtp(request.settings.sms_otp_length)
  const hash = tokenHash(to, code)
  if (!fixed) await deps.outbox.send(request.project.ref, request.settings, { channel: 'sms', kind, recipient: `+${to}`, subject: 'SMS', body: `Your code is ${code}` })
  if (kind === 'phone_change') return updateUser(db, user.id, { phone_change_token: hash, phone_change_sent_at: new Date() })
  if (kind === 'confirmation') return updateUser(db, user.id, { confirmation_token: hash, confirmation_sent_at: new Date() })
  if (kind === 'reauthentication') return updateUser(db, user.id, { reauthentication_token: hash, reauthentication_sent_at: new Date() })
  return updateUser(db, user.id, { recovery_token: hash, recovery_sent_at: new Date() })
}

/** Emails the user a reauthentication code (no link: it is typed into the app as the nonce of a password change). */
export async function sendReauthenticationEmail(db: pg.PoolClient, deps: AuthDeps, request: AuthRequest, user: UserRow, to: string): Promise<UserRow> {
  const code = newOtp(request.settings.mailer_otp_length)
  const email = renderEmail({ kind: 'reauthentication', to, link: '', code, site: request.settings.site_url })
  await deps.outbox.send(request.project.ref, request.settings, { channel: 'email', kind: 'reauthentication', recipient: to, ...email })
  return updateUser(db, user.id, { reauthentication_token: tokenHash(to, code), reauthentication_sent_at: new Date() })
}

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name]
  return typeof value === 'string' ? value : undefined
}
