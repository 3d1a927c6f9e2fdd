import type { PgMetaTrigger } from '@stratum/contracts'
import { catalogRows, pageClause, schemaListParams, type SchemaListOptions } from './pg-meta-list.js'
import { SCHEMA_FILTER } from './pg-meta-sql.js'
import type { Queryable } from './queryable.js'

/**
 * Triggers as `GET /platform/pg-meta/{ref}/triggers` answers them: those information_schema.triggers shows to
 * the owner (not internal, fired by INSERT, DELETE or UPDATE), read from pg_trigger itself, since that view
 * hides the triggers of tables the reading role only selects from. The WHEN condition is cut from
 * pg_get_triggerdef as the view cuts it; the arguments are tgargs split at its NUL bytes (escaped as
 * encode(..., 'escape') writes them, as postgres-meta answers them).
 */
const TRIGGERS_SQL = `
SELECT t.oid::int8 AS id, t.tgrelid::int8 AS table_id,
  CASE t.tgenabled WHEN 'D' THEN 'DISABLED' WHEN 'R' THEN 'REPLICA' WHEN 'A' THEN 'ALWAYS' ELSE 'ORIGIN' END AS enabled_mode,
  t.tgname AS name, c.relname AS table, n.nspname AS schema,
  (pg_catalog.regexp_match(pg_catalog.pg_get_triggerdef(t.oid), '.{35,} WHEN \\((.+)\\) EXECUTE FUNCTION'))[1] AS condition,
  CASE WHEN t.tgtype::int4 & 1 = 1 THEN 'ROW' ELSE 'STATEMENT' END AS orientation,
  CASE t.tgtype::int4 & 66 WHEN 2 THEN 'BEFORE' WHEN 64 THEN 'INSTEAD OF' ELSE 'AFTER' END AS activation,
  ARRAY(SELECT e.name FROM (VALUES (4, 'INSERT'), (8, 'DELETE'), (16, 'UPDATE')) AS e(flag, name)
        WHERE t.tgtype::int4 & e.flag <> 0 ORDER BY e.flag) AS events,
  pn.nspname AS function_schema, p.proname AS function_name,
  (pg_catalog.string_to_array(pg_catalog.encode(t.tgargs, 'escape'), '\\000'))[:t.tgnargs] AS function_args
FROM pg_catalog.pg_trigger t
JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_proc p ON p.oid = t.tgfoid
JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace
WHERE NOT t.tgisinternal AND t.tgtype::int4 & 28 <> 0 AND ${SCHEMA_FILTER}
ORDER BY n.nspname, c.relname, t.tgname
${pageClause(3)}`

export function listPgMetaTriggers(db: Queryable, options: SchemaListOptions = {}): Promise<PgMetaTrigger[]> {
  return catalogRows<PgMetaTrigger>(db, TRIGGERS_SQL, schemaListParams(options))
}
