import {
  PGRST_COLUMNS_SQL,
  PGRST_ENUMS_SQL,
  PGRST_FUNCTIONS_SQL,
  PGRST_KEYS_SQL,
  PGRST_RELATIONS_SQL,
  PGRST_SCHEMA_SQL,
  PGRST_VIEWS_SQL,
} from './postgrest-sql.js'
import type { Queryable } from './queryable.js'
import { inferViewKeys, type KeyRow, type Rel, type RelEnd, type ViewDefinition } from './view-keys.js'

/**
 * What PostgREST's schema cache knows about one exposed schema, as seen by one role: the relations the
 * role can reach (with columns, primary keys, and the single-column foreign keys its OpenAPI output
 * notes), and the functions the role may execute. Views inherit primary and foreign keys from the
 * tables their columns copy, as PostgREST infers them.
 */
export interface PgrstSchema {
  schema: string
  exists: boolean
  description: string | null
  tables: PgrstTable[]
  functions: PgrstFunction[]
}

export interface PgrstColumn {
  name: string
  description: string | null
  nullable: boolean
  type: string
  maxLength: number | null
  default: string | null
  enum: string[]
  /** The `Note:` foreign-key target: a single-column key to a relation of the same schema. */
  foreignKey: { table: string; column: string } | null
}

export interface PgrstTable {
  name: string
  description: string | null
  /** What the relation supports (tables always; views and foreign tables as Postgres can write through them), not what the role may do. */
  insertable: boolean
  updatable: boolean
  deletable: boolean
  primaryKey: string[]
  columns: PgrstColumn[]
}

export interface PgrstParam {
  name: string
  type: string
  required: boolean
  variadic: boolean
}

export interface PgrstFunction {
  name: string
  description: string | null
  volatility: 'i' | 's' | 'v'
  params: PgrstParam[]
}

/** PostgREST's db-extra-search-path as the hosted platform sets it. */
export const EXTRA_SEARCH_PATH = ['public', 'extensions']

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`

/** Runs PostgREST's catalog reads for one schema and role. Call it inside a transaction: it sets search_path locally. */
export async function loadPostgrestSchema(db: Queryable, schema: string, role: string): Promise<PgrstSchema> {
  await db.query(`SELECT set_config('search_path', '', true)`)
  const description = await db.query<{ description: string | null }>(PGRST_SCHEMA_SQL, [schema])
  if (description.rows.length === 0) return { schema, exists: false, description: null, tables: [], functions: [] }
  const relations = (await db.query(PGRST_RELATIONS_SQL, [schema, role])).rows
  const columnRows = (await db.query(PGRST_COLUMNS_SQL, [schema])).rows
  const enumRows = (await db.query<{ name: string; labels: string[] }>(PGRST_ENUMS_SQL)).rows
  const keys = (await db.query<KeyRow>(PGRST_KEYS_SQL)).rows
  const hasViews = relations.some((row) => row.kind === 'v' || row.kind === 'm')
  const viewSchemas = [...new Set([schema, ...EXTRA_SEARCH_PATH])]
  const views = hasViews ? (await db.query<ViewDefinition>(PGRST_VIEWS_SQL, [viewSchemas])).rows : []
  // Type names as PostgREST prints them need the exposed schemas on the path. Names on that path are the
  // tenant's to shadow (an aggregate `public.array_agg(text)` wins over the catalog's): the schema cache runs
  // this as the read-only role, never as the superuser it logs in as (schema-cache.ts), and the query names
  // the catalog's functions.
  await db.query(`SELECT pg_catalog.set_config('search_path', $1, true)`, [[schema, ...EXTRA_SEARCH_PATH].map(quoteIdent).join(', ')])
  const functionRows = (await db.query(PGRST_FUNCTIONS_SQL, [schema, role])).rows

  const enums = new Map<string, string[]>()
  for (const row of enumRows) if (!enums.has(row.name)) enums.set(row.name, row.labels)

  // Columns by relation, and view column names by number (for key inference).
  const columnsOf = new Map<number, PgrstColumn[]>()
  const columnNames = new Map<number, Map<number, string>>()
  for (const row of columnRows) {
    const id = Number(row.table_id)
    if (!columnsOf.has(id)) {
      columnsOf.set(id, [])
      columnNames.set(id, new Map())
    }
    columnsOf.get(id)!.push({
      name: row.name,
      description: row.description,
      nullable: row.nullable,
      type: row.data_type,
      maxLength: row.max_length,
      default: row.column_default,
      enum: enums.get(row.udt_name) ?? [],
      foreignKey: null,
    })
    columnNames.get(id)!.set(row.position, row.name)
  }

  const relationIds = new Set<number>(relations.map((row) => Number(row.id)))
  const viewIds = new Set<number>(relations.filter((row) => row.kind === 'v' || row.kind === 'm').map((row) => Number(row.id)))
  const endOf = (id: number, schemaName: string, name: string, isView: boolean): RelEnd => ({ id, schema: schemaName, name, isView })

  // Base relationships: every foreign key, from the side that holds it.
  const rels: Rel[] = []
  const primaryKeys = new Map<number, string[]>()
  for (const key of keys) {
    const tableId = Number(key.table_id)
    if (key.type === 'p') {
      if (key.table_kind === 'r' || key.table_kind === 'p') primaryKeys.set(tableId, key.names)
      continue
    }
    rels.push({
      table: endOf(tableId, key.table_schema, key.table_name, false),
      foreign: endOf(Number(key.target_id), key.target_schema!, key.target_name!, false),
      constraint: key.name,
      columns: key.names.map((name, i) => [name, key.target_names[i]!]),
    })
  }

  // Views inherit the keys of the table columns they copy.
  if (views.length > 0) {
    const inferred = inferViewKeys(views, viewIds, columnNames, keys, rels)
    for (const [viewId, columns] of inferred.primaryKeys) primaryKeys.set(viewId, columns)
    rels.push(...inferred.rels)
  }

  // The relationships a relation's columns may note: to relations of its own schema, tables before views.
  const relsOf = new Map<number, Rel[]>()
  for (const rel of rels) {
    if (!relationIds.has(rel.table.id) || rel.foreign.schema !== schema) continue
    if (!relsOf.has(rel.table.id)) relsOf.set(rel.table.id, [])
    relsOf.get(rel.table.id)!.push(rel)
  }
  const order = (a: Rel, b: Rel) =>
    Number(a.foreign.isView) - Number(b.foreign.isView) ||
    compareText(a.foreign.name, b.foreign.name) ||
    Number(a.table.id === a.foreign.id) - Number(b.table.id === b.foreign.id) ||
    compareText(a.constraint, b.constraint)
  for (const list of relsOf.values()) list.sort(order)

  const tables: PgrstTable[] = relations.filter((row) => row.accessible).map((row) => {
    const id = Number(row.id)
    const candidates = relsOf.get(id) ?? []
    const columns = (columnsOf.get(id) ?? []).map((column) => {
      const rel = candidates.find((r) => r.columns.length === 1 && r.columns[0]![0] === column.name)
      return rel ? { ...column, foreignKey: { table: rel.foreign.name, column: rel.columns[0]![1] } } : column
    })
    return {
      name: row.name,
      description: row.description,
      insertable: row.insertable,
      updatable: row.updatable,
      deletable: row.deletable,
      primaryKey: primaryKeys.get(id) ?? [],
      columns,
    }
  })

  return {
    schema,
    exists: true,
    description: description.rows[0]!.description,
    tables,
    functions: pickOverloads(
      functionRows.map((row) => ({
        name: row.name,
        description: row.description,
        volatility: row.volatility,
        params: (row.arg_names as string[]).map((name, i) => ({
          name,
          type: row.arg_types[i],
          required: row.arg_required[i],
          variadic: row.arg_variadic[i],
        })),
      })),
    ),
  }
}

/** Haskell's Text order: by code point. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * One `/rpc/<name>` path per function name: PostgREST orders overloads by their number of parameters and
 * the last one written wins, i.e. the overload with the most parameters.
 */
function pickOverloads(functions: PgrstFunction[]): PgrstFunction[] {
  const byName = new Map<string, PgrstFunction>()
  for (const fn of functions) {
    const current = byName.get(fn.name)
    if (!current || fn.params.length > current.params.length || (fn.params.length === current.params.length && compareOverloads(fn, current) > 0)) {
      byName.set(fn.name, fn)
    }
  }
  return [...byName.values()].sort((a, b) => compareText(a.name, b.name))
}

function compareOverloads(a: PgrstFunction, b: PgrstFunction): number {
  if (a.description !== b.description) {
    if (a.description === null) return -1
    if (b.description === null) return 1
    return compareText(a.description, b.description)
  }
  for (let i = 0; i < a.params.length; i++) {
    const x = a.params[i]!
    const y = b.params[i]!
    const c = compareText(x.name, y.name) || compareText(x.type, y.type)
    if (c) return c
  }
  return 0
}
