import pg from 'pg'
import { SchemaCache } from '../schema-cache.js'
import type { MetaTarget } from '../service.js'
import type { ProjectConnections } from '../../control/project-connections.js'

/** The PostgREST major the generated `__InternalSupabase` block names (what supabase-js reads). */
export const POSTGREST_VERSION = '12'

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

/**
 * TypeScript types in the field's format (`supabase gen types typescript`), made by the field's own
 * generator, @supabase/postgrest-typegen: its introspector reads the catalog (it needs functions with
 * argument modes, every type with its attributes and enum labels, and view key dependencies, which
 * MetaService does not model), then its generator writes the file. Files are kept per project until
 * its schema changes (schema-cache.ts, as for MetaService).
 */
export class TypegenService {
  private readonly schemaCache: SchemaCache

  constructor(connections: ProjectConnections) {
    this.schemaCache = new SchemaCache(connections, { applicationName: 'stratum-typegen', maxConnections: 2 })
  }

  /** How many generations ran (cache misses): for tests. */
  get generations(): number {
    return this.schemaCache.computations
  }

  typescript(target: MetaTarget, includedSchemas: string[]): Promise<string> {
    const schemas = [...new Set(includedSchemas)].sort()
    return this.schemaCache.cached(target, JSON.stringify(schemas), async (client) => {
      // Loaded on first use, not at boot: the introspector's schema library takes most of a second to import.
      const [{ introspect }, { generateTypescript, sortGeneratorMetadata }] = await Promise.all([
        import('@supabase/postgrest-typegen/introspection'),
        import('@supabase/postgrest-typegen/generation'),
      ])
      const metadata = await introspect(serialized(client), { includedSchemas: schemas })
      return generateTypescript(sortGeneratorMetadata(metadata), { postgrestVersion: POSTGREST_VERSION })
    })
  }

  forget(ref: string): void {
    this.schemaCache.forget(ref)
  }

  close(): Promise<void> {
    return this.schemaCache.close()
  }
}
