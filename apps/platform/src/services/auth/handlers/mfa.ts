import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { z } from 'zod'
import { audit } from '../audit.js'
import { AuthError, rateLimited, userNotFound, validationFailed } from '../errors.js'
import { factorJson, findOwnedFactor, userFactors, type FactorRow } from '../factors.js'
import { FIVE_MINUTES } from '../rate-limit.js'
import { parseBody, sessionContext, type AuthDeps, type AuthRequest, type AuthResponse } from '../request.js'
import { downgradeSessions, upgradeSession, validIp } from '../sessions.js'
import { newTotpKey, qrCodeSvg, totpCodeMatches } from '../totp.js'
import { findUserById, type UserRow } from '../users.js'
import { requireAdmin } from './admin.js'
import { currentUser } from './user.js'

/** GoTrue's MFA defaults: a challenge answers for five minutes; an enrolment never verified is dropped after five. */
const CHALLENGE_SECONDS = 300
const UNVERIFIED_FACTOR_SECONDS = 300
/** GoTrue's cap on verified factors, next to the project's cap on all of them (mfa_max_enrolled_factors). */
const MAX_VERIFIED_FACTORS = 10

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** `/factors/{id}`, `/factors/{id}/challenge`, `/factors/{id}/verify`: the factor id, whatever it holds. */
const pathFactorId = (path: string): string => path.split('/')[2] ?? ''

const factorNotFound = () => new AuthError(404, 'mfa_factor_not_found', 'Factor not found')

const EnrollBody = z.object({
  factor_type: z.string().max(32).optional(),
  friendly_name: z.string().max(255).optional(),
  issuer: z.string().max(255).optional(),
  phone: z.string().max(32).optional(),
})

/** The signed-in user and its session (locked: enrolments and verifications of one user run one at a time). */
async function signedIn(db: pg.PoolClient, request: AuthRequest): Promise<{ user: UserRow; sessionId: string; aal2: boolean }> {
  const { user, sessionId } = await currentUser(db, request, true)
  if (request.claims?.is_anonymous === true || user.is_anonymous) {
    throw new AuthError(403, 'no_authorization', 'Anonymous user not allowed to perform these actions')
  }
  const { rows } = await db.query<{ aal: string }>('SELECT aal FROM auth.sessions WHERE id = $1', [sessionId])
  return { user, sessionId, aal2: rows[0]?.aal === 'aal2' }
}

/** The user's factor named in the path, or GoTrue's 404 (another user's factor is answered as a missing one). */
async function ownedFactor(db: pg.PoolClient, userId: string, path: string): Promise<FactorRow> {
  const id = pathFactorId(path)
  if (!UUID.test(id)) throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID')
  const factor = await findOwnedFactor(db, userId, id, true)
  if (!factor) throw factorNotFound()
  return factor
}

/**
 * POST /factors: a new TOTP factor, unverified until its first code is verified. The answer carries the secret (the
 * only time it is shown), the otpauth:// URI and its QR code. Phone and WebAuthn factors are not offered here.
 */
export async function enrollFactor(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(EnrollBody, request.body)
  const { settings } = request
  if (body.factor_type === 'phone') throw new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone')
  if (body.factor_type === 'webauthn') throw new AuthError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn')
  if (body.factor_type !== 'totp') throw validationFailed('factor_type needs to be totp, phone, or webauthn')
  if (!settings.mfa_totp_enroll_enabled) throw new AuthError(422, 'mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP')
  const friendlyName = body.friendly_name ?? ''
  const issuer = body.issuer || new URL(settings.site_url).host
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { user, aal2 } = await signedIn(db, request)
    await refuseMoreFactors(db, user.id, friendlyName, settings.mfa_max_enrolled_factors, aal2)
    const key = newTotpKey(issuer, user.email ?? user.phone ?? '')
    const id = randomUUID()
    await db.query(
      `INSERT INTO auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
       VALUES ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
      [id, user.id, friendlyName, deps.secrets.seal(key.secret)],
    )
    await audit(db, 'factor_in_progress', user, request.ip, { factor_id: id })
    return {
      status: 200,
      body: { id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: await qrCodeSvg(key.uri), secret: key.secret, uri: key.uri } },
    }
  })
}

/** GoTrue's validateFactors: stale unverified enrolments go; then the name must be free and the caps not reached. */
async function refuseMoreFactors(db: pg.PoolClient, userId: string, friendlyName: string, maxEnrolled: number, aal2: boolean): Promise<void> {
  await db.query(
    `DELETE FROM auth.mfa_factors f WHERE f.user_id = $1 AND f.status <> 'verified' AND f.created_at + make_interval(secs => $2) < now()
       AND NOT EXISTS (SELECT 1 FROM auth.mfa_challenges c WHERE c.factor_id = f.id)`,
    [userId, UNVERIFIED_FACTOR_SECONDS],
  )
  const factors = await userFactors(db, userId)
  if (factors.some((factor) => (factor.friendly_name ?? '') === friendlyName)) {
    throw new AuthError(422, 'mfa_factor_name_conflict', `A factor with the friendly name "${friendlyName}" for this user already exists`)
  }
  const verified = factors.filter((factor) => factor.status === 'verified').length
  if (factors.length >= maxEnrolled || verified >= MAX_VERIFIED_FACTORS) {
    throw new AuthError(422, 'too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue')
  }
  if (verified > 0 && !aal2) throw new AuthError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor')
}

/** POST /factors/{id}/challenge: a challenge the next code answers, from this IP address, within five minutes. */
export async function challengeFactor(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const { ref } = request.project
  if (!deps.limiter.take(`mfa-challenge:${ref}:${request.ip}`, request.settings.rate_limit_verify, FIVE_MINUTES)) throw rateLimited()
  return deps.databases.transaction(ref, async (db) => {
    const { user } = await signedIn(db, request)
    const factor = await ownedFactor(db, user.id, request.path)
    refuseDisabledVerification(request, factor)
    const id = randomUUID()
    const { rows } = await db.query<{ created_at: Date }>(
      'INSERT INTO auth.mfa_challenges (id, factor_id, created_at, ip_address) VALUES ($1, $2, now(), $3) RETURNING created_at',
      [id, factor.id, validIp(request.ip) ?? '0.0.0.0'],
    )
    await db.query('UPDATE auth.mfa_factors SET last_challenged_at = now() WHERE id = $1', [factor.id])
    await audit(db, 'challenge_created', user, request.ip, { factor_id: factor.id, factor_status: factor.status })
    return { status: 200, body: { id, type: factor.factor_type, expires_at: Math.floor(rows[0]!.created_at.getTime() / 1000) + CHALLENGE_SECONDS } }
  })
}

function refuseDisabledVerification(request: AuthRequest, factor: FactorRow): void {
  // Only TOTP factors are made here; one of another type (written by SQL) is refused as GoTrue refuses a disabled type.
  if (factor.factor_type === 'phone') throw new AuthError(422, 'mfa_phone_verify_not_enabled', 'MFA verification is disabled for Phone')
  if (factor.factor_type === 'webauthn') throw new AuthError(422, 'mfa_webauthn_verify_not_enabled', 'MFA verification is disabled for WebAuthn')
  if (!request.settings.mfa_totp_verify_enabled) throw new AuthError(422, 'mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP')
}

const VerifyBody = z.object({ challenge_id: z.string().max(64).optional(), code: z.string().max(64).optional() })

interface ChallengeRow {
  id: string
  created_at: Date
  verified_at: Date | null
  ip: string
}

/**
 * POST /factors/{id}/verify: the code of the factor's authenticator for one of its challenges. Right, the challenge is
 * spent, the factor verified, and the session becomes aal2 with a new access and refresh token. Codes are counted per
 * factor and per address, so six digits cannot be walked through.
 */
export async function verifyFactor(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(VerifyBody, request.body)
  if (!body.code) throw validationFailed('Code needs to be non-empty')
  const { ref } = request.project
  const limit = request.settings.rate_limit_verify
  if (!deps.limiter.take(`mfa-verify:${ref}:ip:${request.ip}`, limit, FIVE_MINUTES)) throw rateLimited()
  const outcome = await deps.databases.transaction(ref, async (db) => {
    const { user, sessionId } = await signedIn(db, request)
    const factor = await ownedFactor(db, user.id, request.path)
    refuseDisabledVerification(request, factor)
    if (!deps.limiter.take(`mfa-verify:${ref}:factor:${factor.id}`, limit, FIVE_MINUTES)) throw rateLimited()
    const challenge = await validChallenge(db, factor, body.challenge_id ?? '', request.ip)
    if (challenge instanceof AuthError) return challenge
    const secret = factor.secret ? openedSecret(deps, factor.secret) : null
    if (!secret || !totpCodeMatches(secret, body.code!)) return new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered')
    // A secret kept in clear (a factor restored from Supabase, where GoTrue keeps them so by default) is sealed now.
    if (secret === factor.secret) await db.query('UPDATE auth.mfa_factors SET secret = $2 WHERE id = $1', [factor.id, deps.secrets.seal(secret)])
    await audit(db, 'verification_attempted', user, request.ip, { factor_id: factor.id, challenge_id: challenge.id, factor_type: factor.factor_type })
    await db.query('UPDATE auth.mfa_challenges SET verified_at = now() WHERE id = $1', [challenge.id])
    if (factor.status !== 'verified') await db.query(`UPDATE auth.mfa_factors SET status = 'verified', updated_at = now() WHERE id = $1`, [factor.id])
    // The other unverified TOTP enrolments of the user were attempts that this one replaces (GoTrue drops them too).
    await db.query(`DELETE FROM auth.mfa_factors WHERE user_id = $1 AND status = 'unverified' AND factor_type = 'totp'`, [user.id])
    const fresh = (await findUserById(db, user.id))!
    return upgradeSession(db, fresh, sessionId, 'totp', factor.id, sessionContext(request))
  })
  // Refusals are returned, so that an expired challenge's removal commits.
  if (outcome instanceof AuthError) throw outcome
  return { status: 200, body: outcome }
}

/**
 * The factor's base32 secret: sealed by this platform, or in clear as GoTrue stores it without database encryption.
 * One sealed elsewhere (another platform's key) opens nothing: its codes are refused like wrong ones.
 */
function openedSecret(deps: AuthDeps, stored: string): string | null {
  if (/^[A-Z2-7]+=*$/.test(stored)) return stored
  try {
    return deps.secrets.open(stored)
  } catch {
    return null
  }
}

/** GoTrue's validateChallenge: the factor's own challenge, not yet answered, from the same address, not expired. */
async function validChallenge(db: pg.PoolClient, factor: FactorRow, challengeId: string, ip: string | null): Promise<ChallengeRow | AuthError> {
  const { rows } = await db.query<ChallengeRow>(
    'SELECT id, created_at, verified_at, host(ip_address) AS ip FROM auth.mfa_challenges WHERE id = $1 AND factor_id = $2 FOR UPDATE',
    [UUID.test(challengeId) ? challengeId : null, factor.id],
  )
  const challenge = rows[0]
  if (!challenge) return new AuthError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found')
  if (challenge.verified_at || challenge.ip !== (validIp(ip) ?? '0.0.0.0')) {
    return new AuthError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.')
  }
  if (challenge.created_at.getTime() + CHALLENGE_SECONDS * 1000 < Date.now()) {
    await db.query('DELETE FROM auth.mfa_challenges WHERE id = $1', [challenge.id])
    return new AuthError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
    )
  }
  return challenge
}

/**
 * DELETE /factors/{id}: the user removes a factor. A verified one only from an aal2 session (else a stolen password
 * would remove the second factor); sessions it raised go back to aal1.
 */
export async function unenrollFactor(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { user, sessionId, aal2 } = await signedIn(db, request)
    const factor = await ownedFactor(db, user.id, request.path)
    if (factor.status === 'verified' && !aal2) throw new AuthError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor')
    await db.query('DELETE FROM auth.mfa_factors WHERE id = $1', [factor.id])
    await audit(db, 'factor_unenrolled', user, request.ip, { factor_id: factor.id, factor_status: factor.status, session_id: sessionId })
    await downgradeSessions(db, user.id, factor.id, 'totp')
    return { status: 200, body: { id: factor.id } }
  })
}

/** `/admin/users/{id}/factors[/{factor_id}]`: the user id and the factor id. */
function adminPath(path: string): { userId: string; factorId: string } {
  const [, , , userId = '', , factorId = ''] = path.split('/')
  return { userId, factorId }
}

async function adminUser(db: pg.PoolClient, userId: string): Promise<UserRow> {
  const user = UUID.test(userId) ? await findUserById(db, userId.toLowerCase()) : null
  if (!user) throw userNotFound()
  return user
}

/** GET /admin/users/{id}/factors (service key): all the user's factors, verified or not. */
export async function adminListFactors(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  requireAdmin(request)
  return deps.databases.transaction(request.project.ref, async (db) => {
    const user = await adminUser(db, adminPath(request.path).userId)
    return { status: 200, body: (await userFactors(db, user.id)).map(factorJson) }
  })
}

/** DELETE /admin/users/{id}/factors/{factor_id} (service key): e.g. for a user who lost the device; answers the factor. */
export async function adminDeleteFactor(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  requireAdmin(request)
  const { userId, factorId } = adminPath(request.path)
  return deps.databases.transaction(request.project.ref, async (db) => {
    const user = await adminUser(db, userId)
    if (!UUID.test(factorId)) throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID')
    const factor = await findOwnedFactor(db, user.id, factorId, true)
    if (!factor) throw factorNotFound()
    await audit(db, 'factor_deleted', user, request.ip, { user_id: user.id, factor_id: factor.id })
    await db.query('DELETE FROM auth.mfa_factors WHERE id = $1', [factor.id])
    await downgradeSessions(db, user.id, factor.id, 'totp')
    return { status: 200, body: factorJson(factor) }
  })
}
