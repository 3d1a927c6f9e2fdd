import type { PgMetaIndex } from '@stratum/contracts'
import { catalogRows, pageClause, schemaListParams, type SchemaListOptions } from './pg-meta-list.js'
import { SCHEMA_FILTER } from './pg-meta-sql.js'
import type { Queryable } from './queryable.js'

/**
 * Indexes of tables, materialized views and partitioned tables (those pg_indexes shows) as
 * `GET /platform/pg-meta/{ref}/indexes` answers them. index_attributes are the index's own columns, every one.
 * (postgres-meta 0.99 pairs the index's column numbers with the table's, so it leaves out the columns, or the
 * whole index, whose position in the index is not a column number of the key: an index on a table's third
 * column alone, or on an expression. Here every index and column is listed; where postgres-meta lists one, the
 * fields are the same.)
 */
const INDEXES_SQL = `
SELECT i.indexrelid::int8 AS id, i.indrelid::int8 AS table_id, n.nspname AS schema,
  i.indnatts AS number_of_attributes, i.indnkeyatts AS number_of_key_attributes,
  i.indisunique AS is_unique, i.indisprimary AS is_primary, i.indisexclusion AS is_exclusion,
  i.indimmediate AS is_immediate, i.indisclustered AS is_clustered, i.indisvalid AS is_valid,
  i.indcheckxmin AS check_xmin, i.indisready AS is_ready, i.indislive AS is_live, i.indisreplident AS is_replica_identity,
  i.indkey::int2[] AS key_attributes, i.indcollation::int4[] AS collation, i.indclass::int4[] AS class, i.indoption::int2[] AS options,
  i.indpred::text AS index_predicate,
  d.description AS comment,
  pg_catalog.pg_get_indexdef(i.indexrelid) AS index_definition,
  am.amname AS access_method,
  COALESCE((SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
      'attribute_number', a.attnum, 'attribute_name', a.attname, 'data_type', pg_catalog.format_type(a.atttypid, a.atttypmod)
    ) ORDER BY a.attnum)
    FROM pg_catalog.pg_attribute a WHERE a.attrelid = i.indexrelid AND a.attnum > 0), '[]'::jsonb) AS index_attributes
FROM pg_catalog.pg_index i
JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
JOIN pg_catalog.pg_class tc ON tc.oid = i.indrelid
JOIN pg_catalog.pg_namespace n ON n.oid = ic.relnamespace
JOIN pg_catalog.pg_am am ON am.oid = ic.relam
LEFT JOIN pg_catalog.pg_description d ON d.objoid = i.indexrelid AND d.classoid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.objsubid = 0
WHERE tc.relkind IN ('r', 'm', 'p') AND ic.relkind IN ('i', 'I') AND ${SCHEMA_FILTER}
ORDER BY n.nspname, tc.relname, ic.relname
${pageClause(3)}`

export function listPgMetaIndexes(db: Queryable, options: SchemaListOptions = {}): Promise<PgMetaIndex[]> {
  return catalogRows<PgMetaIndex>(db, INDEXES_SQL, schemaListParams(options))
}
