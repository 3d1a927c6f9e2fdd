import type pg from 'pg'
import type { MetaEntity } from '../meta/pg-meta.js'
import { loadEntities, schemaFilter } from '../meta/pg-meta.js'
import { SchemaCache, type SchemaCacheTarget } from '../meta/schema-cache.js'
import type { ProjectConnections } from '../control/project-connections.js'

/**
 * The project's schema as a few lines of text for the model's prompt, so that suggestions use the
 * user's real tables and columns instead of invented ones. Capped: a big database must not turn
 * every inline edit into a huge (slow, costly) prompt.
 */
export const SCHEMA_CONTEXT_MAX_CHARS = 12_000
/** An inline edit waits this long at most for the schema; after that it goes on without it. */
export const SCHEMA_CONTEXT_TIMEOUT_MS = 3_000

/** What the text is made of: the parts of the introspection (meta/pg-meta.ts) it needs. */
export interface SchemaSnapshot {
  schemas: string[]
  relations: Array<Pick<MetaEntity, 'schema' | 'name' | 'kind' | 'primary_keys' | 'relationships'> & { columns: Array<{ name: string; format: string }> }>
  functions: Array<{ schema: string; name: string }>
}

/** Functions users wrote (not those of extensions, not aggregates), by name: their signatures cost too much room. */
const FUNCTIONS_SQL = `
SELECT DISTINCT n.nspname AS schema, p.proname AS name
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.prokind IN ('f', 'p')
  AND n.nspname <> ALL ($1::text[]) AND n.nspname NOT LIKE 'pg\\_%'
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
ORDER BY 1, 2
LIMIT 2000`

const SCHEMAS_SQL = `
SELECT nspname AS name FROM pg_namespace
WHERE nspname <> ALL ($1::text[]) AND nspname NOT LIKE 'pg\\_%'
ORDER BY 1`

/** 'int4' as it is, '_text' (Postgres' name of an array type) as 'text[]'. */
function typeName(format: string): string {
  return format.startsWith('_') ? `${format.slice(1)}[]` : format
}

/** public first (what unqualified names mean), then the others by name. */
function bySchema<T extends { schema: string; name: string }>(a: T, b: T): number {
  if (a.schema !== b.schema) return a.schema === 'public' ? -1 : b.schema === 'public' ? 1 : a.schema.localeCompare(b.schema)
  return a.name.localeCompare(b.name)
}

function relationLine(relation: SchemaSnapshot['relations'][number]): string {
  const keys = new Set(relation.primary_keys.map((key) => key.name))
  const references = new Map<string, string>()
  for (const rel of relation.relationships) {
    if (rel.source_schema === relation.schema && rel.source_table_name === relation.name) {
      references.set(rel.source_column_name, `${rel.target_table_schema}.${rel.target_table_name}.${rel.target_column_name}`)
    }
  }
  const columns = relation.columns.map((column) => {
    let text = `${column.name} ${typeName(column.format)}`
    if (keys.has(column.name)) text += ' pk'
    const target = references.get(column.name)
    if (target) text += ` -> ${target}`
    return text
  })
  return `${relation.schema}.${relation.name}(${columns.join(', ')})`
}

/**
 * The snapshot as text: schemas, tables with their columns (type, primary key, foreign keys),
 * views, then function names, in that order of usefulness. Lines that do not fit in `maxChars`
 * are left out, and a last line says how many.
 */
export function formatSchemaContext(snapshot: SchemaSnapshot, maxChars = SCHEMA_CONTEXT_MAX_CHARS): string {
  const visible = snapshot.relations.filter((relation) => !relation.schema.startsWith('pg_')).sort(bySchema)
  const tables = visible.filter((relation) => relation.kind === 'r' || relation.kind === 'p' || relation.kind === 'f')
  const views = visible.filter((relation) => relation.kind === 'v' || relation.kind === 'm')
  const functions = [...snapshot.functions].sort(bySchema)

  const sections: Array<[string, string[]]> = [
    ['Tables (column type; pk = primary key; -> = foreign key):', tables.map(relationLine)],
    ['Views:', views.map((view) => relationLine(view) + (view.kind === 'm' ? ' materialized' : ''))],
    ['Functions:', functions.map((fn) => `${fn.schema}.${fn.name}`)],
  ]
  const lines: string[] = [`Schemas: ${snapshot.schemas.length ? snapshot.schemas.join(', ') : '(none)'}`]
  // Room kept for the note about what was left out.
  const budget = maxChars - 60
  let used = lines[0]!.length + 1
  let omitted = 0
  for (const [title, items] of sections) {
    if (items.length === 0) continue
    if (omitted > 0 || used + title.length + 1 > budget) {
      omitted += items.length
      continue
    }
    lines.push(title)
    used += title.length + 1
    for (const item of items) {
      if (omitted > 0 || used + item.length + 1 > budget) {
        omitted++
        continue
      }
      lines.push(item)
      used += item.length + 1
    }
  }
  if (omitted > 0) lines.push(`(${omitted} more not shown)`)
  const text = lines.join('\n')
  // A single enormous first line (thousands of schemas) is the only way past the budget.
  return text.length > maxChars ? text.slice(0, maxChars) : text
}

async function loadSnapshot(client: pg.PoolClient): Promise<SchemaSnapshot> {
  const filter = schemaFilter({})
  const relations = await loadEntities(client, filter)
  const functions = (await client.query<{ schema: string; name: string }>(FUNCTIONS_SQL, [filter.excluded])).rows
  const schemas = (await client.query<{ name: string }>(SCHEMAS_SQL, [filter.excluded])).rows.map((row) => row.name)
  return { schemas: schemas.sort((a, b) => bySchema({ schema: a, name: '' }, { schema: b, name: '' })), relations, functions }
}

/**
 * The schema text of each project, kept until its schema changes. It uses the same introspection
 * and marker-keyed cache as the meta routes (meta/), in its own small pool: a busy table editor
 * does not hold up completions, and repeated completions cost only the marker query.
 */
export class SchemaContextSource {
  private readonly cache: SchemaCache

  constructor(
    connections: ProjectConnections,
    private readonly options: { maxChars?: number; timeoutMs?: number } = {},
  ) {
    this.cache = new SchemaCache(connections, { applicationName: 'stratum-ai', maxConnections: 2 })
  }

  /** The text, or null when the database cannot be read in time: completions go on without it. */
  async describe(target: SchemaCacheTarget): Promise<string | null> {
    const work = this.cache.cached(target, 'ai-schema-context', async (client) => formatSchemaContext(await loadSnapshot(client), this.options.maxChars))
    work.catch(() => {})
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.options.timeoutMs ?? SCHEMA_CONTEXT_TIMEOUT_MS)
    })
    try {
      return await Promise.race([work, timeout])
    } catch {
      return null
    } finally {
      clearTimeout(timer)
    }
  }

  forget(ref: string): void {
    this.cache.forget(ref)
  }

  close(): Promise<void> {
    return this.cache.close()
  }
}
