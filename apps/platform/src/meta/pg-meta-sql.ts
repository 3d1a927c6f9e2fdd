/**
 * The catalog queries behind `GET /platform/pg-meta/{ref}/tables` (and views, materialized views,
 * foreign tables). A handful of set-based queries over pg_catalog, each answering for every relation at
 * once: no per-table query, no correlated subquery per column. $1 = schemas to include (null: all),
 * $2 = schemas to exclude.
 */

/**
 * pg_relation_is_updatable and pg_column_is_updatable raise an error for a foreign table whose wrapper
 * has no handler: ask them only about views and foreign tables that have one. `c` is the pg_class alias.
 */
export const CAN_ASK_UPDATABLE = `(c.relkind = 'v' OR (c.relkind = 'f' AND EXISTS (
  SELECT FROM pg_foreign_table ft JOIN pg_foreign_server fs ON fs.oid = ft.ftserver
  JOIN pg_foreign_data_wrapper fdw ON fdw.oid = fs.srvfdw WHERE ft.ftrelid = c.oid AND fdw.fdwhandler <> 0)))`

/**
 * Which schemas a query covers: `n` is the pg_namespace alias, $1 and $2 the included and excluded schemas
 * (pg-meta.ts schemaFilter). Shared by every pg-meta listing (pg-meta-*.ts).
 */
export const SCHEMA_FILTER = `($1::text[] IS NULL OR n.nspname = ANY($1)) AND NOT (n.nspname = ANY($2)) AND NOT pg_catalog.pg_is_other_temp_schema(n.oid)`

export const RELATIONS_SQL = `
SELECT c.oid::int8 AS id, n.nspname AS schema, c.relname AS name, c.relkind::text AS kind,
  c.relrowsecurity AS rls_enabled, c.relforcerowsecurity AS rls_forced,
  CASE c.relreplident WHEN 'd' THEN 'DEFAULT' WHEN 'i' THEN 'INDEX' WHEN 'f' THEN 'FULL' ELSE 'NOTHING' END AS replica_identity,
  d.description AS comment,
  CASE WHEN c.relkind = 'v' THEN (pg_relation_is_updatable(c.oid, false) & 20) = 20 END AS is_updatable,
  c.relispopulated AS is_populated
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_description d ON d.objoid = c.oid AND d.classoid = 'pg_class'::regclass AND d.objsubid = 0
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND ${SCHEMA_FILTER}
ORDER BY n.nspname, c.relname`

/** Columns as information_schema.columns describes them, plus the pg-meta extras. */
export const COLUMNS_SQL = `
SELECT a.attrelid::int8 AS table_id, a.attnum AS ordinal_position, a.attname AS name,
  CASE WHEN a.atthasdef THEN pg_get_expr(ad.adbin, ad.adrelid) END AS default_value,
  CASE
    WHEN t.typtype = 'd' THEN CASE
      WHEN bt.typelem <> 0 AND bt.typlen = -1 THEN 'ARRAY'
      WHEN nbt.nspname = 'pg_catalog' THEN format_type(t.typbasetype, NULL)
      ELSE 'USER-DEFINED' END
    ELSE CASE
      WHEN t.typelem <> 0 AND t.typlen = -1 THEN 'ARRAY'
      WHEN nt.nspname = 'pg_catalog' THEN format_type(a.atttypid, NULL)
      ELSE 'USER-DEFINED' END
  END AS data_type,
  COALESCE(bt.typname, t.typname) AS format,
  a.attidentity::text AS identity,
  a.attgenerated::text AS generated,
  NOT (a.attnotnull OR (t.typtype = 'd' AND t.typnotnull)) AS is_nullable,
  CASE WHEN c.relkind IN ('r', 'p') THEN true
       WHEN ${CAN_ASK_UPDATABLE} THEN pg_column_is_updatable(c.oid, a.attnum, false)
       ELSE false END AS is_updatable,
  COALESCE(bt.oid, t.oid)::int8 AS type_id,
  COALESCE(bt.typelem, t.typelem)::int8 AS element_type_id,
  d.description AS comment
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_type t ON t.oid = a.atttypid
JOIN pg_namespace nt ON nt.oid = t.typnamespace
LEFT JOIN (pg_type bt JOIN pg_namespace nbt ON nbt.oid = bt.typnamespace) ON t.typtype = 'd' AND bt.oid = t.typbasetype
LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
LEFT JOIN pg_description d ON d.objoid = a.attrelid AND d.classoid = 'pg_class'::regclass AND d.objsubid = a.attnum
WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND ${SCHEMA_FILTER}
ORDER BY a.attrelid, a.attnum`

/**
 * Primary keys, single-column unique and check constraints of the covered relations, and every foreign
 * key whose source or target is covered, with column names resolved in key order.
 */
export const CONSTRAINTS_SQL = `
WITH con AS (
  SELECT con.oid, con.conname, con.contype, con.conrelid, con.confrelid, con.conkey, con.confkey,
    con.confdeltype, con.confupdtype, con.conbin, sn.nspname AS table_schema, sc.relname AS table_name,
    tn.nspname AS target_schema, tc.relname AS target_name
  FROM pg_constraint con
  JOIN pg_class sc ON sc.oid = con.conrelid
  JOIN pg_namespace sn ON sn.oid = sc.relnamespace
  LEFT JOIN pg_class tc ON tc.oid = con.confrelid
  LEFT JOIN pg_namespace tn ON tn.oid = tc.relnamespace
  WHERE con.contype IN ('p', 'u', 'c', 'f')
    AND (con.contype IN ('p', 'f') OR cardinality(con.conkey) = 1)
    AND (
      EXISTS (SELECT FROM pg_namespace n WHERE n.oid = sn.oid AND ${SCHEMA_FILTER})
      OR (con.contype = 'f' AND EXISTS (SELECT FROM pg_namespace n WHERE n.oid = tn.oid AND ${SCHEMA_FILTER}))
    )
),
keys AS (
  SELECT con.oid, array_agg(sa.attname::text ORDER BY k.ord) AS columns, array_agg(ta.attname::text ORDER BY k.ord) AS target_columns
  FROM con
  CROSS JOIN LATERAL unnest(con.conkey, con.confkey) WITH ORDINALITY AS k(num, target_num, ord)
  JOIN pg_attribute sa ON sa.attrelid = con.conrelid AND sa.attnum = k.num
  LEFT JOIN pg_attribute ta ON ta.attrelid = con.confrelid AND ta.attnum = k.target_num
  GROUP BY con.oid
)
SELECT con.oid::int8 AS id, con.conname AS name, con.contype::text AS type,
  con.conrelid::int8 AS table_id, con.table_schema, con.table_name,
  con.confrelid::int8 AS target_id, con.target_schema, con.target_name,
  keys.columns, keys.target_columns, con.conkey[1] AS first_column, cardinality(con.conkey) AS column_count,
  con.confdeltype::text AS deletion_action, con.confupdtype::text AS update_action,
  CASE WHEN con.contype = 'c' AND cardinality(con.conkey) = 1 THEN pg_get_constraintdef(con.oid, true) END AS check_expression
FROM con JOIN keys ON keys.oid = con.oid
ORDER BY con.oid`

export const ENUMS_SQL = `
SELECT enumtypid::int8 AS type_id, array_agg(enumlabel::text ORDER BY enumsortorder) AS labels
FROM pg_enum GROUP BY enumtypid`

/** Sizes and row estimates move without DDL: read apart from the cached structure, for the covered tables. */
export const TABLE_STATS_SQL = `
SELECT c.oid::int8 AS id, s.bytes, pg_size_pretty(s.bytes) AS size,
  pg_stat_get_live_tuples(c.oid) AS live_rows_estimate, pg_stat_get_dead_tuples(c.oid) AS dead_rows_estimate
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
CROSS JOIN LATERAL (SELECT pg_total_relation_size(c.oid) AS bytes) s
WHERE c.relkind IN ('r', 'p') AND ${SCHEMA_FILTER}`
