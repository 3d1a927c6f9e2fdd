import type { OrgRole } from '@stratum/contracts'
import pg from 'pg'
import type { ProjectRow } from '../control/project-store.js'

export const ACCESS_CHANGED_CHANNEL = 'stratum_access_changed'

type Entry = { project: ProjectRow; role: OrgRole } | null
/** A safety net: entries are dropped on every change anyway (migration 007). */
const ENTRY_TTL_MS = 30_000
const MAX_ENTRIES = 10_000
const RECONNECT_MS = 1_000

/**
 * A user's access to a project (the project row and their role), cached for the SQL routes,
 * which run it on every query: one platform database round trip less per run.
 *
 * The platform database notifies on any write to projects, members or organizations (triggers of
 * migration 007); a notification empties the cache. Entries are served only while the listening
 * connection is up: without it there is no way to know of changes, so every lookup goes to the
 * database, as it would with no cache.
 */
export class ProjectAccessCache {
  private entries = new Map<string, { value: Entry; until: number }>()
  private listener: pg.Client | null = null
  private listening = false
  private stopped = false
  private reconnect: NodeJS.Timeout | null = null
  /** Bumped on every change: a lookup that started before a change is not stored. */
  private generation = 0

  constructor(private readonly connectionString: string) {}

  /** Starts listening; when the connection fails or drops, the cache is off until it is back. */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'stratum-access-listener' })
    const lost = () => {
      if (this.listener !== client) return
      this.listener = null
      this.forgetAll(false)
      this.scheduleReconnect()
    }
    client.on('error', lost)
    client.on('end', lost)
    client.on('notification', () => this.forgetAll(true))
    this.listener = client
    try {
      await client.connect()
      await client.query(`LISTEN ${ACCESS_CHANGED_CHANNEL}`)
    } catch (error) {
      lost()
      await client.end().catch(() => {})
      throw error
    }
    // Changes made before LISTEN took effect were not heard: start empty.
    if (this.listener === client) this.forgetAll(true)
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnect) return
    this.reconnect = setTimeout(() => {
      this.reconnect = null
      this.start().catch(() => {})
    }, RECONNECT_MS)
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.reconnect) clearTimeout(this.reconnect)
    const client = this.listener
    this.listener = null
    this.forgetAll(false)
    await client?.end().catch(() => {})
  }

  async lookup(userId: string, ref: string, load: () => Promise<Entry>): Promise<Entry> {
    const key = `${userId}\0${ref}`
    const hit = this.entries.get(key)
    if (this.listening && hit && hit.until > Date.now()) return hit.value
    const generation = this.generation
    const value = await load()
    if (this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear()
      this.entries.set(key, { value, until: Date.now() + ENTRY_TTL_MS })
    }
    return value
  }

  /**
   * Empties the cache at once: a membership changed by this process applies to its very next request
   * (the database's notification, which also reaches other processes, can arrive a little later).
   */
  forget(): void {
    this.forgetAll(this.listening)
  }

  private forgetAll(listening: boolean): void {
    this.generation++
    this.entries.clear()
    this.listening = listening
  }
}
