import type { ProjectStatus } from '@stratum/contracts'
import { AUTHENTICATOR_ROLE } from '../control/bootstrap-roles.js'
import type { ProjectService } from '../control/projects.js'
import { findProject } from '../control/project-store.js'
import type { SecretBox } from '../control/secret-box.js'
import { listNamedKeys, type NamedKeyType } from '../keys/named-keys.js'
import { ensureProjectKeys, loadSigningKeySet, type SigningKeySet } from '../keys/project-keys.js'
import { getPostgrestSettings, type PostgrestSettings } from '../services/rest/config.js'
import { getStoredRealtimeConfig, type StoredRealtimeConfig } from '../services/realtime/config.js'
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
  /** The auth service's asymmetric signing keys (keys/project-keys.ts): every service verifies tokens with them. */
  signingKeys: SigningKeySet
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
  /** Realtime's settings as the project stored them (services/realtime/config.ts fills in the defaults). */
  realtime: StoredRealtimeConfig
}

/**
 * Told of a change to a project. `latest()` stays true until the project changes again: a listener that reads the
 * project before acting checks it after its read, so a read that began before a later change (and may hold the
 * older state) is not acted on; the later change's own call decides.
 */
type Listener = (ref: string, latest: () => boolean) => void

/**
 * The gateway's view of the projects, in memory: checking a key or routing a request costs no
 * database round trip. The platform database notifies on every write to a project, its keys or its
 * data API settings (migration 013); the entry is dropped and the listeners (the PostgREST supervisor,
 * GraphQL) hear of it. While the hub's connection is down (store/notification-hub.ts) nothing is cached:
 * each lookup reads the database.
 */
export class ProjectDirectory {
  private entries = new Map<string, GatewayProject | null>()
  /** Lookups under way, each with the generation it began in: one that began before a change is not shared. */
  private loading = new Map<string, { generation: number; value: Promise<GatewayProject | null> }>()
  /** Changes heard per project, for the listeners' latest(). */
  private changes = new Map<string, number>()
  private listeners = new Set<Listener>()
  private listening = false
  private unsubscribe: () => void
  /** Bumped on every change: a lookup that started before a change is not stored. */
  private generation = 0

  constructor(
    hub: Pick<NotificationHub, 'subscribe'>,
    /** Reads a project's facts from the platform database (loadGatewayProject, below). */
    private readonly load: (ref: string) => Promise<GatewayProject | null>,
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

  /**
   * Hears of a changed project with its facts read after the change (null: no such project), once they are the
   * latest: of changes in quick succession (COMING_UP then ACTIVE_HEALTHY), only a read made after the last one is
   * acted on, so a listener that stops things for a project that is not running never acts on a stale status.
   */
  onSettled(listener: (ref: string, project: GatewayProject | null) => Promise<void>, onError: (error: unknown, ref: string) => void): () => void {
    return this.onChange((ref, latest) => {
      this.get(ref)
        .then((project) => (latest() ? listener(ref, project) : undefined))
        .catch((error: unknown) => onError(error, ref))
    })
  }

  /** The project's facts; null when there is no such project. */
  async get(ref: string): Promise<GatewayProject | null> {
    if (this.entries.has(ref)) return this.entries.get(ref) ?? null
    const generation = this.generation
    const pending = this.loading.get(ref)
    // A lookup that began before the latest change may have read the state before it: never handed out after it.
    if (pending?.generation === generation) return pending.value
    const load = this.load(ref).finally(() => {
      if (this.loading.get(ref)?.value === load) this.loading.delete(ref)
    })
    this.loading.set(ref, { generation, value: load })
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
    this.tell(ref)
  }

  private tell(ref: string): void {
    const change = (this.changes.get(ref) ?? 0) + 1
    this.changes.set(ref, change)
    const latest = () => this.changes.get(ref) === change
    for (const listener of this.listeners) listener(ref, latest)
  }

  private forgetAll(): void {
    this.generation++
    const refs = [...this.entries.keys()]
    this.entries.clear()
    // Changes may have been missed while the connection was down: every listener re-checks.
    for (const ref of refs) this.tell(ref)
  }
}

/** A project's facts as the directory keeps them, read from the platform database. */
export async function loadGatewayProject(db: Db, projects: ProjectService, secrets: SecretBox, ref: string): Promise<GatewayProject | null> {
  const row = await findProject(db, ref)
  if (!row) return null
  const [keys, settings, named, realtime, signingKeys] = await Promise.all([
    ensureProjectKeys(db, secrets, ref),
    getPostgrestSettings(db, ref),
    listNamedKeys(db, ref),
    getStoredRealtimeConfig(db, ref),
    loadSigningKeySet(db, secrets, ref),
  ])
  let authenticatorUri = ''
  let authenticatorPassword = ''
  try {
    authenticatorPassword = projects.credentials(row).authenticatorPassword
    authenticatorUri = `postgres://${AUTHENTICATOR_ROLE}:${encodeURIComponent(authenticatorPassword)}@127.0.0.1:${row.port}/postgres`
  } catch {
    // Still being created: no credentials yet. Its status says so and nothing is served.
  }
  return {
    ref,
    status: row.status,
    port: row.port,
    jwtSecret: keys.jwtSecret,
    signingKeys,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    legacyEnabled: keys.legacyEnabled,
    namedKeys: new Map(named.map((row) => [row.key_sha256, row.type])),
    authenticatorUri,
    authenticatorPassword,
    settings,
    realtime,
  }
}
