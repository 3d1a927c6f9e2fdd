import { quoteLiteral } from '@stratum/sql'

/**
 * What postgres-meta's shapes leave out, read on the read-only connection through the SQL route (as the table
 * editor reads its catalog): one statement, one row, one json column `data`. Catalog names are schema-qualified
 * so a tenant's function on the search path cannot stand in for them.
 */

/** Per index of a schema: its table, size on disk and the scans that used it (pg_stat_user_indexes.idx_scan). */
export function indexStatsQuery(schema: string): string {
  return `SELECT coalesce(pg_catalog.json_agg(pg_catalog.json_build_object(
  'id', i.indexrelid::int8, 'name', ic.relname, 'table', tc.relname,
  'size_bytes', pg_catalog.pg_relation_size(i.indexrelid), 'size', pg_catalog.pg_size_pretty(pg_catalog.pg_relation_size(i.indexrelid)),
  'scans', coalesce(pg_catalog.pg_stat_get_numscans(i.indexrelid), 0),
  'constraint', (SELECT c.contype FROM pg_catalog.pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x') LIMIT 1)
)), '[]') AS data
FROM pg_catalog.pg_index i
JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
JOIN pg_catalog.pg_class tc ON tc.oid = i.indrelid
JOIN pg_catalog.pg_namespace n ON n.oid = ic.relnamespace
WHERE n.nspname = ${quoteLiteral(schema)}`
}

/**
 * Each role's memberships, and whether the `postgres` role (the one users act as) may change it: Postgres 16+ lets
 * a CREATEROLE role alter or drop only roles it holds ADMIN OPTION on, which are the ones it created; never a
 * superuser, a REPLICATION role, or the platform's and Postgres's own roles.
 */
export const ROLE_CATALOG_QUERY = `SELECT pg_catalog.json_build_object(
  'can_create_roles', coalesce((SELECT r.rolcreaterole FROM pg_catalog.pg_roles r WHERE r.rolname = 'postgres'), false),
  'roles', coalesce((SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
    'name', r.rolname, 'connection_limit', r.rolconnlimit,
    'member_of', coalesce((SELECT pg_catalog.json_agg(g.rolname ORDER BY g.rolname) FROM pg_catalog.pg_auth_members m
      JOIN pg_catalog.pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid), '[]'),
    'manageable', NOT r.rolsuper AND NOT r.rolreplication AND r.rolname <> 'postgres'
      AND coalesce((SELECT p.rolcreaterole FROM pg_catalog.pg_roles p WHERE p.rolname = 'postgres'), false)
      AND pg_catalog.pg_has_role('postgres', r.oid, 'MEMBER WITH ADMIN OPTION')
  ) ORDER BY r.rolname) FROM pg_catalog.pg_roles r WHERE NOT pg_catalog.starts_with(r.rolname, 'pg_')), '[]')
) AS data`

/**
 * What one role is granted directly in one schema: USAGE on the schema, and on each table, view or materialized
 * view the privileges granted to it by name (not through PUBLIC or membership), read from the ACLs; and whether it
 * reaches the schema at all (USAGE through PUBLIC, as `public` gives it, or through a role it belongs to).
 */
export function roleGrantsQuery(role: string, schema: string): string {
  const grantee = `(SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = ${quoteLiteral(role)})`
  return `SELECT pg_catalog.json_build_object(
  'usage', coalesce((SELECT pg_catalog.bool_or(a.privilege_type = 'USAGE') FROM pg_catalog.pg_namespace n,
    pg_catalog.aclexplode(coalesce(n.nspacl, pg_catalog.acldefault('n', n.nspowner))) a
    WHERE n.nspname = ${quoteLiteral(schema)} AND a.grantee = ${grantee}), false),
  'usage_effective', coalesce((SELECT pg_catalog.has_schema_privilege(r.oid, n.oid, 'USAGE') FROM pg_catalog.pg_namespace n, pg_catalog.pg_roles r
    WHERE n.nspname = ${quoteLiteral(schema)} AND r.rolname = ${quoteLiteral(role)}), false),
  'tables', coalesce((SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
      'id', c.oid::int8, 'name', c.relname,
      'privileges', coalesce((SELECT pg_catalog.json_agg(DISTINCT a.privilege_type)
        FROM pg_catalog.aclexplode(coalesce(c.relacl, pg_catalog.acldefault('r', c.relowner))) a WHERE a.grantee = ${grantee}), '[]')
    ) ORDER BY c.relname)
    FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${quoteLiteral(schema)} AND c.relkind IN ('r', 'p', 'v', 'm', 'f')), '[]')
) AS data`
}
