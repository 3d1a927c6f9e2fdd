import pg from 'pg'
import type { ApiRole, OpenApiDocument, PgMetaTable } from '@stratum/contracts'
import { schemaMarker } from './marker.js'
import { buildOpenApi, type OpenApiOptions } from './openapi.js'
import { filterKey, isTable, loadEntities, loadTableStats, schemaFilter, toPgMetaTable, type MetaEntity, type SchemaFilter, type TableStats } from './pg-meta.js'
import { loadPostgrestSchema, type PgrstSchema } from './postgrest-schema.js'

/** Where a project's database answers, and the superuser password to read its catalogs with. */
export interface MetaTarget {
  ref: string
  port: number
  password: string
  host?: string
}

export interface ListTablesOptions {
  includeColumns?: boolean
  includeSystemSchemas?: boolean
  includedSchemas?: string[]
  excludedSchemas?: string[]
  limit?: number
  offset?: number
}

export interface OpenApiRequest extends OpenApiOptions {
  role?: ApiRole
  schema?: string
}

export interface OpenApiResult {
  document: OpenApiDocument
  /** The document serialized once and kept: repeated requests send this text as it is. */
  json: string
}

/** Sizes and row estimates change without DDL; reading them costs ~30 ms per 1,000 tables, so they are kept briefly. */
export const STATS_TTL_MS = 5_000
/** Projects whose introspection is kept in memory (least recently used beyond that are dropped). */
const MAX_PROJECTS = 32

interface ProjectCache {
  marker: string
  values: Map<string, Promise<unknown>>
}

/**
 * Introspection of project databases with a per-project cache. Every call opens a REPEATABLE READ
 * transaction and reads the schema marker (a catalog query of a few ms, see marker.ts); while the
 * marker is unchanged, results computed for it are reused, so a repeated listing costs the marker,
 * the statistics (kept STATS_TTL_MS) and serialization. Any committed DDL changes the marker and the
 * next call recomputes, in the same transaction as the marker it is filed under. Concurrent calls
 * for the same marker share one computation.
 */
export class MetaService {
  private readonly pools = new Map<string, { key: string; pool: pg.Pool }>()
  private readonly cache = new Map<string, ProjectCache>()
  private readonly stats = new Map<string, { at: number; value: Promise<Map<number, TableStats>> }>()
  /** How many introspections ran (cache misses): for tests and benchmarks. */
  computations = 0

  /** The project's tables as `GET /platform/pg-meta/{ref}/tables` answers them. */
  async listTables(target: MetaTarget, options: ListTablesOptions = {}): Promise<PgMetaTable[]> {
    const filter = schemaFilter(options)
    const key = filterKey(filter)
    // Statistics come from a second connection while the structure is read (or found in the cache).
    const statsRead = this.tableStats(target, filter, key)
    statsRead.catch(() => {})
    const entities = await this.cached(target, `entities|${key}`, (client) => loadEntities(client, filter))
    let tables = entities.filter(isTable)
    if (options.offset) tables = tables.slice(options.offset)
    if (options.limit !== undefined) tables = tables.slice(0, options.limit)
    let stats = await statsRead
    // A table created since the statistics were kept: read them again.
    if (tables.some((table) => !stats.has(table.id))) stats = await this.tableStats(target, filter, key, true)
    return tables.map((entity) => toPgMetaTable(entity, stats.get(entity.id), options.includeColumns ?? true))
  }

  /** Every relation (tables, partitioned tables, views, materialized views, foreign tables) of the covered schemas. */
  async entities(target: MetaTarget, options: Omit<ListTablesOptions, 'includeColumns' | 'limit' | 'offset'> = {}): Promise<MetaEntity[]> {
    const filter = schemaFilter(options)
    return this.cached(target, `entities|${filterKey(filter)}`, (client) => loadEntities(client, filter))
  }

  /** What PostgREST's schema cache holds for one schema and role. */
  async postgrestSchema(target: MetaTarget, schema = 'public', role: ApiRole = 'anon'): Promise<PgrstSchema> {
    return this.cached(target, `pgrst|${schema}|${role}`, (client) => loadPostgrestSchema(client, schema, role))
  }

  /** PostgREST's OpenAPI document for a role (anon by default); null when the schema does not exist. */
  async openApi(target: MetaTarget, request: OpenApiRequest): Promise<OpenApiResult | null> {
    const schema = request.schema ?? 'public'
    const role = request.role ?? 'anon'
    const key = `openapi|${schema}|${role}|${request.scheme}|${request.host}|${request.basePath ?? '/'}`
    return this.cached(target, key, async (client) => {
      const cache = await loadPostgrestSchema(client, schema, role)
      if (!cache.exists) return null
      const document = buildOpenApi(cache, request)
      return { document, json: JSON.stringify(document) }
    })
  }

  /** Forgets a project (removed, restored...): its next call starts from nothing. */
  forget(ref: string): void {
    this.cache.delete(ref)
    for (const key of this.stats.keys()) if (key.startsWith(`${ref}|`)) this.stats.delete(key)
    const entry = this.pools.get(ref)
    this.pools.delete(ref)
    void entry?.pool.end().catch(() => {})
  }

  async close(): Promise<void> {
    this.cache.clear()
    this.stats.clear()
    const pools = [...this.pools.values()]
    this.pools.clear()
    await Promise.allSettled(pools.map((entry) => entry.pool.end()))
  }

  private pool(target: MetaTarget): pg.Pool {
    const key = `${target.host ?? '127.0.0.1'}:${target.port}:${target.password}`
    const existing = this.pools.get(target.ref)
    if (existing?.key === key) return existing.pool
    if (existing) void existing.pool.end().catch(() => {})
    const pool = new pg.Pool({
      host: target.host ?? '127.0.0.1',
      port: target.port,
      user: 'postgres',
      password: target.password,
      database: 'postgres',
      max: 3,
      idleTimeoutMillis: 10_000,
      connectionTimeoutMillis: 5_000,
      allowExitOnIdle: true,
      application_name: 'stratum-meta',
    })
    pool.on('error', () => {})
    this.pools.set(target.ref, { key, pool })
    return pool
  }

  private entry(ref: string, marker: string): ProjectCache {
    let entry = this.cache.get(ref)
    if (!entry || entry.marker !== marker) entry = { marker, values: new Map() }
    // Most recently used last; the oldest projects beyond MAX_PROJECTS are dropped.
    this.cache.delete(ref)
    this.cache.set(ref, entry)
    while (this.cache.size > MAX_PROJECTS) this.cache.delete(this.cache.keys().next().value!)
    return entry
  }

  /**
   * The value for `key` under the current schema marker: read from the cache, or computed. The marker is
   * read in the same REPEATABLE READ transaction as the computation, so a value is always filed under
   * the marker of the very catalog state it was computed from.
   */
  private async cached<T>(target: MetaTarget, key: string, load: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool(target).connect()
    let open = false
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
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
        await client.query(`SET LOCAL statement_timeout = '60s'`)
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

  private tableStats(target: MetaTarget, filter: SchemaFilter, key: string, fresh = false): Promise<Map<number, TableStats>> {
    const statsKey = `${target.ref}|${key}`
    const kept = this.stats.get(statsKey)
    const now = Date.now()
    if (kept && !fresh && now - kept.at < STATS_TTL_MS) return kept.value
    const value = loadTableStats(this.pool(target), filter)
    this.stats.set(statsKey, { at: now, value })
    value.catch(() => {
      if (this.stats.get(statsKey)?.value === value) this.stats.delete(statsKey)
    })
    return value
  }
}
