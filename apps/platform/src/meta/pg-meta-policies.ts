import type { PgMetaPolicy } from '@stratum/contracts'
import { catalogRows, pageClause, schemaListParams, type SchemaListOptions } from './pg-meta-list.js'
import { SCHEMA_FILTER } from './pg-meta-sql.js'
import type { Queryable } from './queryable.js'

/**
 * Row level security policies as `GET /platform/pg-meta/{ref}/policies` answers them: the roles sorted by name, or
 * 'public' for everyone (Postgres keeps public alone when a policy names it beside other roles), USING as
 * definition and WITH CHECK as check, printed as pg_get_expr prints them.
 */
const POLICIES_SQL = `
SELECT pol.oid::int8 AS id, n.nspname AS schema, c.relname AS table, c.oid::int8 AS table_id, pol.polname AS name,
  CASE WHEN pol.polpermissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END AS action,
  CASE WHEN 0::pg_catalog.oid = ANY (pol.polroles) THEN ARRAY['public']::text[]
    ELSE ARRAY(SELECT r.rolname::text FROM pg_catalog.pg_roles r WHERE r.oid = ANY (pol.polroles) ORDER BY r.rolname) END AS roles,
  CASE pol.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE' WHEN 'd' THEN 'DELETE' ELSE 'ALL' END AS command,
  pg_catalog.pg_get_expr(pol.polqual, pol.polrelid) AS definition,
  pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid) AS "check"
FROM pg_catalog.pg_policy pol
JOIN pg_catalog.pg_class c ON c.oid = pol.polrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE ${SCHEMA_FILTER}
ORDER BY n.nspname, c.relname, pol.polname
${pageClause(3)}`

export function listPgMetaPolicies(db: Queryable, options: SchemaListOptions = {}): Promise<PgMetaPolicy[]> {
  return catalogRows<PgMetaPolicy>(db, POLICIES_SQL, schemaListParams(options))
}
