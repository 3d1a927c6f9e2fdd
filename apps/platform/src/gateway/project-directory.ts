import type { ProjectStatus } from '@stratum/contracts'
import { AUTHENTICATOR_ROLE } from '../control/bootstrap-roles.js'
import type { ProjectService } from '../control/projects.js'
import { findProject } from '../control/project-store.js'
import type { SecretBox } from '../control/secret-box.js'
import { listNamedKeys, type NamedKeyType } from '../keys/named-keys.js'
import { ensureProjectKeys } from '../keys/project-keys.js'
import { getPostgrestSettings, type PostgrestSettings } from '../services/rest/config.js'
import type { Db } from '../store/db.js'
import type { NotificationHub } from '../store/notification-hub.js'

/** Statuses that end in ACTIVE_HEALTHY on their own (getCurrent reads them again). */
const TRANSITIONAL = new Set<ProjectStatus>(['COMING_UP', 'RESTORING', 'RESTARTING', 'UPGRADING', 'RESIZING'])

export const GATEWAY_CHANGED_CHANNEL = 'stratum_gateway_changed'

/** What the gateway needs of a project for every request, read once and kept until it changes. */
export interface GatewayProject {
  ref: string
  status: ProjectStatus
  /** The instance's port on this machine. */
  port: number
  jwtSecret: string
  anonKey: string
  serviceRoleKey: string
  legacyEnabled: boolean
  /** Publishable and secret keys by the SHA-256 of the key (keys/named-keys.ts). */
  namedKeys: Map<string, NamedKeyType>
  /** postgres://authenticator:...@127.0.0.1:port/postgres */
  authenticatorUri: string
  /** The same login's password, for the platform's own pools (project-connections.ts). */
  authenticatorPassword: string
  settings: PostgrestSettings
}

type Listener = (ref: string) => void

/**
 * The gateway's view of the projects, in memory: checking a key or routing a request costs no
 * database round trip. The platform database notifies on every write to a project, its keys or its
 * data API settings (migration 013); the entry is dropped and the listeners (the PostgREST supervisor,
 * GraphQL) hear of it. While the hub's connection is down (store/notification-hub.ts) nothing is cached:
 * each lookup reads the database.
 */
export class ProjectDirectory {
  private entries = new Map<string, GatewayProject | null>()
  private loading = new Map<string, Promise<GatewayProject | null>>()
  private listeners = new Set<Listener>()
  private listening = false
  private unsubscribe: () => void
  /** Bumped on every change: a lookup that started before a change is not stored. */
  private generation = 0

  constructor(
    hub: NotificationHub,
    private readonly db: Db,
    private readonly projects: ProjectService,
    private readonly secrets: SecretBox,
  ) {
    this.unsubscribe = hub.subscribe(GATEWAY_CHANGED_CHANNEL, {
      notified: (ref) => this.changed(ref),
      listening: () => {
        this.forgetAll()
        this.listening = true
      },
      lost: () => {
        this.listening = false
        this.forgetAll()
      },
    })
  }

  /** Stops following changes: nothing is cached any more. */
  stop(): void {
    this.unsubscribe()
    this.listening = false
    this.forgetAll()
  }

  /** Hears of every project whose facts changed (after the entry was dropped). */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The project's facts; null when there is no such project. */
  async get(ref: string): Promise<GatewayProject | null> {
    if (this.entries.has(ref)) return this.entries.get(ref) ?? null
    const pending = this.loading.get(ref)
    if (pending) return pending
    const generation = this.generation
    const load = this.load(ref).finally(() => this.loading.delete(ref))
    this.loading.set(ref, load)
    const value = await load
    if (this.listening && generation === this.generation) this.entries.set(ref, value)
    return value
  }

  /**
   * Like get, but a project the cache holds as on its way up is read again: it may have just become
   * healthy, and a client that saw that on the status route must not get a 503 until the notification
   * arrives. Only transitional statuses are re-read, so requests to a paused project cost no query.
   */
  async getCurrent(ref: string): Promise<GatewayProject | null> {
    const cached = await this.get(ref)
    if (!cached || !TRANSITIONAL.has(cached.status)) return cached
    return this.load(ref)
  }

  /** Drops the entry and tells the listeners (also for changes made while the listener was down). */
  changed(ref: string): void {
    this.generation++
    this.entries.delete(ref)
    for (const listener of this.listeners) listener(ref)
  }

  private async load(ref: string): Promise<GatewayProject | null> {
    const row = await findProject(this.db, ref)
    if (!row) return null
    const [keys, settings, named] = await Promise.all([
      ensureProjectKeys(this.db, this.secrets, ref),
      getPostgrestSettings(this.db, ref),
      listNamedKeys(this.db, ref),
    ])
    let authenticatorUri = ''
    let authenticatorPassword = ''
    try {
      authenticatorPassword = this.projects.credentials(row).authenticatorPassword
      authenticatorUri = `postgres://${AUTHENTICATOR_ROLE}:${encodeURIComponent(authenticatorPassword)}@127.0.0.1:${row.port}/postgres`
    } catch {
      // Still being created: no credentials yet. Its status says so and nothing is served.
    }
    return {
      ref,
      status: row.status,
      port: row.port,
      jwtSecret: keys.jwtSecret,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      legacyEnabled: keys.legacyEnabled,
      namedKeys: new Map(named.map((row) => [row.key_sha256, row.type])),
      authenticatorUri,
      authenticatorPassword,
      settings,
    }
  }

  private forgetAll(): void {
    this.generation++
    const refs = [...this.entries.keys()]
    this.entries.clear()
    // Changes may have been missed while the connection was down: every listener re-checks.
    for (const ref of refs) for (const listener of this.listeners) listener(ref)
  }
}
