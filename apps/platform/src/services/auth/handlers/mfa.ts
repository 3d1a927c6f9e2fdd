import { randomUUID, timingSafeEqual } from 'node:crypto'
import type pg from 'pg'
import { z } from 'zod'
import { audit } from '../audit.js'
import { AuthError, invalidChannel, rateLimited, userNotFound, validationFailed } from '../errors.js'
import { factorJson, factorMethod, findOwnedFactor, userFactors, type FactorRow } from '../factors.js'
import { FIVE_MINUTES } from '../rate-limit.js'
import { normalPhone } from '../input.js'
import { testOtp } from '../one-time.js'
import { newOtp } from '../tokens.js'
import { parseBody, sessionContext, type AuthDeps, type AuthRequest, type AuthResponse } from '../request.js'
import { downgradeSessions, upgradeSession, validIp } from '../sessions.js'
import { newTotpKey, qrCodeSvg, totpCodeMatches } from '../totp.js'
import { findUserById, type UserRow } from '../users.js'
import { relyingParty, type CeremonyData } from '../webauthn.js'
import { requireAdmin } from './admin.js'
import { checkWebAuthnAnswer, webAuthnAnswer, webAuthnChallenge } from './mfa-webauthn.js'
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
 * only time it is shown), the otpauth:// URI and its QR code. Phone and WebAuthn factors below.
 */
export async function enrollFactor(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(EnrollBody, request.body)
  const { settings } = request
  if (body.factor_type === 'phone') {
    if (!settings.mfa_phone_enroll_enabled) throw new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone')
    return enrollPhoneFactor(request, deps, body)
  }
  if (body.factor_type === 'webauthn') {
    if (!settings.mfa_web_authn_enroll_enabled) throw new AuthError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn')
    return enrollWebAuthnFactor(request, deps, body)
  }
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

/**
 * POST /factors with factor_type phone (GoTrue's enrollPhoneFactor): unverified until a code sent to it is verified;
 * an unverified enrolment of the same number is replaced, a verified one must be unenrolled first.
 */
async function enrollPhoneFactor(request: AuthRequest, deps: AuthDeps, body: z.infer<typeof EnrollBody>): Promise<AuthResponse> {
  if (!body.phone) throw validationFailed('Phone number required to enroll Phone factor')
  let phone: string
  try {
    phone = normalPhone(body.phone)
  } catch {
    throw validationFailed('Invalid phone number format (E.164 required)')
  }
  const friendlyName = body.friendly_name ?? ''
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { user, aal2 } = await signedIn(db, request)
    const same = (await userFactors(db, user.id)).filter((factor) => factor.factor_type === 'phone' && factor.phone === phone)
    if (same.some((factor) => factor.status === 'verified')) {
      throw new AuthError(422, 'mfa_verified_factor_exists', 'A verified phone factor already exists, unenroll the existing factor to continue')
    }
    if (same.length) await db.query('DELETE FROM auth.mfa_factors WHERE id = ANY($1::uuid[])', [same.map((factor) => factor.id)])
    await refuseMoreFactors(db, user.id, friendlyName, request.settings.mfa_max_enrolled_factors, aal2)
    const id = randomUUID()
    await db.query(
      `INSERT INTO auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, phone)
       VALUES ($1, $2, $3, 'phone', 'unverified', now(), now(), $4)`,
      [id, user.id, friendlyName, phone],
    )
    await audit(db, 'factor_in_progress', user, request.ip, { factor_id: id, factor_type: 'phone' })
    return { status: 200, body: { id, type: 'phone', friendly_name: friendlyName, phone: body.phone } }
  })
}

/**
 * POST /factors with factor_type webauthn (GoTrue's enrollWebAuthnFactor): only a name for now; the credential comes
 * with the first challenge ("create") and its verification.
 */
async function enrollWebAuthnFactor(request: AuthRequest, deps: AuthDeps, body: z.infer<typeof EnrollBody>): Promise<AuthResponse> {
  const friendlyName = body.friendly_name ?? ''
  return deps.databases.transaction(request.project.ref, async (db) => {
    const { user, aal2 } = await signedIn(db, request)
    await refuseMoreFactors(db, user.id, friendlyName, request.settings.mfa_max_enrolled_factors, aal2)
    const id = randomUUID()
    await db.query(
      `INSERT INTO auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
       VALUES ($1, $2, $3, 'webauthn', 'unverified', now(), now())`,
      [id, user.id, friendlyName],
    )
    await audit(db, 'factor_in_progress', user, request.ip, { factor_id: id, factor_type: 'webauthn' })
    return { status: 200, body: { id, type: 'webauthn', friendly_name: friendlyName } }
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
  if (!(await deps.limiter.take(request.project.ref, `mfa-challenge:${ref}:${request.ip}`, request.settings.rate_limit_verify, FIVE_MINUTES))) throw rateLimited()
  return deps.databases.transaction(ref, async (db) => {
    const { user } = await signedIn(db, request)
    const factor = await ownedFactor(db, user.id, request.path)
    refuseDisabledVerification(request, factor)
    const otpCode = factor.factor_type === 'phone' ? await sendPhoneCode(request, deps, factor) : null
    // A WebAuthn factor's challenge is a ceremony: its options answered, its server side kept in the row.
    const ceremony = factor.factor_type === 'webauthn' ? await webAuthnChallenge(db, relyingParty(request.settings), user, factor) : null
    const id = randomUUID()
    const { rows } = await db.query<{ created_at: Date }>(
      `INSERT INTO auth.mfa_challenges (id, factor_id, created_at, ip_address, otp_code, web_authn_session_data)
       VALUES ($1, $2, now(), $3, $4, $5) RETURNING created_at`,
      [id, factor.id, validIp(request.ip) ?? '0.0.0.0', otpCode, ceremony ? JSON.stringify(ceremony.data) : null],
    )
    await db.query('UPDATE auth.mfa_factors SET last_challenged_at = now() WHERE id = $1', [factor.id])
    await audit(db, 'challenge_created', user, request.ip, { factor_id: factor.id, factor_status: factor.status })
    const expiresAt = Math.floor(rows[0]!.created_at.getTime() / 1000) + CHALLENGE_SECONDS
    return { status: 200, body: { id, type: factor.factor_type, expires_at: expiresAt, ...(ceremony ? { webauthn: ceremony.webauthn } : {}) } }
  })
}

const ChallengeBody = z.object({ channel: z.string().max(16).optional() })

/**
 * A phone factor's challenge: a code by SMS (the project's outbox; a test number of sms_test_otp gets its fixed code
 * and nothing is sent), no more often than mfa_phone_max_frequency. Answers the code sealed, as the challenge keeps it.
 */
async function sendPhoneCode(request: AuthRequest, deps: AuthDeps, factor: FactorRow): Promise<string> {
  const { settings } = request
  const channel = parseBody(ChallengeBody, request.body).channel ?? 'sms'
  if (channel !== 'sms') throw invalidChannel()
  if (factor.last_challenged_at) {
    const waitMs = factor.last_challenged_at.getTime() + settings.mfa_phone_max_frequency * 1000 - Date.now()
    if (waitMs > 0) throw new AuthError(429, 'over_sms_send_rate_limit', `For security purposes, you can only request this after ${Math.ceil(waitMs / 1000)} seconds.`)
  }
  const phone = factor.phone ?? ''
  const fixed = testOtp(settings, phone)
  const code = fixed ?? newOtp(settings.mfa_phone_otp_length)
  if (!fixed) {
    const text = settings.mfa_phone_template.replaceAll('{{ .Code }}', code)
    await deps.outbox.send(request.project.ref, settings, { channel: 'sms', kind: 'mfa', recipient: `+${phone}`, subject: 'SMS', body: text })
  }
  return deps.secrets.seal(code)
}

function refuseDisabledVerification(request: AuthRequest, factor: FactorRow): void {
  if (factor.factor_type === 'phone') {
    if (!request.settings.mfa_phone_verify_enabled) throw new AuthError(422, 'mfa_phone_verify_not_enabled', 'MFA verification is disabled for Phone')
    return
  }
  if (factor.factor_type === 'webauthn') {
    if (!request.settings.mfa_web_authn_verify_enabled) throw new AuthError(422, 'mfa_webauthn_verify_not_enabled', 'MFA verification is disabled for WebAuthn')
    return
  }
  if (!request.settings.mfa_totp_verify_enabled) throw new AuthError(422, 'mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP')
}

const VerifyBody = z.object({ challenge_id: z.string().max(64).optional(), code: z.string().max(64).optional(), webauthn: z.unknown().optional() })

interface ChallengeRow {
  id: string
  otp_code: string | null
  created_at: Date
  verified_at: Date | null
  ip: string
  web_authn_session_data: CeremonyData | null
}

/**
 * POST /factors/{id}/verify: the code of the factor's authenticator for one of its challenges (for a WebAuthn factor,
 * the authenticator's answer to the challenge's ceremony). Right, the challenge is spent, the factor verified, and the
 * session becomes aal2 with a new access and refresh token. Codes are counted per factor and per address, so six
 * digits cannot be walked through.
 */
export async function verifyFactor(request: AuthRequest, deps: AuthDeps): Promise<AuthResponse> {
  const body = parseBody(VerifyBody, request.body)
  const { ref } = request.project
  const limit = request.settings.rate_limit_verify
  if (!(await deps.limiter.take(request.project.ref, `mfa-verify:${ref}:ip:${request.ip}`, limit, FIVE_MINUTES))) throw rateLimited()
  const outcome = await deps.databases.transaction(ref, async (db) => {
    const { user, sessionId } = await signedIn(db, request)
    const factor = await ownedFactor(db, user.id, request.path)
    // A WebAuthn factor is answered without a code (GoTrue asks for one of the other factors only).
    if (!body.code && factor.factor_type !== 'webauthn') throw validationFailed('Code needs to be non-empty')
    refuseDisabledVerification(request, factor)
    const answer = factor.factor_type === 'webauthn' ? webAuthnAnswer(body.webauthn) : null
    if (!(await deps.limiter.take(request.project.ref, `mfa-verify:${ref}:factor:${factor.id}`, limit, FIVE_MINUTES, db))) throw rateLimited()
    const challenge = await validChallenge(db, factor, body.challenge_id ?? '', request.ip)
    if (challenge instanceof AuthError) return challenge
    const method = factorMethod(factor.factor_type)
    if (answer) {
      // A ceremony answers once, whatever the outcome (the refusal is returned, so this commits).
      await db.query('DELETE FROM auth.mfa_challenges WHERE id = $1', [challenge.id])
      const refused = await checkWebAuthnAnswer(db, factor, challenge, relyingParty(request.settings).origins, answer)
      if (refused) return refused
    } else if (factor.factor_type === 'phone') {
      // The code sent with this challenge (sealed in it), compared in constant time.
      const sent = challenge.otp_code ? openedCode(deps, challenge.otp_code) : null
      if (!sent || !sameCode(sent, body.code!)) return new AuthError(422, 'mfa_verification_failed', 'Invalid MFA Phone code entered')
    } else {
      const secret = factor.secret ? openedSecret(deps, factor.secret) : null
      if (!secret || !totpCodeMatches(secret, body.code!)) return new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered')
      // A secret kept in clear (a factor restored from Supabase, where GoTrue keeps them so by default) is sealed now.
      if (secret === factor.secret) await db.query('UPDATE auth.mfa_factors SET secret = $2 WHERE id = $1', [factor.id, deps.secrets.seal(secret)])
    }
    await audit(db, 'verification_attempted', user, request.ip, { factor_id: factor.id, challenge_id: challenge.id, factor_type: factor.factor_type })
    await db.query('UPDATE auth.mfa_challenges SET verified_at = now() WHERE id = $1', [challenge.id])
    if (factor.status !== 'verified') await db.query(`UPDATE auth.mfa_factors SET status = 'verified', updated_at = now() WHERE id = $1`, [factor.id])
    // The other unverified TOTP enrolments of the user were attempts that this one replaces (GoTrue drops them too).
    await db.query(`DELETE FROM auth.mfa_factors WHERE user_id = $1 AND status = 'unverified' AND factor_type = $2`, [user.id, factor.factor_type])
    const fresh = (await findUserById(db, user.id))!
    return upgradeSession(db, fresh, sessionId, method, factor.id, sessionContext(request))
  })
  // Refusals are returned, so that an expired challenge's removal commits.
  if (outcome instanceof AuthError) throw outcome
  return { status: 200, body: outcome }
}

function openedCode(deps: AuthDeps, sealed: string): string | null {
  try {
    return deps.secrets.open(sealed)
  } catch {
    return null
  }
}

const sameCode = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

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
    'SELECT id, otp_code, created_at, verified_at, host(ip_address) AS ip, web_authn_session_data FROM auth.mfa_challenges WHERE id = $1 AND factor_id = $2 FOR UPDATE',
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
    await downgradeSessions(db, user.id, factor.id, factorMethod(factor.factor_type))
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
    await downgradeSessions(db, user.id, factor.id, factorMethod(factor.factor_type))
    return { status: 200, body: factorJson(factor) }
  })
}
