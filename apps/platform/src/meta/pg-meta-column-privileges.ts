import type { PgMetaColumnPrivileges } from '@stratum/contracts'
import { catalogRows, pageClause, schemaListParams, type SchemaListOptions } from './pg-meta-list.js'
import { SCHEMA_FILTER } from './pg-meta-sql.js'
import type { Queryable } from './queryable.js'

/**
 * Each column's privileges as `GET /platform/pg-meta/{ref}/column-privileges` answers them, as
 * information_schema.column_privileges computes them for a superuser, materialized views included: what is
 * granted on the whole relation (its ACL, or its owner's defaults) and on the column itself, each distinct
 * grant once; grantee 'PUBLIC' for everyone. A column nobody holds a privilege on is not listed.
 */
const COLUMN_PRIVILEGES_SQL = `
WITH cols AS (
  SELECT c.oid AS relid, n.nspname, c.relname, c.relowner, c.relacl, a.attnum, a.attname, a.attacl
  FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p') AND ${SCHEMA_FILTER}
),
grants AS (
  SELECT cols.relid, cols.attnum, acl.grantor, acl.grantee, acl.privilege_type, acl.is_grantable
  FROM cols, pg_catalog.aclexplode(COALESCE(cols.relacl, pg_catalog.acldefault('r'::pg_catalog."char", cols.relowner))) acl
  UNION
  SELECT cols.relid, cols.attnum, acl.grantor, acl.grantee, acl.privilege_type, acl.is_grantable
  FROM cols, pg_catalog.aclexplode(COALESCE(cols.attacl, pg_catalog.acldefault('c'::pg_catalog."char", cols.relowner))) acl
),
privileges AS (
  SELECT g.relid, g.attnum, pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
      'grantor', grantor.rolname, 'grantee', COALESCE(grantee.rolname, 'PUBLIC'),
      'privilege_type', g.privilege_type, 'is_grantable', g.is_grantable
    ) ORDER BY grantee.rolname NULLS FIRST, g.privilege_type, grantor.rolname, g.is_grantable) AS list
  FROM grants g
  JOIN pg_catalog.pg_roles grantor ON grantor.oid = g.grantor
  LEFT JOIN pg_catalog.pg_roles grantee ON grantee.oid = g.grantee
  WHERE g.privilege_type IN ('INSERT', 'SELECT', 'UPDATE', 'REFERENCES') AND (g.grantee = 0 OR grantee.oid IS NOT NULL)
  GROUP BY g.relid, g.attnum
)
SELECT pg_catalog.concat(cols.relid::int8, '.', cols.attnum) AS column_id, cols.nspname AS relation_schema,
  cols.relname AS relation_name, cols.attname AS column_name, p.list AS privileges
FROM cols
JOIN privileges p ON p.relid = cols.relid AND p.attnum = cols.attnum
ORDER BY cols.nspname, cols.relname, cols.attnum
${pageClause(3)}`

export function listPgMetaColumnPrivileges(db: Queryable, options: SchemaListOptions = {}): Promise<PgMetaColumnPrivileges[]> {
  return catalogRows<PgMetaColumnPrivileges>(db, COLUMN_PRIVILEGES_SQL, schemaListParams(options))
}
