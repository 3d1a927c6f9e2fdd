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
  const pending = await updateUser(db, user.id, { email_change: email })
  return sendEmailToken(db, deps, request, pending, 'email_change', email)
}

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
