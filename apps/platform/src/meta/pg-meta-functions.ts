import type { PgMetaFunction } from '@stratum/contracts'
import { catalogRows, pageClause, schemaListParams, settingsObject, type SchemaListOptions } from './pg-meta-list.js'
import { SCHEMA_FILTER } from './pg-meta-sql.js'
import type { Queryable } from './queryable.js'

/**
 * Functions (not procedures, aggregates or window functions) as `GET /platform/pg-meta/{ref}/functions` answers
 * them. The page is cut first, so pg_get_functiondef runs for the listed functions only.
 *
 * Arguments: every one, out and table columns included, in order. An input argument has a default when it is
 * among the last pronargdefaults inputs; out and table columns answer null there.
 */
const FUNCTIONS_SQL = `
WITH f AS (
  SELECT p.oid, n.nspname, p.proname, p.prolang, p.prosrc, p.prorettype, p.proretset, p.prorows, p.provolatile,
    p.prosecdef, p.proconfig, p.pronargs, p.pronargdefaults,
    COALESCE(p.proallargtypes, p.proargtypes::pg_catalog.oid[]) AS arg_types, p.proargmodes, p.proargnames
  FROM pg_catalog.pg_proc p
  JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
  WHERE p.prokind = 'f' AND ${SCHEMA_FILTER}
  ORDER BY n.nspname, p.proname, p.oid
  ${pageClause(3)}
)
SELECT f.oid::int8 AS id, f.nspname AS schema, f.proname AS name, l.lanname AS language,
  CASE WHEN l.lanname = 'internal' THEN '' ELSE f.prosrc END AS definition,
  CASE WHEN l.lanname = 'internal' THEN f.prosrc ELSE pg_catalog.pg_get_functiondef(f.oid) END AS complete_statement,
  COALESCE(args.list, '[]'::jsonb) AS args,
  pg_catalog.pg_get_function_arguments(f.oid) AS argument_types,
  pg_catalog.pg_get_function_identity_arguments(f.oid) AS identity_argument_types,
  f.prorettype::int8 AS return_type_id,
  pg_catalog.pg_get_function_result(f.oid) AS return_type,
  NULLIF(rt.typrelid, 0)::int8 AS return_type_relation_id,
  f.proretset AS is_set_returning_function,
  CASE WHEN f.proretset THEN NULLIF(f.prorows, 0) END AS prorows,
  CASE f.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END AS behavior,
  f.prosecdef AS security_definer,
  ${settingsObject('f.proconfig')} AS config_params
FROM f
JOIN pg_catalog.pg_language l ON l.oid = f.prolang
LEFT JOIN pg_catalog.pg_type rt ON rt.oid = f.prorettype
LEFT JOIN LATERAL (
  SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
      'mode', CASE a.mode WHEN 'o' THEN 'out' WHEN 'b' THEN 'inout' WHEN 'v' THEN 'variadic' WHEN 't' THEN 'table' ELSE 'in' END,
      'name', COALESCE(a.name, ''),
      'type_id', a.type_id::int8,
      'has_default', CASE WHEN a.is_input THEN a.input_number > f.pronargs - f.pronargdefaults END
    ) ORDER BY a.ord) AS list
  FROM (
    SELECT u.type_id, u.mode, u.name, u.ord, COALESCE(u.mode, 'i') IN ('i', 'b', 'v') AS is_input,
      pg_catalog.count(*) FILTER (WHERE COALESCE(u.mode, 'i') IN ('i', 'b', 'v')) OVER (ORDER BY u.ord) AS input_number
    FROM ROWS FROM (pg_catalog.unnest(f.arg_types), pg_catalog.unnest(f.proargmodes), pg_catalog.unnest(f.proargnames))
      WITH ORDINALITY AS u(type_id, mode, name, ord)
  ) a
) args ON true
ORDER BY f.nspname, f.proname, f.oid`

export function listPgMetaFunctions(db: Queryable, options: SchemaListOptions = {}): Promise<PgMetaFunction[]> {
  return catalogRows<PgMetaFunction>(db, FUNCTIONS_SQL, schemaListParams(options))
}
