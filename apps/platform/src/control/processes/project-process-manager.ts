import type { Logger } from 'pino'

/** What the manager runs for a key: a child process (PostgREST, a function's Deno) or an in-process engine with pools. */
export interface Managed {
  /** Stops it and frees what it holds; a second call does nothing (a discarded value may be stopped twice). */
  stop(): Promise<void>
}

export interface ProjectProcessManagerOptions<T extends Managed> {
  /** For the log: 'PostgREST', 'edge function', 'GraphQL engine'. */
  what: string
  /** A value unused for this long is stopped (never while `busy` says it serves a request). */
  idleMs: number
  log: Logger
  /** True while the value serves a request: it is not stopped for idleness. */
  busy?: (value: T) => boolean
  /** When the value last finished serving, if it knows (a request's end): idle time counts from the later of that and the last acquire. */
  lastUsedOf?: (value: T) => number
  /** False once the value cannot serve any more (its process exited): the next acquire replaces it. */
  alive?: (value: T) => boolean
  /**
   * Called after a backoff when a value died on its own (`died`): starts it again if it should still run. Without
   * it, a dead value is started again by the next acquire.
   */
  restart?: (key: string) => Promise<void>
}

/** A value that dies is started again after this, doubling up to the maximum while it keeps dying. */
const RESTART_BACKOFF_MS = 500
const MAX_RESTART_BACKOFF_MS = 30_000
/** Up this long, a value counts as healthy again: the backoff starts over. */
const HEALTHY_AFTER_MS = 60_000

interface Entry<T> {
  fingerprint: string
  /** Resolves once the value serves; rejects when it could not start (the entry is gone by then). */
  ready: Promise<T>
  /** The value, once ready. */
  value: T | null
  startedAt: number
  lastUsed: number
}

/**
 * The one way the platform runs something per project (or per project and function) on demand: started by the first
 * request that needs it, shared by the requests that arrive while it starts, replaced when its launch settings change
 * (a different fingerprint: a rotated JWT secret, new data API settings, a new function version) or when it died,
 * stopped after an idle time, on demand (pause, delete) and with the platform. Starts, stops and replacements of one
 * key happen one at a time, so a key never has two values (two PostgRESTs on one socket).
 *
 * The processes themselves are spawned through control/child-processes.ts (death with the platform, pid files reaped
 * at the next boot) and wrapped by socket-process.ts.
 */
export class ProjectProcessManager<T extends Managed> {
  private readonly entries = new Map<string, Entry<T>>()
  private readonly transitions = new Map<string, Promise<void>>()
  private readonly restartTimers = new Map<string, NodeJS.Timeout>()
  private readonly backoff = new Map<string, number>()
  private readonly idleTimer: NodeJS.Timeout
  private stopping = false

  constructor(private readonly options: ProjectProcessManagerOptions<T>) {
    this.idleTimer = setInterval(() => void this.stopIdle(), Math.max(250, Math.min(options.idleMs / 4, 60_000)))
    this.idleTimer.unref()
  }

  /**
   * The key's value for these launch settings, started (and waited for) when none serves: `start` makes a value that
   * serves, or throws having cleaned up after itself.
   */
  acquire(key: string, fingerprint: string, start: () => Promise<T>): Promise<T> {
    if (this.stopping) return Promise.reject(new Error('The platform is stopping'))
    const current = this.usable(key, fingerprint)
    if (current) return current
    return this.exclusive(key, async () => {
      const ready = this.usable(key, fingerprint)
      if (ready) return ready
      if (this.entries.has(key)) await this.stopNow(key)
      if (this.stopping) throw new Error('The platform is stopping')
      return this.start(key, fingerprint, start)
    })
  }

  /** The running value of the key, if any (not one still starting): for tests, benchmarks and fan-out. */
  peek(key: string): T | null {
    return this.entries.get(key)?.value ?? null
  }

  /** Every running value, with its key. */
  running(): Array<[string, T]> {
    return [...this.entries].flatMap(([key, entry]) => (entry.value ? [[key, entry.value] as [string, T]] : []))
  }

  /** The fingerprint the key's value runs (or starts) with. */
  fingerprintOf(key: string): string | null {
    return this.entries.get(key)?.fingerprint ?? null
  }

  /** Stops the key's value, after any start or replacement in progress. */
  stop(key: string): Promise<void> {
    return this.exclusive(key, () => this.stopNow(key))
  }

  /** Stops every value whose key matches (a project's functions: `key.startsWith(ref + '/')`). */
  async stopWhere(matches: (key: string) => boolean): Promise<void> {
    const keys = new Set([...this.entries.keys(), ...this.transitions.keys()].filter(matches))
    await Promise.all([...keys].map((key) => this.stop(key)))
  }

  /** Stops `value` if it is still the key's (a crashed, hung or outdated one); a newer value is left alone. */
  async discard(key: string, value: T): Promise<void> {
    const stopped = await this.exclusive(key, async () => {
      if (this.entries.get(key)?.value !== value) return false
      await this.stopNow(key)
      return true
    })
    if (!stopped) await value.stop()
  }

  /**
   * The value exited on its own: forgotten at once, and, with a `restart` option, started again after a backoff that
   * grows while it keeps dying.
   */
  died(key: string, value: T, detail: Record<string, unknown> = {}): void {
    const entry = this.entries.get(key)
    if (entry?.value !== value) return
    this.entries.delete(key)
    void value.stop().catch(() => {})
    if (this.stopping || !this.options.restart) {
      this.options.log.warn({ key, ...detail }, `${this.options.what} exited`)
      return
    }
    const healthy = Date.now() - entry.startedAt > HEALTHY_AFTER_MS
    const delay = healthy ? RESTART_BACKOFF_MS : Math.min((this.backoff.get(key) ?? RESTART_BACKOFF_MS / 2) * 2, MAX_RESTART_BACKOFF_MS)
    this.backoff.set(key, delay)
    this.options.log.warn({ key, ...detail, restartInMs: delay }, `${this.options.what} exited; starting it again`)
    const restart = this.options.restart
    const timer = setTimeout(() => {
      this.restartTimers.delete(key)
      if (!this.stopping && !this.entries.has(key)) void restart(key).catch(() => {})
    }, delay)
    timer.unref()
    this.restartTimers.set(key, timer)
  }

  /** With the platform: nothing starts any more, and everything running stops. */
  async stopAll(): Promise<void> {
    this.stopping = true
    clearInterval(this.idleTimer)
    for (const timer of this.restartTimers.values()) clearTimeout(timer)
    this.restartTimers.clear()
    await this.stopWhere(() => true)
  }

  private usable(key: string, fingerprint: string): Promise<T> | null {
    const entry = this.entries.get(key)
    if (!entry || entry.fingerprint !== fingerprint) return null
    if (entry.value && this.options.alive && !this.options.alive(entry.value)) return null
    entry.lastUsed = Date.now()
    return entry.ready
  }

  private start(key: string, fingerprint: string, start: () => Promise<T>): Promise<T> {
    const entry: Entry<T> = { fingerprint, ready: Promise.resolve(null as unknown as T), value: null, startedAt: Date.now(), lastUsed: Date.now() }
    entry.ready = start().then(
      (value) => {
        entry.value = value
        // Idle time counts from here: a start slower than idleMs (a first start on a loaded machine) must not be
        // stopped by the next sweep while the request that started it is still being sent on.
        entry.lastUsed = Date.now()
        return value
      },
      (error: Error) => {
        if (this.entries.get(key) === entry) this.entries.delete(key)
        this.options.log.warn({ key, err: error }, `${this.options.what} could not start`)
        throw error
      },
    )
    this.entries.set(key, entry)
    return entry.ready
  }

  private async stopNow(key: string): Promise<void> {
    const timer = this.restartTimers.get(key)
    if (timer) clearTimeout(timer)
    this.restartTimers.delete(key)
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    const value = await entry.ready.catch(() => null)
    await value?.stop()
  }

  /** Runs fn after any start, stop or replacement of the key in progress. */
  private exclusive<R>(key: string, fn: () => Promise<R>): Promise<R> {
    const previous = this.transitions.get(key) ?? Promise.resolve()
    const next = previous.then(fn, fn)
    const settled = next.then(
      () => undefined,
      () => undefined,
    )
    this.transitions.set(key, settled)
    void settled.then(() => {
      if (this.transitions.get(key) === settled) this.transitions.delete(key)
    })
    return next
  }

  private async stopIdle(): Promise<void> {
    const now = Date.now()
    const idle = (entry: Entry<T>, at: number) =>
      entry.value !== null && !this.options.busy?.(entry.value) && at - Math.max(entry.lastUsed, this.options.lastUsedOf?.(entry.value) ?? 0) >= this.options.idleMs
    for (const [key, entry] of [...this.entries]) {
      if (!idle(entry, now)) continue
      this.options.log.info({ key }, `${this.options.what} idle: stopping it`)
      // Unless a request made it busy or replaced it meanwhile.
      const stillIdle = () => this.entries.get(key) === entry && idle(entry, Date.now())
      await this.exclusive(key, async () => {
        if (stillIdle()) await this.stopNow(key)
      }).catch((error: Error) => this.options.log.warn({ key, err: error }, `${this.options.what} did not stop cleanly`))
    }
  }
}
