import { createHash, randomUUID } from 'node:crypto'
import type pg from 'pg'
import { z } from 'zod'
import { AuthError, validationFailed } from './errors.js'
import type { AuthRequest } from './request.js'

/** How long an auth code may wait to be exchanged once its link was opened (GoTrue: 5 minutes). */
const AUTH_CODE_LIFETIME_MS = 5 * 60_000

const Challenge = z.object({
  code_challenge: z.string().min(43).max(128).regex(/^[A-Za-z0-9._~-]+$/),
  code_challenge_method: z.enum(['s256', 'S256', 'plain']),
})

/**
 * PKCE (supabase-js with `flowType: 'pkce'`, the default of its server-side helpers): a link sent with
 * a code challenge keeps it here; opening the link gives the app `?code=` instead of tokens, and only
 * the holder of the code verifier exchanges it for a session (POST /token?grant_type=pkce).
 */
export async function rememberChallenge(db: pg.PoolClient, request: AuthRequest, userId: string, method: string): Promise<void> {
  if (request.body.code_challenge == null) return
  const parsed = Challenge.safeParse(request.body)
  if (!parsed.success) throw validationFailed('code_challenge: a PKCE code challenge (43 to 128 URL-safe characters) with code_challenge_method s256 or plain')
  await db.query('DELETE FROM auth.flow_state WHERE user_id = $1 AND authentication_method = $2', [userId, method])
  await db.query(
    `INSERT INTO auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type, authentication_method)
     VALUES ($1, $2, $3, $4, $5, 'email', $6)`,
    [randomUUID(), userId, randomUUID(), parsed.data.code_challenge_method.toLowerCase(), parsed.data.code_challenge, method],
  )
}

/** When the verified link was sent for PKCE: its auth code, now issued; null for the implicit flow. */
export async function issueAuthCode(db: pg.PoolClient, userId: string, method: string): Promise<string | null> {
  const { rows } = await db.query<{ auth_code: string }>(
    `UPDATE auth.flow_state SET auth_code_issued_at = now(), updated_at = now()
      WHERE user_id = $1 AND authentication_method = $2 AND auth_code_issued_at IS NULL RETURNING auth_code`,
    [userId, method],
  )
  return rows[0]?.auth_code ?? null
}

/** The user and sign-in method of an auth code whose verifier matches; the code is used up. */
export async function redeemAuthCode(db: pg.PoolClient, authCode: string, verifier: string): Promise<{ userId: string; method: string }> {
  const { rows } = await db.query<{ id: string; user_id: string; code_challenge_method: string; code_challenge: string; authentication_method: string; auth_code_issued_at: Date | null }>(
    'SELECT * FROM auth.flow_state WHERE auth_code = $1 FOR UPDATE',
    [authCode],
  )
  const flow = rows[0]
  if (!flow || !flow.auth_code_issued_at || !flow.user_id) throw new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found')
  await db.query('DELETE FROM auth.flow_state WHERE id = $1', [flow.id])
  if (flow.auth_code_issued_at.getTime() + AUTH_CODE_LIFETIME_MS < Date.now()) {
    throw new AuthError(403, 'flow_state_expired', 'invalid flow state, flow state has expired')
  }
  const computed = flow.code_challenge_method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url')
  if (computed !== flow.code_challenge) throw new AuthError(403, 'bad_code_verifier', 'code challenge does not match previously saved code verifier')
  return { userId: flow.user_id, method: flow.authentication_method }
}
