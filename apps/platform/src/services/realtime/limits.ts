import type { RealtimeConfigResponse } from '@stratum/contracts'

/**
 * Per-project limits, with Supabase Realtime's defaults and texts (docs/research/realtime-protocol.md §9.10). The
 * settings in force (config.ts) give them; the installation's defaults can be moved by environment (config.ts of
 * the platform), a project's own settings by the Management API.
 */
export interface RealtimeLimits {
  maxConcurrentUsers: number
  maxJoinsPerSecond: number
  maxChannelsPerClient: number
  maxEventsPerSecond: number
  maxBytesPerSecond: number
  maxPresenceEventsPerSecond: number
  maxPayloadBytes: number
}

/** Supabase's tenant defaults; connection_pool is our authorization pool's size (small: many projects share a machine). */
export const DEFAULT_REALTIME_CONFIG: RealtimeConfigResponse = {
  private_only: false,
  suspend: false,
  connection_pool: 3,
  max_concurrent_users: 200,
  max_events_per_second: 100,
  max_bytes_per_second: 100_000,
  max_channels_per_client: 100,
  max_joins_per_second: 100,
  max_presence_events_per_second: 1000,
  max_payload_size_in_kb: 3000,
}

export function limitsOf(config: RealtimeConfigResponse): RealtimeLimits {
  return {
    maxConcurrentUsers: config.max_concurrent_users,
    maxJoinsPerSecond: config.max_joins_per_second,
    maxChannelsPerClient: config.max_channels_per_client,
    maxEventsPerSecond: config.max_events_per_second,
    maxBytesPerSecond: config.max_bytes_per_second,
    maxPresenceEventsPerSecond: config.max_presence_events_per_second,
    // Plus the 500 bytes Supabase allows for the envelope.
    maxPayloadBytes: config.max_payload_size_in_kb * 1024 + 500,
  }
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
  bytes: 'Too many bytes per second',
  privateOnly: 'This project only allows private channels',
  suspended: 'RealtimeDisabledForTenant: Realtime has been disabled for this project',
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
    this.roll(now)
    if (this.count + n > this.limit()) return false
    this.count += n
    return true
  }

  /**
   * Counts n bytes now; false when the second's budget was already spent. A message is refused only once the
   * budget is gone, so one message larger than the budget (the payload limit is far above the bytes limit) passes.
   */
  takeBytes(n: number, now = Date.now()): boolean {
    this.roll(now)
    if (this.count >= this.limit()) return false
    this.count += n
    return true
  }

  private roll(now: number): void {
    const second = Math.floor(now / 1000)
    if (second !== this.second) {
      this.second = second
      this.count = 0
    }
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
