import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import type { ProjectJwtKeys } from '../../keys/project-keys.js'
import { AuthError } from './errors.js'
import { newRefreshToken, secretFingerprint, signAccessToken, type AmrEntry } from './tokens.js'
import { findUserById, updateUser, userJson, type UserRow } from './users.js'

/** What a session request needs to know of the project and the caller. */
export interface SessionContext {
  /** The project's legacy secret and signing keys (the gateway's project). */
  keys: ProjectJwtKeys
  jwtSecret: string
  issuer: string
  lifetimeSeconds: number
  userAgent: string | null
  ip: string | null
}

/** The body every sign-in answers (GoTrue's AccessTokenResponse). */
export interface SessionJson {
  access_token: string
  token_type: 'bearer'
  expires_in: number
  expires_at: number
  refresh_token: string
  user: Record<string, unknown>
}

/** Starts a session for the user (after a password, a code or a link), with its first refresh token. */
export async function startSession(db: pg.PoolClient, user: UserRow, method: string, context: SessionContext): Promise<SessionJson> {
  const sessionId = randomUUID()
  await db.query(
    `INSERT INTO auth.sessions (id, user_id, user_agent, ip, jwt_secret_hash) VALUES ($1, $2, $3, $4, $5)`,
    [sessionId, user.id, context.userAgent, validIp(context.ip), secretFingerprint(context.jwtSecret)],
  )
  await addAmrClaim(db, sessionId, method)
  const refreshToken = newRefreshToken()
  await db.query('INSERT INTO auth.refresh_tokens (token, user_id, session_id) VALUES ($1, $2, $3)', [refreshToken, user.id, sessionId])
  const signedIn = await updateUser(db, user.id, { last_sign_in_at: new Date() })
  await db.query(`UPDATE auth.identities SET last_sign_in_at = now() WHERE user_id = $1`, [user.id])
  return sessionJson(db, signedIn, sessionId, refreshToken, method, Math.floor(Date.now() / 1000), context)
}

interface RefreshRow {
  id: string
  token: string
  revoked: boolean
  updated_at: Date
  session_id: string
  user_id: string
  session_created_at: Date
  jwt_secret_hash: string | null
}

const notFound = () => new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')

/**
 * The refresh_token grant with rotation and reuse detection, as GoTrue does it: the presented token
 * is revoked and a child issued. A revoked token presented again within the reuse interval (two tabs
 * refreshing at once) gets the session's newest token; later, it is taken as stolen and the whole
 * session ends. A session started under a JWT secret that has since rotated ends too. Refusals that
 * end a session are returned, not thrown, so the transaction that ends it still commits.
 */
export async function refreshSession(
  db: pg.PoolClient,
  presented: string,
  context: SessionContext & { rotation: boolean; reuseIntervalSeconds: number },
): Promise<SessionJson | AuthError> {
  const { rows } = await db.query<RefreshRow>(
    `SELECT r.id, r.token, r.revoked, r.updated_at, r.session_id, r.user_id, s.created_at AS session_created_at, s.jwt_secret_hash
       FROM auth.refresh_tokens r JOIN auth.sessions s ON s.id = r.session_id
      WHERE r.token = $1 FOR UPDATE OF r, s`,
    [presented],
  )
  const row = rows[0]
  if (!row) throw notFound()
  if (row.jwt_secret_hash !== secretFingerprint(context.jwtSecret)) {
    await db.query('DELETE FROM auth.sessions WHERE id = $1', [row.session_id])
    return notFound()
  }
  const user = await findUserById(db, row.user_id)
  if (!user) throw notFound()
  if (user.banned_until && user.banned_until > new Date()) throw new AuthError(400, 'user_banned', 'User is banned')
  let next = newRefreshToken()
  if (row.revoked) {
    const active = await db.query<{ token: string }>(
      'SELECT token FROM auth.refresh_tokens WHERE session_id = $1 AND revoked = false ORDER BY id DESC LIMIT 1',
      [row.session_id],
    )
    const withinReuse = Date.now() - row.updated_at.getTime() <= context.reuseIntervalSeconds * 1000
    if (!context.rotation || !withinReuse || !active.rows[0]) {
      await db.query('DELETE FROM auth.sessions WHERE id = $1', [row.session_id])
      return new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used')
    }
    next = active.rows[0].token
  } else if (context.rotation) {
    await db.query('UPDATE auth.refresh_tokens SET revoked = true, updated_at = now() WHERE id = $1', [row.id])
    await db.query('INSERT INTO auth.refresh_tokens (token, user_id, session_id, parent) VALUES ($1, $2, $3, $4)', [next, user.id, row.session_id, row.token])
  } else {
    next = row.token
  }
  await db.query('UPDATE auth.sessions SET refreshed_at = now(), updated_at = now() WHERE id = $1', [row.session_id])
  return sessionJson(db, user, row.session_id, next, 'token_refresh', Math.floor(row.session_created_at.getTime() / 1000), context)
}

/** Records how the session was authenticated (GoTrue's mfa_amr_claims); the same method again only moves its time. */
export async function addAmrClaim(db: pg.PoolClient, sessionId: string, method: string): Promise<void> {
  await db.query(
    `INSERT INTO auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method) VALUES ($1, $2, now(), now(), $3)
     ON CONFLICT ON CONSTRAINT mfa_amr_claims_session_id_authentication_method_pkey DO UPDATE SET updated_at = now()`,
    [randomUUID(), sessionId, method],
  )
}

/** The methods that prove a second factor: a session holding one is aal2 (GoTrue's IsAAL2Claim). */
const SECOND_FACTOR_METHODS = new Set(['totp', 'mfa/phone', 'mfa/webauthn'])

/**
 * A second factor was verified in the session: it becomes aal2 (its factor recorded), gets a new refresh token (the
 * one issued at aal1 is revoked, so only the verifying client continues at aal2), and the user's other sessions still
 * at aal1 end, as GoTrue does.
 */
export async function upgradeSession(db: pg.PoolClient, user: UserRow, sessionId: string, method: string, factorId: string, context: SessionContext): Promise<SessionJson> {
  await addAmrClaim(db, sessionId, method)
  await db.query(`UPDATE auth.sessions SET aal = 'aal2', factor_id = $2, updated_at = now() WHERE id = $1`, [sessionId, factorId])
  const current = await db.query<{ token: string }>(
    'SELECT token FROM auth.refresh_tokens WHERE session_id = $1 AND revoked = false ORDER BY id DESC LIMIT 1',
    [sessionId],
  )
  // Revoked as if long ago: an aal1 token presented again is outside any reuse interval, so it can never be traded for
  // this session's aal2 token (GoTrue moves its counter by two for the same reason).
  await db.query(`UPDATE auth.refresh_tokens SET revoked = true, updated_at = to_timestamp(0) WHERE session_id = $1 AND revoked = false`, [sessionId])
  const refreshToken = newRefreshToken()
  await db.query('INSERT INTO auth.refresh_tokens (token, user_id, session_id, parent) VALUES ($1, $2, $3, $4)', [
    refreshToken,
    user.id,
    sessionId,
    current.rows[0]?.token ?? null,
  ])
  await db.query(`DELETE FROM auth.sessions WHERE user_id = $1 AND aal < 'aal2'`, [user.id])
  const { rows } = await db.query<{ created_at: Date }>('SELECT created_at FROM auth.sessions WHERE id = $1', [sessionId])
  return sessionJson(db, user, sessionId, refreshToken, method, Math.floor((rows[0]?.created_at ?? new Date()).getTime() / 1000), context)
}

/**
 * A factor is gone (unenrolled, deleted by an admin): the sessions it raised to aal2 lose its method and go back to
 * aal1 (GoTrue's DowngradeSessionsToAAL1); their next access token says so.
 */
export async function downgradeSessions(db: pg.PoolClient, userId: string, factorId: string, method: string): Promise<void> {
  await db.query(
    `DELETE FROM auth.mfa_amr_claims WHERE authentication_method = $3
       AND session_id IN (SELECT id FROM auth.sessions WHERE user_id = $1 AND factor_id = $2)`,
    [userId, factorId, method],
  )
  await db.query(`UPDATE auth.sessions SET aal = 'aal1', factor_id = NULL WHERE user_id = $1 AND factor_id = $2`, [userId, factorId])
}

/**
 * The session's aal and amr as GoTrue computes them from its claims: most recent first, aal2 when one is a second
 * factor. A session started before claims were recorded reads as the method it was started or refreshed with.
 */
async function assurance(db: pg.PoolClient, sessionId: string, method: string, startedAt: number): Promise<{ aal: 'aal1' | 'aal2'; amr: AmrEntry[] }> {
  const { rows } = await db.query<{ authentication_method: string; updated_at: Date }>(
    'SELECT authentication_method, updated_at FROM auth.mfa_amr_claims WHERE session_id = $1 ORDER BY updated_at DESC, created_at DESC',
    [sessionId],
  )
  if (!rows.length) return { aal: 'aal1', amr: [{ method, timestamp: startedAt }] }
  const amr = rows.map((row) => ({ method: row.authentication_method, timestamp: Math.floor(row.updated_at.getTime() / 1000) }))
  return { aal: amr.some((entry) => SECOND_FACTOR_METHODS.has(entry.method)) ? 'aal2' : 'aal1', amr }
}

/** logout: `local` ends this session, `others` every other one of the user, `global` all of them. */
export async function endSessions(db: pg.PoolClient, userId: string, sessionId: string, scope: string): Promise<void> {
  if (scope === 'local') await db.query('DELETE FROM auth.sessions WHERE id = $1', [sessionId])
  else if (scope === 'others') await db.query('DELETE FROM auth.sessions WHERE user_id = $1 AND id <> $2', [userId, sessionId])
  else await db.query('DELETE FROM auth.sessions WHERE user_id = $1', [userId])
}

async function sessionJson(
  db: pg.PoolClient,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
  method: string,
  startedAt: number,
  context: SessionContext,
): Promise<SessionJson> {
  const { aal, amr } = await assurance(db, sessionId, method, startedAt)
  const { token, expiresAt } = await signAccessToken(
    context.keys,
    context.issuer,
    {
      sub: user.id,
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data,
      user_metadata: user.raw_user_meta_data,
      session_id: sessionId,
      aal,
      amr,
      is_anonymous: user.is_anonymous,
    },
    context.lifetimeSeconds,
  )
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: context.lifetimeSeconds,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: await userJson(db, user),
  }
}

/** The client address as Postgres's inet takes it; null when it is not one. */
export function validIp(ip: string | null): string | null {
  if (!ip) return null
  return /^[0-9a-f.:]+$/i.test(ip) ? ip.replace(/^::ffff:/, '') : null
}
