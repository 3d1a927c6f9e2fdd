import pg from 'pg'
import { ADMIN_ROLE, PRIVILEGED_SESSION_OPTIONS } from './platform-superuser.js'

/**
 * Every connection the platform opens to a project's database goes through this file: the pools of the parts that
 * serve requests (SQL editor, auth, storage, catalog reads, GraphQL) through one ProjectConnections, and the
 * dedicated sessions of jobs and probes through openProjectSession. One connect timeout, one rule for the
 * platform's superuser (its sessions always carry the pinned search_path), one place that closes a project's pools.
 *
 * Sessions to the platform's own database are not here (store/db.ts, store/notification-hub.ts, the job runner).
 */

/** How long a connection may take to open, for every pool and session to a project. */
export const PROJECT_CONNECT_TIMEOUT_MS = 10_000

/** Where and as whom a connection to a project logs in. */
export interface ProjectLogin {
  host?: string
  port: number
  user: string
  password: string
  database?: string
  /** Startup options (e.g. `-c role=postgres`); the superuser's pinned search_path is added here, never by callers. */
  options?: string
}

export interface PoolSettings {
  /** Names the pool among the project's (one per purpose and login role): `sql:read-only`, `auth`, `meta`... */
  purpose: string
  max: number
  applicationName: string
  idleTimeoutMillis?: number
  statementTimeoutMs?: number
}

export interface SessionSettings {
  applicationName?: string
  connectTimeoutMs?: number
  queryTimeoutMs?: number
  statementTimeoutMs?: number
  /** A walsender session (replication commands such as DROP_REPLICATION_SLOT): realtime's replication login only. */
  replication?: boolean
}

/** The startup options of a login: the superuser's always begin with the pinned search_path (bootstrap-roles.ts). */
function startupOptions(login: ProjectLogin): string | undefined {
  if (login.user !== ADMIN_ROLE) return login.options
  if (!login.options || login.options === PRIVILEGED_SESSION_OPTIONS) return PRIVILEGED_SESSION_OPTIONS
  return `${PRIVILEGED_SESSION_OPTIONS} ${login.options}`
}

function clientConfig(login: ProjectLogin): pg.ClientConfig {
  return {
    host: login.host ?? '127.0.0.1',
    port: login.port,
    user: login.user,
    password: login.password,
    database: login.database ?? 'postgres',
    options: startupOptions(login),
  }
}

/**
 * A session of its own, for what a pool cannot hold: a job step that keeps one session (an upgrade's restore, a
 * branch copy, a COPY stream, a LISTEN), a health probe with its own deadline. The caller ends it.
 */
export async function openProjectSession(login: ProjectLogin, settings: SessionSettings = {}): Promise<pg.Client> {
  const client = new pg.Client({
    ...clientConfig(login),
    application_name: settings.applicationName,
    connectionTimeoutMillis: settings.connectTimeoutMs ?? PROJECT_CONNECT_TIMEOUT_MS,
    query_timeout: settings.queryTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    ...(settings.replication ? { replication: 'database' } : {}),
  } as pg.ClientConfig)
  // A server that goes away mid-call surfaces as the query's error; an idle one's 'error' must not crash the platform.
  client.on('error', () => {})
  try {
    await client.connect()
  } catch (error) {
    await client.end().catch(() => {})
    throw error
  }
  return client
}

/** Opens a session, runs fn, always ends it. */
export async function withProjectSession<T>(login: ProjectLogin, fn: (client: pg.Client) => Promise<T>, settings: SessionSettings = {}): Promise<T> {
  const client = await openProjectSession(login, settings)
  try {
    return await fn(client)
  } finally {
    await client.end().catch(() => {})
  }
}

interface PoolEntry {
  /** Where it logs in: a project whose port or password changed gets a new pool, and the old one is ended. */
  identity: string
  pool: pg.Pool
}

/**
 * The platform's pools to project databases, keyed by project and purpose. A pool is made on first use and kept
 * while its login is unchanged; forget() ends a project's pools (pause, restore, delete: the project directory says
 * when, see followProjectChanges in main.ts).
 */
export class ProjectConnections {
  private readonly pools = new Map<string, Map<string, PoolEntry>>()

  constructor(private readonly log?: { warn(details: object, message: string): void }) {}

  pool(ref: string, login: ProjectLogin, settings: PoolSettings): pg.Pool {
    // Compared as text on every use (a hot path: each query asks for its pool); kept in memory like the login itself.
    const identity = JSON.stringify([clientConfig(login), settings])
    let ofProject = this.pools.get(ref)
    const existing = ofProject?.get(settings.purpose)
    if (existing?.identity === identity) return existing.pool
    if (existing) void existing.pool.end().catch(() => {})
    const pool = new pg.Pool({
      ...clientConfig(login),
      max: settings.max,
      idleTimeoutMillis: settings.idleTimeoutMillis ?? 30_000,
      connectionTimeoutMillis: PROJECT_CONNECT_TIMEOUT_MS,
      application_name: settings.applicationName,
      statement_timeout: settings.statementTimeoutMs,
      // Idle pools never keep the platform's process alive on their own.
      allowExitOnIdle: true,
    })
    // An idle connection losing its server (a restart, a pause) must not crash the platform.
    pool.on('error', (error) => this.log?.warn({ err: error, ref, purpose: settings.purpose }, 'a project database connection was lost'))
    if (!ofProject) this.pools.set(ref, (ofProject = new Map()))
    ofProject.set(settings.purpose, { identity, pool })
    return pool
  }

  /** Ends a project's pools (or one of them): the next use connects again. */
  async forget(ref: string, purpose?: string): Promise<void> {
    const ofProject = this.pools.get(ref)
    if (!ofProject) return
    const entries = purpose === undefined ? [...ofProject.values()] : [ofProject.get(purpose)].filter((entry) => entry !== undefined)
    if (purpose === undefined) this.pools.delete(ref)
    else ofProject.delete(purpose)
    await Promise.all(entries.map((entry) => entry.pool.end().catch(() => {})))
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.keys()].map((ref) => this.forget(ref)))
  }
}
