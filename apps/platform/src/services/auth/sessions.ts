import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { AuthError } from './errors.js'
import { newRefreshToken, secretFingerprint, signAccessToken } from './tokens.js'
import { findUserById, updateUser, userJson, type UserRow } from './users.js'

/** What a session request needs to know of the project and the caller. */
export interface SessionContext {
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
  const { token, expiresAt } = await signAccessToken(
    context.jwtSecret,
    context.issuer,
    {
      sub: user.id,
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data,
      user_metadata: user.raw_user_meta_data,
      session_id: sessionId,
      method,
      startedAt,
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
function validIp(ip: string | null): string | null {
  if (!ip) return null
  return /^[0-9a-f.:]+$/i.test(ip) ? ip.replace(/^::ffff:/, '') : null
}
