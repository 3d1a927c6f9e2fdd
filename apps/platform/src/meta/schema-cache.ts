import type pg from 'pg'
import { schemaMarker } from './marker.js'
import { ADMIN_ROLE, READONLY_ROLE } from '../control/bootstrap-roles.js'
import type { ProjectConnections } from '../control/project-connections.js'

/** Where a project's database is reached. */
export interface SchemaCacheTarget {
  ref: string
  port: number
  /** The platform superuser's: uncached catalog reads (MetaService.read, table statistics), pinned search_path. */
  password: string
  /** The read-only role's: what the cache computes runs on the tenant's search path, so it logs in as that role. */
  readonlyPassword: string
  host?: string
}

/** The search path of users' sessions (the database's default, bootstrap-roles.ts). */
const USER_SEARCH_PATH = '"$user", public, extensions'

/** Projects whose results are kept (least recently used beyond that are dropped). */
const MAX_PROJECTS = 32

interface ProjectEntry {
  marker: string
  values: Map<string, Promise<unknown>>
}

/**
 * Results computed from a project's catalog, kept until its schema changes. Every call opens a
 * REPEATABLE READ transaction and reads the schema marker (marker.ts, a few ms); while the marker
 * is unchanged, values computed under it are reused. A miss computes in that same transaction, so
 * a value is always filed under the marker of the very catalog state it came from. Concurrent
 * calls for the same key and marker share one computation. One small pool per project.
 */
export class SchemaCache {
  /** Projects whose pool this cache asked for: closed with it. */
  private readonly refs = new Set<string>()
  private readonly cache = new Map<string, ProjectEntry>()
  /** How many computations ran (cache misses): for tests and benchmarks. */
  computations = 0

  constructor(
    private readonly connections: ProjectConnections,
    private readonly options: { applicationName: string; maxConnections: number },
  ) {}

  async cached<T>(target: SchemaCacheTarget, key: string, load: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.introspectionPool(target).connect()
    let open = false
    try {
      // The marker is read on the catalog-only path; one round trip with the transaction's start.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL search_path = pg_catalog, pg_temp')
      open = true
      const entry = this.entry(target.ref, await schemaMarker(client))
      const kept = entry.values.get(key) as Promise<T> | undefined
      if (kept) {
        await client.query('COMMIT')
        open = false
        return await kept
      }
      this.computations++
      const computing = (async () => {
        // The catalogs are read with the search path users have, so expressions and type names print as they see
        // them (`nextval('books_id_seq'::regclass)`); whatever a tenant put on that path (an overload, an aggregate)
        // runs as the read-only login this pool logs in as. Not a role SET over a superuser's session: tenant code
        // there can RESET ROLE back to the superuser. One round trip; a cache hit above pays none of it.
        await client.query(`SET LOCAL statement_timeout = '60s'; SET LOCAL search_path = ${USER_SEARCH_PATH}`)
        const value = await load(client)
        await client.query('COMMIT')
        open = false
        return value
      })()
      entry.values.set(key, computing)
      computing.catch(() => {
        if (entry.values.get(key) === computing) entry.values.delete(key)
      })
      return await computing
    } finally {
      if (open) await client.query('ROLLBACK').catch(() => {})
      client.release()
    }
  }

  /**
   * Reads uncached, as `cached` computes: one REPEATABLE READ READ ONLY transaction as the read-only login, with the
   * search path users have (names print as they see them). For what the marker does not cover (triggers, policies,
   * publications, roles) or what moves without DDL (sessions).
   */
  async uncached<T>(target: SchemaCacheTarget, load: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.introspectionPool(target).connect()
    let open = false
    try {
      await client.query(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = '60s'; SET LOCAL search_path = ${USER_SEARCH_PATH}`)
      open = true
      const value = await load(client)
      await client.query('COMMIT')
      open = false
      return value
    } finally {
      if (open) await client.query('ROLLBACK').catch(() => {})
      client.release()
    }
  }

  /** The project's pool, as the platform's superuser (a new one when its port or password changed). */
  pool(target: SchemaCacheTarget): pg.Pool {
    this.refs.add(target.ref)
    return this.connections.pool(
      target.ref,
      { host: target.host, port: target.port, user: ADMIN_ROLE, password: target.password },
      { purpose: this.options.applicationName, max: this.options.maxConnections, idleTimeoutMillis: 10_000, applicationName: this.options.applicationName },
    )
  }

  /** The cache's own pool, as the read-only role. */
  private introspectionPool(target: SchemaCacheTarget): pg.Pool {
    this.refs.add(target.ref)
    const purpose = `${this.options.applicationName}:introspection`
    return this.connections.pool(
      target.ref,
      { host: target.host, port: target.port, user: READONLY_ROLE, password: target.readonlyPassword },
      { purpose, max: this.options.maxConnections, idleTimeoutMillis: 10_000, applicationName: this.options.applicationName },
    )
  }

  /** Forgets a project (removed, restored...): its next call starts from nothing. */
  forget(ref: string): void {
    this.cache.delete(ref)
    this.refs.delete(ref)
    void this.connections.forget(ref, this.options.applicationName)
    void this.connections.forget(ref, `${this.options.applicationName}:introspection`)
  }

  async close(): Promise<void> {
    this.cache.clear()
    const refs = [...this.refs]
    this.refs.clear()
    await Promise.all(
      refs.flatMap((ref) => [this.connections.forget(ref, this.options.applicationName), this.connections.forget(ref, `${this.options.applicationName}:introspection`)]),
    )
  }

  private entry(ref: string, marker: string): ProjectEntry {
    let entry = this.cache.get(ref)
    if (!entry || entry.marker !== marker) entry = { marker, values: new Map() }
    // Most recently used last; the oldest projects beyond MAX_PROJECTS are dropped.
    this.cache.delete(ref)
    this.cache.set(ref, entry)
    while (this.cache.size > MAX_PROJECTS) this.cache.delete(this.cache.keys().next().value!)
    return entry
  }
}
