import type { ApiRole, OpenApiDocument, PgMetaTable } from '@stratum/contracts'
import { buildOpenApi, type OpenApiOptions } from './openapi.js'
import { filterKey, isTable, loadEntities, loadTableStats, schemaFilter, toPgMetaTable, type MetaEntity, type SchemaFilter, type TableStats } from './pg-meta.js'
import { loadPostgrestSchema, type PgrstSchema } from './postgrest-schema.js'
import type { Queryable } from './queryable.js'
import { SchemaCache, type SchemaCacheTarget } from './schema-cache.js'
import type { ProjectConnections } from '../control/project-connections.js'
import type { ProjectRow } from '../control/project-store.js'
import type { ProjectService } from '../control/projects.js'

/** Where a project's database answers, and the superuser password to read its catalogs with. */
export type MetaTarget = SchemaCacheTarget

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
/**
 * Introspection of project databases with a per-project cache. Every call opens a REPEATABLE READ
 * transaction and reads the schema marker (a catalog query of a few ms, see marker.ts); while the
 * marker is unchanged, results computed for it are reused, so a repeated listing costs the marker,
 * the statistics (kept STATS_TTL_MS) and serialization. Any committed DDL changes the marker and the
 * next call recomputes, in the same transaction as the marker it is filed under. Concurrent calls
 * for the same marker share one computation.
 */
export class MetaService {
  private readonly schemaCache: SchemaCache
  private readonly stats = new Map<string, { at: number; value: Promise<Map<number, TableStats>> }>()

  constructor(connections: ProjectConnections) {
    this.schemaCache = new SchemaCache(connections, { applicationName: 'stratum-meta', maxConnections: 3 })
  }

  /** How many introspections ran (cache misses): for tests and benchmarks. */
  get computations(): number {
    return this.schemaCache.computations
  }

  /** The project's tables as `GET /platform/pg-meta/{ref}/tables` answers them. */
  async listTables(target: MetaTarget, options: ListTablesOptions = {}): Promise<PgMetaTable[]> {
    const filter = schemaFilter(options)
    const key = filterKey(filter)
    // Statistics come from a second connection while the structure is read (or found in the cache).
    const statsRead = this.tableStats(target, filter, key)
    statsRead.catch(() => {})
    const entities = await this.schemaCache.cached(target, `entities|${key}`, (client) => loadEntities(client, filter))
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
    return this.schemaCache.cached(target, `entities|${filterKey(filter)}`, (client) => loadEntities(client, filter))
  }

  /** What PostgREST's schema cache holds for one schema and role. */
  async postgrestSchema(target: MetaTarget, schema = 'public', role: ApiRole = 'anon'): Promise<PgrstSchema> {
    return this.schemaCache.cached(target, `pgrst|${schema}|${role}`, (client) => loadPostgrestSchema(client, schema, role))
  }

  /** PostgREST's OpenAPI document for a role (anon by default); null when the schema does not exist. */
  async openApi(target: MetaTarget, request: OpenApiRequest): Promise<OpenApiResult | null> {
    const schema = request.schema ?? 'public'
    const role = request.role ?? 'anon'
    const key = `openapi|${schema}|${role}|${request.scheme}|${request.host}|${request.basePath ?? '/'}`
    return this.schemaCache.cached(target, key, async (client) => {
      const cache = await loadPostgrestSchema(client, schema, role)
      if (!cache.exists) return null
      const document = buildOpenApi(cache, request)
      return { document, json: JSON.stringify(document) }
    })
  }

  /**
   * The Database pages' listings (pg-meta-*.ts): read uncached as the read-only login, with the search path users
   * have, as postgres-meta prints names for them.
   */
  async catalog<T>(target: MetaTarget, load: (db: Queryable) => Promise<T>): Promise<T> {
    return this.schemaCache.uncached(target, load)
  }

  /** Reads catalogs with the project's introspection pool, uncached (the schema marker does not cover policies or extensions). */
  async read<T>(target: MetaTarget, load: (db: Queryable) => Promise<T>): Promise<T> {
    return load(this.schemaCache.pool(target))
  }

  /** Forgets a project (removed, restored...): its next call starts from nothing. */
  forget(ref: string): void {
    this.schemaCache.forget(ref)
    for (const key of this.stats.keys()) if (key.startsWith(`${ref}|`)) this.stats.delete(key)
  }

  async close(): Promise<void> {
    this.stats.clear()
    await this.schemaCache.close()
  }

  private tableStats(target: MetaTarget, filter: SchemaFilter, key: string, fresh = false): Promise<Map<number, TableStats>> {
    const statsKey = `${target.ref}|${key}`
    const kept = this.stats.get(statsKey)
    const now = Date.now()
    if (kept && !fresh && now - kept.at < STATS_TTL_MS) return kept.value
    const value = loadTableStats(this.schemaCache.pool(target), filter)
    this.stats.set(statsKey, { at: now, value })
    value.catch(() => {
      if (this.stats.get(statsKey)?.value === value) this.stats.delete(statsKey)
    })
    return value
  }
}

/** Where introspection reaches a project: the superuser for catalog reads, the read-only login for what is cached. */
export function metaTargetOf(ctx: { projects: ProjectService }, project: ProjectRow): MetaTarget {
  const credentials = ctx.projects.credentials(project)
  return { ref: project.ref, port: project.port, password: credentials.adminPassword, readonlyPassword: credentials.readonlyPassword }
}
