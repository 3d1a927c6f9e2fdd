import type { Db } from '../store/db.js'
import { hashToken, newSessionToken } from './secrets.js'
import type { UserRow } from './users.js'

export const SESSION_COOKIE = 'stratum_session'
export const SESSION_DAYS = 14
/** How long a resolved credential is trusted without asking the database again. */
const CACHE_MS = 5_000

export interface Identity {
  user: UserRow
  via: 'session' | 'access_token'
  credentialHash: string
}

/**
 * Resolves session cookies and access tokens to users. Lookups are cached for a few seconds
 * because every request pays for them (the status endpoint is polled every few seconds by every
 * open dashboard); logout, revocation and password changes drop the cache entry at once.
 */
export class IdentityResolver {
  private cache = new Map<string, { identity: Identity | null; until: number }>()
  private tokenUseWrites = new Map<string, number>()

  constructor(private readonly db: Db) {}

  async fromSession(token: string): Promise<Identity | null> {
    return this.cached(hashToken(token), async (hash) => {
      const { rows } = await this.db.query<UserRow>(
        `SELECT u.* FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.token_hash = $1 AND s.expires_at > now()`,
        [hash],
      )
      return rows[0] ? { user: rows[0], via: 'session', credentialHash: hash } : null
    })
  }

  async fromAccessToken(token: string): Promise<Identity | null> {
    const identity = await this.cached(hashToken(token), async (hash) => {
      const { rows } = await this.db.query<UserRow>(
        `SELECT u.* FROM access_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1`,
        [hash],
      )
      return rows[0] ? { user: rows[0], via: 'access_token', credentialHash: hash } : null
    })
    if (identity) this.recordTokenUse(identity.credentialHash)
    return identity
  }

  async createSession(userId: string): Promise<string> {
    const token = newSessionToken()
    await this.db.query(
      `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(days => $3))`,
      [hashToken(token), userId, SESSION_DAYS],
    )
    return token
  }

  async endSession(token: string): Promise<void> {
    const hash = hashToken(token)
    await this.db.query('DELETE FROM sessions WHERE token_hash = $1', [hash])
    this.cache.delete(hash)
  }

  /** Forget everything cached: after a revocation or a password change. */
  forgetAll(): void {
    this.cache.clear()
  }

  private async cached(hash: string, load: (hash: string) => Promise<Identity | null>): Promise<Identity | null> {
    const hit = this.cache.get(hash)
    if (hit && hit.until > Date.now()) return hit.identity
    const identity = await load(hash)
    if (this.cache.size > 10_000) this.cache.clear()
    this.cache.set(hash, { identity, until: Date.now() + CACHE_MS })
    return identity
  }

  /** last_used_at is written at most once a minute per token: a hot loop must not write per request. */
  private recordTokenUse(hash: string): void {
    const last = this.tokenUseWrites.get(hash) ?? 0
    if (Date.now() - last < 60_000) return
    this.tokenUseWrites.set(hash, Date.now())
    this.db.query('UPDATE access_tokens SET last_used_at = now() WHERE token_hash = $1', [hash]).catch(() => {})
  }
}
