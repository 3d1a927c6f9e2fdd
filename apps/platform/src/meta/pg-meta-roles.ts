import type { PgMetaRole } from '@stratum/contracts'
import { catalogRows, pageClause, pageParams, settingsObject, type PageOptions } from './pg-meta-list.js'
import type { Queryable } from './queryable.js'

export interface RoleListOptions extends PageOptions {
  /** The predefined pg_* roles. */
  includeDefaultRoles?: boolean
}

/**
 * Roles as `GET /platform/pg-meta/{ref}/roles` answers them, read from pg_roles: its password column is the mask
 * '********' for every role (pg_authid, which holds the verifiers, is never read), and its settings are the
 * role's own (not per-database ones). active_connections counts the role's sessions in pg_stat_activity.
 * $1: the pg_* roles too.
 */
const ROLES_SQL = `
SELECT r.oid::int8 AS id, r.rolname AS name, r.rolsuper AS is_superuser, r.rolcreatedb AS can_create_db,
  r.rolcreaterole AS can_create_role, r.rolinherit AS inherit_role, r.rolcanlogin AS can_login,
  r.rolreplication AS is_replication_role, r.rolbypassrls AS can_bypass_rls,
  COALESCE(s.sessions, 0) AS active_connections,
  CASE WHEN r.rolconnlimit = -1 THEN pg_catalog.current_setting('max_connections')::int8 ELSE r.rolconnlimit END AS connection_limit,
  '********' AS password,
  r.rolvaliduntil::text AS valid_until,
  ${settingsObject('r.rolconfig')} AS config
FROM pg_catalog.pg_roles r
LEFT JOIN (SELECT a.usesysid, pg_catalog.count(*) AS sessions FROM pg_catalog.pg_stat_activity a GROUP BY a.usesysid) s ON s.usesysid = r.oid
WHERE $1::bool OR NOT pg_catalog.starts_with(r.rolname, 'pg_')
ORDER BY r.rolname
${pageClause(2)}`

export function listPgMetaRoles(db: Queryable, options: RoleListOptions = {}): Promise<PgMetaRole[]> {
  return catalogRows<PgMetaRole>(db, ROLES_SQL, [options.includeDefaultRoles ?? false, ...pageParams(options)])
}
