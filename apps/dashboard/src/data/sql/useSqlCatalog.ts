import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { readCatalog } from '../table-editor/runEditorSql'

export type CatalogRelationKind = 'table' | 'partitioned table' | 'view' | 'materialized view' | 'foreign table'

export interface CatalogColumn {
  name: string
  /** As Postgres writes it (format_type): `integer`, `character varying(20)`. */
  type: string
}

export interface CatalogRelation {
  /** The relation's oid: the table editor's /editor/{id}. */
  id: number
  schema: string
  name: string
  kind: CatalogRelationKind
  columns: CatalogColumn[]
}

export interface CatalogFunction {
  id: number
  schema: string
  name: string
  /** The identity arguments (`a integer, b text`). */
  args: string
  /** What it returns (`integer`, `SETOF record`); empty for a procedure. */
  result: string
  kind: 'function' | 'procedure' | 'aggregate' | 'window'
}

/** What the SQL editor knows of the project's database: for completion and the schema browser. */
export interface SqlCatalog {
  schemas: string[]
  relations: CatalogRelation[]
  functions: CatalogFunction[]
}

export const sqlCatalogKeys = {
  catalog: (ref: string) => ['sql', ref, 'catalog'] as const,
}

/** Schemas a user works in: everything but Postgres's own. `n` is the pg_namespace alias. */
const USER_SCHEMA = String.raw`n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg\_temp\_%' AND n.nspname NOT LIKE 'pg\_toast\_temp\_%'`

/**
 * One catalog read (one row, one json column `data`) on the read-only connection: schemas, relations with
 * their columns, and the functions the project defined (those an extension installed are left out: pgcrypto
 * alone brings dozens, and they are not the project's own).
 */
export const SQL_CATALOG_QUERY = `SELECT json_build_object(
  'schemas', coalesce((SELECT json_agg(n.nspname ORDER BY n.nspname) FROM pg_namespace n WHERE ${USER_SCHEMA}), '[]'),
  'relations', coalesce((SELECT json_agg(json_build_object(
      'id', c.oid::int8, 'schema', n.nspname, 'name', c.relname,
      'kind', CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'partitioned table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' ELSE 'foreign table' END,
      'columns', coalesce((SELECT json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod)) ORDER BY a.attnum)
        FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '[]')
    ) ORDER BY n.nspname, c.relname)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition AND ${USER_SCHEMA}), '[]'),
  'functions', coalesce((SELECT json_agg(json_build_object(
      'id', p.oid::int8, 'schema', n.nspname, 'name', p.proname, 'args', pg_get_function_identity_arguments(p.oid),
      'result', coalesce(pg_get_function_result(p.oid), ''),
      'kind', CASE p.prokind WHEN 'p' THEN 'procedure' WHEN 'a' THEN 'aggregate' WHEN 'w' THEN 'window' ELSE 'function' END
    ) ORDER BY n.nspname, p.proname, p.oid)
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE ${USER_SCHEMA} AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')), '[]')
) AS data`

export const sqlCatalogQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: sqlCatalogKeys.catalog(ref ?? ''),
    queryFn: ref ? ({ signal }) => readCatalog<SqlCatalog>(ref, SQL_CATALOG_QUERY, signal) : skipToken,
    staleTime: 30_000,
  })

/** The project's schemas, tables, views (with columns) and functions, read through the SQL route (read-only). */
export function useSqlCatalog(ref: string | undefined, enabled = true) {
  return useQuery({ ...sqlCatalogQuery(ref), enabled })
}
