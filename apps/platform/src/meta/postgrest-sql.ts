import { CAN_ASK_UPDATABLE } from './pg-meta-sql.js'

/**
 * Catalog queries that gather what PostgREST's schema cache holds for one exposed schema, with the
 * same semantics (type names, defaults, nullability, privileges). Written for this project; the rules
 * they follow are PostgREST's. Tables and columns run with `search_path = ''` (as PostgREST's schema
 * cache does, so non-catalog type names come schema-qualified: "public.mood"); functions run with the
 * request's search path (the exposed schema, then the extra ones), so their argument types read "mood".
 */

/**
 * Relations of the schema ($1): what each supports (insert, update, delete) and whether the role ($2)
 * has any privilege on it (PostgREST lists only those; which privilege does not change the document).
 */
export const PGRST_RELATIONS_SQL = `
SELECT c.oid::int8 AS id, c.relname AS name, c.relkind::text AS kind, d.description,
  c.relkind IN ('r', 'p') OR (u.events & 8) = 8 AS insertable,
  c.relkind IN ('r', 'p') OR (u.events & 4) = 4 AS updatable,
  c.relkind IN ('r', 'p') OR (u.events & 16) = 16 AS deletable,
  pg_has_role($2::name, c.relowner, 'USAGE')
    OR has_table_privilege($2::name, c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
    OR has_any_column_privilege($2::name, c.oid, 'SELECT, INSERT, UPDATE, REFERENCES') AS accessible
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
CROSS JOIN LATERAL (SELECT CASE WHEN ${CAN_ASK_UPDATABLE} THEN pg_relation_is_updatable(c.oid::regclass, true) ELSE 0 END AS events) u
LEFT JOIN pg_description d ON d.objoid = c.oid AND d.classoid = 'pg_class'::regclass AND d.objsubid = 0
WHERE n.nspname = $1 AND c.relkind IN ('v', 'r', 'm', 'f', 'p') AND NOT c.relispartition
ORDER BY c.relname`

/**
 * Columns of the schema's relations. data_type: a domain over a catalog type reads as its base type;
 * catalog types without their modifiers ("character varying"); other types qualified, with modifiers.
 * Defaults: a domain's own default wins; identity BY DEFAULT reads nextval('<sequence>'); stored
 * generated columns have none.
 */
export const PGRST_COLUMNS_SQL = `
SELECT a.attrelid::int8 AS table_id, a.attnum AS position, a.attname AS name, d.description,
  CASE
    WHEN t.typbasetype <> 0 THEN pg_get_expr(t.typdefaultbin, 0)
    WHEN a.attidentity = 'd' THEN format('nextval(%s)', quote_literal(seqns.nspname || '.' || seq.relname))
    WHEN a.attgenerated = 's' THEN NULL
    ELSE pg_get_expr(ad.adbin, ad.adrelid)::text
  END AS column_default,
  NOT (a.attnotnull OR (t.typtype = 'd' AND t.typnotnull)) AS nullable,
  CASE
    WHEN t.typtype = 'd' THEN CASE WHEN nbt.nspname = 'pg_catalog' THEN format_type(t.typbasetype, NULL) ELSE format_type(a.atttypid, a.atttypmod) END
    ELSE CASE WHEN nt.nspname = 'pg_catalog' THEN format_type(a.atttypid, NULL) ELSE format_type(a.atttypid, a.atttypmod) END
  END AS data_type,
  CASE
    WHEN tm.typmod = -1 THEN NULL
    WHEN tm.typid IN (1042, 1043) THEN tm.typmod - 4
    WHEN tm.typid IN (1560, 1562) THEN tm.typmod
  END AS max_length,
  COALESCE(bt.typname, t.typname)::text AS udt_name
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_type t ON t.oid = a.atttypid
JOIN pg_namespace nt ON nt.oid = t.typnamespace
LEFT JOIN (pg_type bt JOIN pg_namespace nbt ON nbt.oid = bt.typnamespace) ON t.typtype = 'd' AND bt.oid = t.typbasetype
CROSS JOIN LATERAL (SELECT
  CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE a.atttypid END AS typid,
  CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END AS typmod) tm
LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
LEFT JOIN pg_description d ON d.objoid = a.attrelid AND d.classoid = 'pg_class'::regclass AND d.objsubid = a.attnum
LEFT JOIN pg_depend dep ON a.attidentity = 'd' AND dep.refclassid = 'pg_class'::regclass AND dep.refobjid = a.attrelid
  AND dep.refobjsubid = a.attnum AND dep.deptype = 'i' AND dep.classid = 'pg_class'::regclass
LEFT JOIN pg_class seq ON seq.oid = dep.objid
LEFT JOIN pg_namespace seqns ON seqns.oid = seq.relnamespace
WHERE n.nspname = $1 AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'v', 'f', 'm', 'p')
ORDER BY a.attrelid, a.attnum`

/** Enum labels by type name (PostgREST matches a column's udt name against enum type names). */
export const PGRST_ENUMS_SQL = `
SELECT t.typname::text AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
GROUP BY t.oid, t.typname ORDER BY t.oid`

/**
 * Primary keys and foreign keys of the whole database (views can expose tables of other schemas),
 * with their columns in key order. Foreign keys cloned onto partitions are left out.
 */
export const PGRST_KEYS_SQL = `
WITH con AS (
  SELECT con.oid, con.conname, con.contype, con.conrelid, con.confrelid, con.conkey, con.confkey
  FROM pg_constraint con
  WHERE con.contype = 'p' OR (con.contype = 'f' AND con.conparentid = 0)
),
cols AS (
  SELECT con.oid, array_agg(sa.attnum::int ORDER BY k.ord) AS nums, array_agg(sa.attname::text ORDER BY k.ord) AS names,
    array_agg(ta.attnum::int ORDER BY k.ord) AS target_nums, array_agg(ta.attname::text ORDER BY k.ord) AS target_names
  FROM con
  CROSS JOIN LATERAL unnest(con.conkey, con.confkey) WITH ORDINALITY AS k(num, target_num, ord)
  JOIN pg_attribute sa ON sa.attrelid = con.conrelid AND sa.attnum = k.num
  LEFT JOIN pg_attribute ta ON ta.attrelid = con.confrelid AND ta.attnum = k.target_num
  GROUP BY con.oid
)
SELECT con.conname AS name, con.contype::text AS type,
  con.conrelid::int8 AS table_id, sn.nspname AS table_schema, sc.relname AS table_name, sc.relkind::text AS table_kind,
  con.confrelid::int8 AS target_id, tn.nspname AS target_schema, tc.relname AS target_name,
  cols.nums, cols.names, cols.target_nums, cols.target_names
FROM con
JOIN cols ON cols.oid = con.oid
JOIN pg_class sc ON sc.oid = con.conrelid
JOIN pg_namespace sn ON sn.oid = sc.relnamespace
LEFT JOIN pg_class tc ON tc.oid = con.confrelid
LEFT JOIN pg_namespace tn ON tn.oid = tc.relnamespace
ORDER BY sc.oid, con.conname`

/** View definitions of the exposed and extra schemas ($1), for their columns' origins. */
export const PGRST_VIEWS_SQL = `
SELECT c.oid::int8 AS id, n.nspname AS schema, c.relname AS name, r.ev_action::text AS action
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_rewrite r ON r.ev_class = c.oid AND r.rulename = '_RETURN'
WHERE c.relkind IN ('v', 'm') AND n.nspname = ANY($1)`

/**
 * Functions of the schema ($1) the role ($2) may execute. Arguments pair proargnames, proargtypes and
 * proargmodes position by position (as PostgREST does); an argument is required when no default covers
 * it; a function with unnamed arguments is callable only through a single json/jsonb/text/bytea/xml one.
 */
export const PGRST_FUNCTIONS_SQL = `
WITH args AS (
  SELECT p.oid,
    pg_catalog.array_agg(coalesce(a.name, '') ORDER BY a.idx) AS names,
    pg_catalog.array_agg(a.type::regtype::text ORDER BY a.idx) AS types,
    pg_catalog.array_agg(a.idx <= (p.pronargs - p.pronargdefaults) ORDER BY a.idx) AS required,
    pg_catalog.array_agg(coalesce(a.mode = 'v', false) ORDER BY a.idx) AS variadic,
    CASE pg_catalog.count(*) - pg_catalog.count(a.name)
      WHEN 0 THEN true
      WHEN 1 THEN (pg_catalog.array_agg(a.type))[1] IN ('pg_catalog.bytea'::regtype, 'pg_catalog.json'::regtype, 'pg_catalog.jsonb'::regtype, 'pg_catalog.text'::regtype, 'pg_catalog.xml'::regtype)
      ELSE false
    END AS callable
  FROM pg_catalog.pg_proc p
  JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace
  -- unnest with several arrays is FROM-clause syntax and takes no schema; this query runs as the read-only role.
  CROSS JOIN LATERAL unnest(p.proargnames, p.proargtypes, p.proargmodes) WITH ORDINALITY AS a(name, type, mode, idx)
  WHERE pn.nspname = $1 AND a.type IS NOT NULL
  GROUP BY p.oid
)
SELECT p.oid::int8 AS id, p.proname AS name, d.description, p.provolatile::text AS volatility,
  coalesce(args.names, '{}') AS arg_names, coalesce(args.types, '{}') AS arg_types,
  coalesce(args.required, '{}') AS arg_required, coalesce(args.variadic, '{}') AS arg_variadic
FROM pg_catalog.pg_proc p
JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace
LEFT JOIN args ON args.oid = p.oid
LEFT JOIN pg_catalog.pg_description d ON d.objoid = p.oid AND d.classoid = 'pg_catalog.pg_proc'::regclass AND d.objsubid = 0
WHERE pn.nspname = $1 AND p.prokind = 'f' AND p.prorettype <> 'pg_catalog.trigger'::regtype
  AND coalesce(args.callable, true) AND pg_catalog.has_function_privilege($2::name, p.oid, 'EXECUTE')
ORDER BY p.proname, p.oid`

export const PGRST_SCHEMA_SQL = `
SELECT d.description FROM pg_namespace n
LEFT JOIN pg_description d ON d.objoid = n.oid AND d.classoid = 'pg_namespace'::regclass AND d.objsubid = 0
WHERE n.nspname = $1`
