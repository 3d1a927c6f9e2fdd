/**
 * Fixed-window counters in memory, per key (e.g. `otp:<ref>:ip:<address>`): enough for one platform
 * process, which is what serves a project's auth. Expired windows are pruned as new ones open.
 */
export class RateLimiter {
  private windows = new Map<string, { resetAt: number; count: number }>()
  private lastPrune = 0

  /** Counts one attempt; false when the key already used its `limit` in the current window. */
  take(key: string, limit: number, windowMs: number, now = Date.now()): boolean {
    this.prune(now)
    const window = this.windows.get(key)
    if (!window || window.resetAt <= now) {
      this.windows.set(key, { resetAt: now + windowMs, count: 1 })
      return true
    }
    if (window.count >= limit) return false
    window.count++
    return true
  }

  private prune(now: number): void {
    if (now - this.lastPrune < 60_000) return
    this.lastPrune = now
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key)
  }
}

export const FIVE_MINUTES = 5 * 60_000
