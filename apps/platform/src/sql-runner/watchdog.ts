/** How often running statements are checked against their deadline: the watchdog is a safety net, not a clock. */
const SWEEP_MS = 500

/**
 * Statements that ran past their deadline, cancelled from outside the session (runner.ts: a session that turned its
 * own statement timeout off). One sweep for every running statement, made only while any runs: a timer made and
 * cleared per statement cost each query a priority-queue insert and removal and two native calls (issue 32).
 */
export class StatementWatchdog {
  private readonly watched = new Map<object, { deadline: number; cancel: () => void }>()
  private sweeper: NodeJS.Timeout | undefined

  constructor(private readonly sweepMs = SWEEP_MS) {}

  /** `cancel` is called once `afterMs` have passed, unless `stop` was called for `key` first. */
  watch(key: object, afterMs: number, cancel: () => void): void {
    this.watched.set(key, { deadline: performance.now() + afterMs, cancel })
    if (this.sweeper) return
    this.sweeper = setInterval(() => this.sweep(), this.sweepMs)
    // Nothing waits on it: a process with no other work left may end.
    this.sweeper.unref()
  }

  stop(key: object): void {
    this.watched.delete(key)
  }

  private sweep(): void {
    const now = performance.now()
    for (const [key, { deadline, cancel }] of this.watched) {
      if (deadline > now) continue
      this.watched.delete(key)
      cancel()
    }
    if (this.watched.size === 0) {
      clearInterval(this.sweeper)
      this.sweeper = undefined
    }
  }
}
