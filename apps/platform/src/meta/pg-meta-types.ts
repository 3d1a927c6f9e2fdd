import type { PgMetaType } from '@stratum/contracts'
import { catalogRows, pageClause, schemaListParams, type SchemaListOptions } from './pg-meta-list.js'
import { SCHEMA_FILTER } from './pg-meta-sql.js'
import type { Queryable } from './queryable.js'

export interface TypeListOptions extends SchemaListOptions {
  /** The array type beside each type. */
  includeArrayTypes?: boolean
  /** Row types of tables, views, materialized views and partitioned tables (composite types always). */
  includeTableTypes?: boolean
}

/**
 * Types as `GET /platform/pg-meta/{ref}/types` answers them: base, enum, domain, range and composite types (a
 * relation's row type only when asked), with enum labels in order and a composite type's fields. $5: row types of
 * relations too; $6: array types too.
 */
const TYPES_SQL = `
SELECT t.oid::int8 AS id, t.typname AS name, n.nspname AS schema,
  pg_catalog.format_type(t.oid, NULL) AS format,
  COALESCE((SELECT pg_catalog.jsonb_agg(e.enumlabel ORDER BY e.enumsortorder) FROM pg_catalog.pg_enum e WHERE e.enumtypid = t.oid), '[]'::jsonb) AS enums,
  COALESCE((SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('name', a.attname, 'type_id', a.atttypid::int8) ORDER BY a.attnum)
    FROM pg_catalog.pg_attribute a WHERE rel.relkind = 'c' AND a.attrelid = rel.oid AND a.attnum > 0 AND NOT a.attisdropped), '[]'::jsonb) AS attributes,
  d.description AS comment,
  NULLIF(t.typrelid, 0)::int8 AS type_relation_id
FROM pg_catalog.pg_type t
JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
LEFT JOIN pg_catalog.pg_class rel ON rel.oid = t.typrelid
LEFT JOIN pg_catalog.pg_description d ON d.objoid = t.oid AND d.classoid = 'pg_catalog.pg_type'::pg_catalog.regclass AND d.objsubid = 0
WHERE (t.typrelid = 0 OR rel.relkind = 'c' OR ($5::bool AND rel.relkind IN ('r', 'v', 'm', 'p')))
  AND ($6::bool OR NOT EXISTS (SELECT FROM pg_catalog.pg_type el WHERE el.oid = t.typelem AND el.typarray = t.oid))
  AND ${SCHEMA_FILTER}
ORDER BY n.nspname, t.typname
${pageClause(3)}`

export function listPgMetaTypes(db: Queryable, options: TypeListOptions = {}): Promise<PgMetaType[]> {
  return catalogRows<PgMetaType>(db, TYPES_SQL, [...schemaListParams(options), options.includeTableTypes ?? false, options.includeArrayTypes ?? false])
}
