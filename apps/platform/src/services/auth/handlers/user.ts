import { timingSafeEqual } from 'node:crypto'
import type pg from 'pg'
import { z } from 'zod'
import { audit } from '../audit.js'
import { AuthError, badJwt, noAuthorization, sessionNotFound, validationFailed } from '../errors.js'
import { checkedPassword, mergedMetadata, Metadata, normalEmail, normalPhone } from '../input.js'
import { sendEmailToken, sendSmsToken } from '../one-time.js'
import { awaitingSecondFactor } from '../factors.js'
import { hashPassword, passwordMatches } from '../passwords.js'
import { parseBody, type AuthDeps, type AuthRequest, type AuthResponse } from '../request.js'
import { endSessions } from '../sessions.js'
import { tokenHash } from '../tokens.js'
import { findUserByEmail, findUserById, findUserByPhone, updateUser, userJson, type UserRow } from '../users.js'

/** The signed-in user of the request: a user JWT whose session still exists (GoTrue's rule). */
export async function currentUser(db: pg.PoolClient, request: AuthRequest, lock = false): Promise<{ user: UserRow; sessionId: string }> {
  const claims = request.claims
  if (!claims) throw badJwt()
  if (typeof claims.sub !== 'string' || !claims.sub) {
    throw claims.role === 'anon' || claims.role === 'service_role' ? noAuthorization() : badJwt()
  }
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : ''
  const session = await db.query('SELECT 1 FROM auth.sessions WHERE id = $1 AND user_id = $2', [/^[0-9a-f-]{36}$/i.test(sessionId) ? sessionId : null, claims.sub])
  if (!session.rowCount) throw sessionNotFound()
  const user = await findUserById(db, claims.sub, lock)
  if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
  return { user, sessionId }
}

/** GET /user. */
export async function getUser(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  return deps.databases.transaction(request.project.ref, async (db) => ({ status: 200, body: await userJson(db, (await currentUser(db, request)).user) }))
}

const UpdateBody = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.unknown().optional(),
  data: Metadata.optional(),
  nonce: z.string().optional(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
})

/**
 * PUT /user: metadata, password, email and phone. A new email or phone is confirmed by a link or
 * code sent to it (unless the project auto-confirms), as GoTrue does.
 */
export async function updateCurrentUser(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(UpdateBody, request.body)
  const password = body.password === undefined ? undefined : checkedPassword(body.password, request.settings)
  const passwordHash = password === undefined ? undefined : await hashPassword(password)
  return deps.databases.transaction(request.project.ref, async (db) => {
    const signedIn = await currentUser(db, request, true)
    let { user } = signedIn
    const email = body.email === undefined ? undefined : normalEmail(body.email)
    const phone = body.phone === undefined ? undefined : normalPhone(body.phone)
    // With MFA on, a password alone (an aal1 session) may not change how the account signs in.
    const changesSignIn = password !== undefined || (email !== undefined && email !== user.email) || (phone !== undefined && phone !== user.phone)
    if (changesSignIn && (await awaitingSecondFactor(db, user.id, signedIn.sessionId))) {
      throw new AuthError(401, 'insufficient_aal', 'AAL2 session is required to update email or password when MFA is enabled.')
    }
    if (body.data) user = await updateUser(db, user.id, { raw_user_meta_data: mergedMetadata(user.raw_user_meta_data, body.data) })
    if (password !== undefined) {
      if (request.settings.security_update_password_require_reauthentication) await requireRecentSignInOrNonce(db, user, signedIn.sessionId, body.nonce, request)
      if (await passwordMatches(password, user.encrypted_password)) {
        throw new AuthError(422, 'same_password', 'New password should be different from the old password.')
      }
      user = await updateUser(db, user.id, { encrypted_password: passwordHash })
      await audit(db, 'user_updated_password', user, request.ip)
    }
    if (email !== undefined) user = await changeEmail(db, deps, request, user, email)
    if (phone !== undefined) user = await changePhone(db, deps, request, user, phone)
    await audit(db, 'user_modified', user, request.ip)
    return { status: 200, body: await userJson(db, user) }
  })
}

async function changeEmail(db: pg.PoolClient, deps: AuthDeps, request: AuthRequest, user: UserRow, email: string): Promise<UserRow> {
  if (email === user.email) return user
  const taken = await findUserByEmail(db, email)
  if (taken && taken.id !== user.id) throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered')
  if (request.settings.mailer_autoconfirm) return updateUser(db, user.id, { email, email_confirmed_at: new Date() })
  const lastSent = user.email_change_sent_at?.getTime() ?? 0
  if (Date.now() - lastSent < request.settings.smtp_max_frequency * 1000) {
    const wait = Math.ceil((lastSent + request.settings.smtp_max_frequency * 1000 - Date.now()) / 1000)
    throw new AuthError(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${wait} seconds.`)
  }
  // Secure email change (GoTrue's double confirm): the current address confirms too, with a token of its own.
  const secure = request.settings.mailer_secure_email_change_enabled && Boolean(user.email)
  let pending = await updateUser(db, user.id, { email_change: email, email_change_confirm_status: 0, email_change_token_current: '' })
  if (secure) pending = await sendEmailToken(db, deps, request, pending, 'email_change_current', user.email!)
  return sendEmailToken(db, deps, request, pending, 'email_change', email)
}

/**
 * GoTrue's rule for a password change when the project requires reauthentication: a session started within the last
 * 24 hours may change it; an older one needs the nonce that /reauthenticate sent, which is then used up.
 */
async function requireRecentSignInOrNonce(db: pg.PoolClient, user: UserRow, sessionId: string, nonce: string | undefined, request: AuthRequest): Promise<void> {
  const { rows } = await db.query<{ recent: boolean }>(`SELECT created_at > now() - interval '24 hours' AS recent FROM auth.sessions WHERE id = $1`, [sessionId])
  if (rows[0]?.recent) return
  if (!nonce) throw new AuthError(400, 'reauthentication_needed', 'Password update requires reauthentication')
  const invalid = () => new AuthError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid')
  if (!user.reauthentication_token || !user.reauthentication_sent_at) throw invalid()
  const address = user.email || user.phone
  if (!address) throw new AuthError(422, 'reauthentication_not_valid', 'Reauthentication requires an email or a phone number')
  const lifetime = user.email ? request.settings.mailer_otp_exp : request.settings.sms_otp_exp
  const fresh = user.reauthentication_sent_at.getTime() + lifetime * 1000 >= Date.now()
  if (!fresh || !sameHash(tokenHash(address, nonce), user.reauthentication_token)) throw invalid()
  await updateUser(db, user.id, { reauthentication_token: '', reauthentication_sent_at: null })
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

async function changePhone(db: pg.PoolClient, deps: AuthDeps, request: AuthRequest, user: UserRow, phone: string): Promise<UserRow> {
  if (phone === user.phone) return user
  const taken = await findUserByPhone(db, phone)
  if (taken && taken.id !== user.id) throw new AuthError(422, 'phone_exists', 'A user with this phone number has already been registered')
  if (request.settings.sms_autoconfirm) return updateUser(db, user.id, { phone, phone_confirmed_at: new Date() })
  const pending = await updateUser(db, user.id, { phone_change: phone })
  return sendSmsToken(db, deps, request, pending, 'phone_change', phone)
}

/** POST /logout?scope=global|local|others: ends sessions; their refresh tokens stop working at once. */
export async function logout(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const scope = request.query.get('scope') ?? 'global'
  if (!['global', 'local', 'others'].includes(scope)) throw validationFailed(`Unsupported logout scope "${scope}"`)
  await deps.databases.transaction(request.project.ref, async (db) => {
    const { user, sessionId } = await currentUser(db, request)
    await endSessions(db, user.id, sessionId, scope)
    await audit(db, 'logout', user, request.ip, { scope })
  })
  return { status: 204 }
}
