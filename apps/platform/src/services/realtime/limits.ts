/**
 * Per-project limits, with Supabase Realtime's defaults and texts (docs/research/realtime-protocol.md §9.10).
 */
export interface RealtimeLimits {
  maxConcurrentUsers: number
  maxJoinsPerSecond: number
  maxChannelsPerClient: number
  maxEventsPerSecond: number
  maxPresenceEventsPerSecond: number
  maxPayloadBytes: number
}

export const DEFAULT_LIMITS: RealtimeLimits = {
  maxConcurrentUsers: 200,
  maxJoinsPerSecond: 100,
  maxChannelsPerClient: 100,
  maxEventsPerSecond: 100,
  maxPresenceEventsPerSecond: 1000,
  // max_payload_size_in_kb 3000, plus the 500 bytes Supabase allows for the envelope.
  maxPayloadBytes: 3000 * 1024 + 500,
}

/** A client's presence calls per channel: 5 per 30 s. */
export const CLIENT_PRESENCE_MAX_CALLS = 5
export const CLIENT_PRESENCE_WINDOW_MS = 30_000

/** Phoenix closes a socket that sent nothing for 60 s; the client's heartbeat (25 s) keeps it open. */
export const IDLE_TIMEOUT_MS = 60_000

export const LIMIT_TEXTS = {
  connections: 'Too many connected users',
  joins: 'Too many joins per second',
  channels: 'Too many channels',
  events: 'Too many messages per second',
  presenceEvents: 'Too many presence messages per second',
  clientPresence: 'Client presence rate limit exceeded',
  payload: 'payload_size_exceeded',
  trackSize: 'Track message size exceeded',
} as const

/** Events counted per whole second: the window Supabase's limits are stated in. */
export class PerSecond {
  private second = 0
  private count = 0

  constructor(private readonly limit: () => number) {}

  /** Counts n events now; false when that passes the limit (the events are then refused). */
  take(n = 1, now = Date.now()): boolean {
    const second = Math.floor(now / 1000)
    if (second !== this.second) {
      this.second = second
      this.count = 0
    }
    if (this.count + n > this.limit()) return false
    this.count += n
    return true
  }
}

/** Calls within a sliding window (the client presence limit). */
export class WithinWindow {
  private calls: number[] = []

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  take(now = Date.now()): boolean {
    this.calls = this.calls.filter((time) => now - time < this.windowMs)
    if (this.calls.length >= this.max) return false
    this.calls.push(now)
    return true
  }
}
