import pg from 'pg'
import { schemaFilter } from './pg-meta.js'
import type { Queryable } from './queryable.js'

/**
 * What the Database pages' listings share (pg-meta-functions.ts, pg-meta-triggers.ts...): their options, their
 * parameters and how their rows are read. Each listing is one catalog query, written to answer postgres-meta's
 * shape as it is; schema-qualified catalog names, so a tenant's overload on the search path changes nothing.
 */

export interface PageOptions {
  limit?: number
  offset?: number
}

export interface SchemaListOptions extends PageOptions {
  includeSystemSchemas?: boolean
  includedSchemas?: string[]
  excludedSchemas?: string[]
}

/** `LIMIT $n OFFSET $n+1` of pageParams: no limit when none is given. */
export function pageClause(first: number): string {
  return `LIMIT $${first}::int8 OFFSET $${first + 1}::int8`
}

export function pageParams(options: PageOptions): [number | null, number] {
  return [options.limit ?? null, options.offset ?? 0]
}

/** $1 and $2 of SCHEMA_FILTER (pg-meta-sql.ts), then $3 and $4 of pageClause(3). */
export function schemaListParams(options: SchemaListOptions): unknown[] {
  const filter = schemaFilter(options)
  return [filter.included, filter.excluded, ...pageParams(options)]
}

/**
 * `name=value` settings (pg_proc.proconfig, pg_roles.rolconfig) as a JSON object, or null when there are none.
 * The value is everything after the first '='.
 */
export function settingsObject(column: string): string {
  return `(SELECT pg_catalog.jsonb_object_agg(pg_catalog.split_part(s.setting, '=', 1), pg_catalog.substr(s.setting, pg_catalog.strpos(s.setting, '=') + 1))
    FROM pg_catalog.unnest(${column}) AS s(setting))`
}

const INT8_OID = 20

/** int8 as a JSON number when it is exact, as postgres-meta answers it (object ids, counts). */
function parseInt8(text: string): number | string {
  const value = Number(text)
  return Number.isSafeInteger(value) ? value : text
}

const PG_META_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
}

/** Runs one listing query; its rows are the answer. */
export async function catalogRows<T>(db: Queryable, text: string, values: unknown[]): Promise<T[]> {
  const { rows } = await db.query({ text, values, types: PG_META_TYPES })
  return rows as T[]
}
