import type { Queryable } from '../../store/db.js'
import type { AuthDatabases } from './database.js'

/** How often a process clears a project's windows that ended long ago (one DELETE, off the request's answer). */
const PRUNE_EVERY_MS = 10 * 60_000

/**
 * Fixed-window counters per key (e.g. `otp:<ref>:ip:<address>`), kept in the project's own
 * auth.stratum_rate_limits so that a restart of the platform forgets none of them: one upsert per attempt,
 * on the auth pool. A key found over its limit is also remembered here until its window ends, so a flood of
 * refused attempts costs no database round trip.
 */
export class RateLimiter {
  /** Keys found over their limit: until when, and under which limit (a project that raises it is asked again). */
  private refused = new Map<string, { until: number; limit: number }>()
  private lastPrune = new Map<string, number>()

  constructor(private readonly databases: Pick<AuthDatabases, 'query'>) {}

  /**
   * Counts one attempt; false when the key already used its `limit` in the current window. `db` is the
   * request's transaction when the count must land with what it guards (a refusal there is returned, not thrown,
   * so it commits); otherwise the count is its own statement and holds whatever the request does next.
   */
  async take(ref: string, key: string, limit: number, windowMs: number, db?: Queryable): Promise<boolean> {
    const now = Date.now()
    const refused = this.refused.get(`${ref}\u0000${key}`)
    if (refused) {
      if (refused.until > now && limit <= refused.limit) return false
      this.refused.delete(`${ref}\u0000${key}`)
    }
    const statement = `INSERT INTO auth.stratum_rate_limits AS r (key, window_ends_at, hits) VALUES ($1, now() + make_interval(secs => $2), 1)
      ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN r.window_ends_at <= now() THEN 1 ELSE least(r.hits + 1, $3 + 1) END,
        window_ends_at = CASE WHEN r.window_ends_at <= now() THEN excluded.window_ends_at ELSE r.window_ends_at END
      RETURNING hits, window_ends_at`
    const values = [key.slice(0, 512), windowMs / 1000, limit]
    const { rows } = db
      ? await db.query<{ hits: number; window_ends_at: Date }>(statement, values)
      : await this.databases.query<{ hits: number; window_ends_at: Date }>(ref, statement, values)
    const row = rows[0]!
    this.prune(ref, now)
    if (row.hits <= limit) return true
    if (this.refused.size > 10_000) this.refused.clear()
    this.refused.set(`${ref}\u0000${key}`, { until: row.window_ends_at.getTime(), limit })
    return false
  }

  private prune(ref: string, now: number): void {
    if (now - (this.lastPrune.get(ref) ?? 0) < PRUNE_EVERY_MS) return
    this.lastPrune.set(ref, now)
    for (const [key, { until }] of this.refused) if (until <= now) this.refused.delete(key)
    // Off the answer's path; a failure (the project stopping) only leaves old rows for the next prune.
    this.databases.query(ref, `DELETE FROM auth.stratum_rate_limits WHERE window_ends_at < now() - interval '1 hour'`).catch(() => {})
  }
}

export const FIVE_MINUTES = 5 * 60_000
export const HOUR = 60 * 60_000
