import type { OrgRole } from '@stratum/contracts'
import type { ProjectRow } from '../control/project-store.js'
import type { NotificationHub } from '../store/notification-hub.js'

export const ACCESS_CHANGED_CHANNEL = 'stratum_access_changed'

type Entry = { project: ProjectRow; role: OrgRole } | null
/** A safety net: entries are dropped on every change anyway (migration 007). */
const ENTRY_TTL_MS = 30_000
const MAX_ENTRIES = 10_000

/**
 * A user's access to a project (the project row and their role), cached for the SQL routes,
 * which run it on every query: one platform database round trip less per run.
 *
 * The platform database notifies on any write to projects, members or organizations (triggers of
 * migration 007); a notification empties the cache. Entries are served only while the hub listens
 * (store/notification-hub.ts): without it there is no way to know of changes, so every lookup goes to
 * the database, as it would with no cache.
 */
export class ProjectAccessCache {
  private entries = new Map<string, { value: Entry; until: number }>()
  private listening = false
  private unsubscribe: () => void
  /** Bumped on every change: a lookup that started before a change is not stored. */
  private generation = 0

  constructor(hub: NotificationHub) {
    this.unsubscribe = hub.subscribe(ACCESS_CHANGED_CHANNEL, {
      notified: () => this.forgetAll(true),
      // Changes made while it did not listen were not heard: start empty.
      listening: () => this.forgetAll(true),
      lost: () => this.forgetAll(false),
    })
  }

  /** Stops following changes: the cache is off. */
  stop(): void {
    this.unsubscribe()
    this.forgetAll(false)
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
