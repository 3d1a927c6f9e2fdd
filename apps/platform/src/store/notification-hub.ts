import pg from 'pg'
import type { Logger } from 'pino'

const RECONNECT_MS = 1_000
const CONNECT_TIMEOUT_MS = 10_000
/** A channel name as LISTEN takes it unquoted: lower case, letters, digits and underscores. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/

/** What a cache kept fresh by notifications hears. */
export interface ChannelSubscriber {
  /** A notification on its channel, with its payload ('' when none). */
  notified(payload: string): void
  /**
   * The hub listens (at start, and again after a reconnect): notifications sent while it did not were lost, so what
   * the subscriber kept may be stale. Until the next `lost()`, what it keeps stays fresh.
   */
  listening(): void
  /** The connection dropped: nothing it keeps can be trusted until `listening()`. */
  lost(): void
}

/**
 * The platform database's LISTEN/NOTIFY, on one connection for every channel, with one reconnect loop. Caches that
 * stay in memory until the database says a row changed (the gateway's project directory, the SQL routes' access
 * cache) subscribe here; while the connection is down they are told so, and serve nothing from memory.
 */
export class NotificationHub {
  private readonly subscribers = new Map<string, Set<ChannelSubscriber>>()
  private client: pg.Client | null = null
  private connected = false
  private stopped = false
  private reconnect: NodeJS.Timeout | null = null

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {}

  /** Whether notifications are being heard right now. */
  get isListening(): boolean {
    return this.connected
  }

  /** Hears `channel` from now on (LISTEN at once if connected); the returned function stops. */
  subscribe(channel: string, subscriber: ChannelSubscriber): () => void {
    if (!CHANNEL.test(channel)) throw new Error(`Not a channel name: ${channel}`)
    let set = this.subscribers.get(channel)
    if (!set) {
      set = new Set()
      this.subscribers.set(channel, set)
      const client = this.client
      if (client && this.connected) void client.query(`LISTEN ${channel}`).catch(() => {})
    }
    set.add(subscriber)
    if (this.connected) subscriber.listening()
    else subscriber.lost()
    return () => set.delete(subscriber)
  }

  /** Connects and listens; on failure it keeps trying every second (and throws, for the caller to log once). */
  async start(): Promise<void> {
    if (this.stopped) return
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'stratum-notifications', connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
    const lost = () => {
      if (this.client !== client) return
      this.client = null
      const was = this.connected
      this.connected = false
      if (was) this.log.warn('platform database notifications lost: caches are off until they are back')
      this.each((subscriber) => subscriber.lost())
      this.scheduleReconnect()
    }
    client.on('error', lost)
    client.on('end', lost)
    client.on('notification', (message) => {
      for (const subscriber of this.subscribers.get(message.channel) ?? []) subscriber.notified(message.payload ?? '')
    })
    this.client = client
    try {
      await client.connect()
      for (const channel of this.subscribers.keys()) await client.query(`LISTEN ${channel}`)
    } catch (error) {
      lost()
      await client.end().catch(() => {})
      throw error
    }
    if (this.client !== client) return
    this.connected = true
    this.each((subscriber) => subscriber.listening())
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.reconnect) clearTimeout(this.reconnect)
    this.reconnect = null
    const client = this.client
    this.client = null
    this.connected = false
    this.each((subscriber) => subscriber.lost())
    await client?.end().catch(() => {})
  }

  private each(fn: (subscriber: ChannelSubscriber) => void): void {
    for (const set of this.subscribers.values()) for (const subscriber of set) fn(subscriber)
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnect) return
    this.reconnect = setTimeout(() => {
      this.reconnect = null
      this.start().catch((error: Error) => this.log.debug({ err: error }, 'platform database notifications: not back yet'))
    }, RECONNECT_MS)
    this.reconnect.unref()
  }
}
