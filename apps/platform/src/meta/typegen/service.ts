import pg from 'pg'
import { introspect } from '@supabase/postgrest-typegen/introspection'
import { generateTypescript, sortGeneratorMetadata } from '@supabase/postgrest-typegen/generation'
import { schemaMarker } from '../marker.js'
import type { MetaTarget } from '../service.js'

/** The PostgREST major the generated `__InternalSupabase` block names (what supabase-js reads). */
export const POSTGREST_VERSION = '12'
/** Projects whose generated files are kept (least recently used beyond that are dropped). */
const MAX_PROJECTS = 32

/** The introspector sends its queries all at once; one connection runs them one after another. */
function serialized(client: pg.PoolClient): { query(sql: string): Promise<{ rows: unknown[] }> } {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    query(sql: string) {
      const run = tail.then(() => client.query(sql))
      tail = run.catch(() => {})
      return run
    },
  }
}

interface ProjectEntry {
  marker: string
  files: Map<string, Promise<string>>
}

/**
 * TypeScript types in the field's format (`supabase gen types typescript`), made by the field's own
 * generator, @supabase/postgrest-typegen: its introspector reads the catalog (it needs functions with
 * argument modes, every type with its attributes and enum labels, and view key dependencies, which
 * MetaService does not model), then its generator writes the file.
 *
 * Caching follows MetaService: every call opens a REPEATABLE READ transaction and reads the schema
 * marker; while the marker is unchanged the file made for the same schemas is reused, and the
 * introspection of a miss runs in that same transaction, so a file is filed under the marker of the
 * very catalog state it was made from. Concurrent calls for the same marker share one generation.
 */
export class TypegenService {
  private readonly pools = new Map<string, { key: string; pool: pg.Pool }>()
  private readonly cache = new Map<string, ProjectEntry>()
  /** How many generations ran (cache misses): for tests. */
  generations = 0

  async typescript(target: MetaTarget, includedSchemas: string[]): Promise<string> {
    const schemas = [...new Set(includedSchemas)].sort()
    const key = JSON.stringify(schemas)
    const client = await this.pool(target).connect()
    let open = false
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      open = true
      const entry = this.entry(target.ref, await schemaMarker(client))
      const kept = entry.files.get(key)
      if (kept) {
        await client.query('COMMIT')
        open = false
        return await kept
      }
      this.generations++
      const making = (async () => {
        await client.query(`SET LOCAL statement_timeout = '60s'`)
        const metadata = await introspect(serialized(client), { includedSchemas: schemas })
        await client.query('COMMIT')
        open = false
        return generateTypescript(sortGeneratorMetadata(metadata), { postgrestVersion: POSTGREST_VERSION })
      })()
      entry.files.set(key, making)
      making.catch(() => {
        if (entry.files.get(key) === making) entry.files.delete(key)
      })
      return await making
    } finally {
      if (open) await client.query('ROLLBACK').catch(() => {})
      client.release()
    }
  }

  forget(ref: string): void {
    this.cache.delete(ref)
    const entry = this.pools.get(ref)
    this.pools.delete(ref)
    void entry?.pool.end().catch(() => {})
  }

  async close(): Promise<void> {
    this.cache.clear()
    const pools = [...this.pools.values()]
    this.pools.clear()
    await Promise.allSettled(pools.map((entry) => entry.pool.end()))
  }

  private entry(ref: string, marker: string): ProjectEntry {
    let entry = this.cache.get(ref)
    if (!entry || entry.marker !== marker) entry = { marker, files: new Map() }
    this.cache.delete(ref)
    this.cache.set(ref, entry)
    while (this.cache.size > MAX_PROJECTS) this.cache.delete(this.cache.keys().next().value!)
    return entry
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
      max: 2,
      idleTimeoutMillis: 10_000,
      connectionTimeoutMillis: 5_000,
      allowExitOnIdle: true,
      application_name: 'stratum-typegen',
    })
    pool.on('error', () => {})
    this.pools.set(target.ref, { key, pool })
    return pool
  }
}
