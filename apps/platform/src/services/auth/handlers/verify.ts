import { timingSafeEqual } from 'node:crypto'
import type pg from 'pg'
import { z } from 'zod'
import { AuthError, otpExpired, rateLimited, validationFailed } from '../errors.js'
import { normalEmail, normalPhone } from '../input.js'
import { issueAuthCode } from '../pkce.js'
import { FIVE_MINUTES } from '../rate-limit.js'
import { allowedRedirect } from '../redirects.js'
import { parseBody, sessionContext, type AuthDeps, type AuthRequest, type AuthResponse } from '../request.js'
import { startSession, type SessionJson } from '../sessions.js'
import { tokenHash } from '../tokens.js'
import { updateUser, type UserRow } from '../users.js'

type TokenColumn = 'confirmation_token' | 'recovery_token' | 'email_change_token_new' | 'email_change_token_current' | 'phone_change_token'
const SENT_AT: Record<TokenColumn, keyof UserRow> = {
  confirmation_token: 'confirmation_sent_at',
  recovery_token: 'recovery_sent_at',
  email_change_token_new: 'email_change_sent_at',
  email_change_token_current: 'email_change_sent_at',
  phone_change_token: 'phone_change_sent_at',
}

/** Where each verification type's token may be, and whether it is an SMS code. */
const TYPES: Record<string, { columns: TokenColumn[]; sms: boolean }> = {
  signup: { columns: ['confirmation_token'], sms: false },
  invite: { columns: ['confirmation_token'], sms: false },
  magiclink: { columns: ['recovery_token'], sms: false },
  recovery: { columns: ['recovery_token'], sms: false },
  email: { columns: ['confirmation_token', 'recovery_token'], sms: false },
  email_change: { columns: ['email_change_token_new', 'email_change_token_current'], sms: false },
  sms: { columns: ['confirmation_token', 'recovery_token'], sms: true },
  phone_change: { columns: ['phone_change_token'], sms: true },
}

const VerifyBody = z.object({
  type: z.string(),
  token: z.string().max(255).optional(),
  token_hash: z.string().max(255).optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  redirect_to: z.string().optional(),
})

const sameHash = (a: string, b: string) => a.length === b.length && a.length > 0 && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** POST /verify: a typed code (with its email or phone) or a link's token_hash becomes a session. */
export async function verifyPost(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(VerifyBody, request.body)
  const outcome = await verify(request, deps, body, false)
  if ('single' in outcome) return { status: 200, body: { msg: SINGLE_CONFIRMATION, code: '200' } }
  return { status: 200, body: outcome }
}

/** GoTrue's answer to the first of the two confirmations of a secure email change. */
const SINGLE_CONFIRMATION = 'Confirmation link accepted. Please proceed to confirm link sent to the other email'

/**
 * GET /verify, the link in an email: the session goes to the redirect URL in its fragment, as GoTrue
 * does (`#access_token=...&type=signup`), or the error does (`#error=access_denied&error_code=...`).
 * A link sent for PKCE gives `?code=` instead, for the app to exchange with its code verifier.
 */
export async function verifyGet(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const redirectTo = allowedRedirect(request.query.get('redirect_to'), request.settings)
  const type = request.query.get('type') ?? ''
  let fragment: URLSearchParams
  try {
    const session = await verify(request, deps, { type, token_hash: request.query.get('token') ?? '' }, true)
    if ('single' in session) {
      const location = new URL(redirectTo)
      location.hash = new URLSearchParams({ message: SINGLE_CONFIRMATION }).toString()
      return { status: 303, headers: { location: location.href } }
    }
    if ('authCode' in session) {
      const location = new URL(redirectTo)
      location.searchParams.set('code', session.authCode)
      return { status: 303, headers: { location: location.href } }
    }
    fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type,
    })
  } catch (error) {
    if (!(error instanceof AuthError)) throw error
    fragment = new URLSearchParams({
      error: error.status === 429 ? 'too_many_requests' : 'access_denied',
      error_code: error.code,
      error_description: error.code === 'otp_expired' ? 'Email link is invalid or has expired' : error.message,
    })
  }
  const location = new URL(redirectTo)
  location.hash = fragment.toString()
  return { status: 303, headers: { location: location.href } }
}

async function verify(request: AuthRequest, deps: AuthDeps, body: z.infer<typeof VerifyBody>, link: boolean): Promise<SessionJson | { authCode: string } | { single: true }> {
  const kind = TYPES[body.type]
  if (!kind) throw validationFailed(`Verify requires a verification type: ${Object.keys(TYPES).join(', ')}`)
  if (!(await deps.limiter.take(request.project.ref, `verify:${request.project.ref}:${request.ip}`, request.settings.rate_limit_verify, FIVE_MINUTES))) throw rateLimited()
  if (!body.token_hash && !body.token) throw validationFailed('Verify requires a token or a token hash')
  return deps.databases.transaction(request.project.ref, async (db) => {
    const found = body.token_hash ? await byHash(db, kind.columns, body.token_hash) : await byCode(db, kind, body)
    if (!found) throw otpExpired()
    const { user, column } = found
    const sentAt = user[SENT_AT[column]] as Date | null
    const lifetime = kind.sms ? request.settings.sms_otp_exp : request.settings.mailer_otp_exp
    if (!sentAt || sentAt.getTime() + lifetime * 1000 < Date.now()) throw otpExpired()
    if (column.startsWith('email_change_') && awaitsSecondConfirmation(request, user, column)) {
      // The first of the two confirmations of a secure email change: that token is used up, the other still counts.
      await updateUser(db, user.id, { [column]: '', email_change_confirm_status: 1 })
      return { single: true as const }
    }
    const verified = await applyVerification(db, user, column, kind.sms)
    const authCode = link ? await issueAuthCode(db, user.id, body.type) : null
    if (authCode) return { authCode }
    return startSession(db, verified, body.type === 'sms' ? 'otp' : body.type, sessionContext(request))
  })
}

async function byHash(db: pg.PoolClient, columns: TokenColumn[], hash: string): Promise<{ user: UserRow; column: TokenColumn } | null> {
  for (const column of columns) {
    const { rows } = await db.query<UserRow>(`SELECT * FROM auth.users WHERE ${column} = $1 AND deleted_at IS NULL FOR UPDATE`, [hash])
    if (rows[0]) return { user: rows[0], column }
  }
  return null
}

/** A typed code: the user is found by the address the code went to, and the stored hash compared. */
async function byCode(
  db: pg.PoolClient,
  kind: (typeof TYPES)[string],
  body: z.infer<typeof VerifyBody>,
): Promise<{ user: UserRow; column: TokenColumn } | null> {
  const address = kind.sms ? normalPhone(body.phone) : normalEmail(body.email)
  const lookup = kind.columns.includes('email_change_token_new')
    ? `(lower(email_change) = $1 OR (lower(email) = $1 AND email_change <> ''))`
    : kind.columns.includes('phone_change_token')
      ? 'phone_change = $1'
      : kind.sms
        ? 'phone = $1'
        : 'lower(email) = $1'
  const { rows } = await db.query<UserRow>(`SELECT * FROM auth.users WHERE ${lookup} AND deleted_at IS NULL FOR UPDATE`, [address])
  const hash = tokenHash(address, body.token ?? '')
  // An email change's code may be the new address's or the current one's (secure email change): each candidate is tried.
  for (const user of rows) {
    const column = kind.columns.find((name) => sameHash(String(user[name]), hash))
    if (column) return { user, column }
  }
  return null
}

/**
 * GoTrue's emailChangeVerify: with secure email change on, a user with an address confirms from both, the first one
 * waits. Unlike GoTrue, a change whose other token was never issued (asked before the setting, or one generated link)
 * completes rather than waiting for a confirmation that cannot come.
 */
function awaitsSecondConfirmation(request: AuthRequest, user: UserRow, column: TokenColumn): boolean {
  const { settings } = request
  const other = column === 'email_change_token_new' ? user.email_change_token_current : user.email_change_token_new
  return !settings.mailer_autoconfirm && settings.mailer_secure_email_change_enabled && user.email_change_confirm_status === 0 && Boolean(user.email) && Boolean(other)
}

/** What a verified token does: confirms the address, or moves to the new one; the token is used up. */
async function applyVerification(db: pg.PoolClient, user: UserRow, column: TokenColumn, sms: boolean): Promise<UserRow> {
  const now = new Date()
  if (column === 'email_change_token_new' || column === 'email_change_token_current') {
    // An anonymous user who confirms an email becomes a permanent one, with an email identity.
    const updated = await updateUser(db, user.id, {
      email: user.email_change,
      email_change: '',
      email_change_token_new: '',
      email_change_token_current: '',
      email_change_confirm_status: 0,
      email_confirmed_at: user.email_confirmed_at ?? now,
      is_anonymous: false,
    })
    await db.query(
      `INSERT INTO auth.identities (provider_id, user_id, identity_data, provider)
       VALUES ($1::text, $1::uuid, jsonb_build_object('sub', $1::text, 'email', $2::text, 'email_verified', true), 'email')
       ON CONFLICT (provider_id, provider) DO UPDATE SET identity_data = auth.identities.identity_data || jsonb_build_object('email', $2::text), updated_at = now()`,
      [user.id, updated.email],
    )
    return updated
  }
  if (column === 'phone_change_token') {
    return updateUser(db, user.id, { phone: user.phone_change, phone_change: '', phone_change_token: '', phone_confirmed_at: now })
  }
  const confirmed = sms ? { phone_confirmed_at: user.phone_confirmed_at ?? now } : { email_confirmed_at: user.email_confirmed_at ?? now }
  await db.query(
    `UPDATE auth.identities SET identity_data = identity_data || jsonb_build_object($2::text, true), updated_at = now() WHERE user_id = $1`,
    [user.id, sms ? 'phone_verified' : 'email_verified'],
  )
  return updateUser(db, user.id, { [column]: '', ...confirmed })
}
