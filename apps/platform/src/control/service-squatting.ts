import type pg from 'pg'
import { ADMIN_ROLE } from './bootstrap-roles.js'

/**
 * A service's schema and roles arrive in a project that existed before the service: its tenant may have made a schema
 * or a role of that name first (`postgres` may create schemas, and roles on Postgres 16+, where it then holds ADMIN on
 * them). Whatever it owns or administers there (a column default, a trigger, a domain, a membership) would run its code
 * when the platform's superuser writes those tables. So the platform refuses to install the service there, saying why,
 * rather than adopting the tenant's objects.
 */
export async function refuseTenantSquatting(
  client: pg.Client,
  service: string,
  /** Each schema the service installs, with the roles that may own it. */
  schemas: Array<{ name: string; owners: string[] }>,
  /** The roles the service creates: nobody may be a member of them or administer them before it does. */
  roles: string[],
): Promise<void> {
  for (const schema of schemas) {
    const { rows } = await client.query<{ owner: string }>(
      'SELECT pg_catalog.pg_get_userbyid(n.nspowner) AS owner FROM pg_catalog.pg_namespace n WHERE n.nspname = $1::text',
      [schema.name],
    )
    const owner = rows[0]?.owner
    if (owner !== undefined && owner !== ADMIN_ROLE && !schema.owners.includes(owner)) {
      throw new Error(`The ${schema.name} schema belongs to ${owner}, not the platform: ${service} cannot be installed in this project`)
    }
  }
  const { rows } = await client.query<{ role: string; member: string }>(
    `SELECT r.rolname AS role, pg_catalog.pg_get_userbyid(m.member) AS member
       FROM pg_catalog.pg_roles r JOIN pg_catalog.pg_auth_members m ON m.roleid = r.oid
      WHERE r.rolname = ANY ($1::text[])`,
    [roles],
  )
  if (rows[0]) throw new Error(`The role ${rows[0].role} is held by ${rows[0].member}, not made by the platform: ${service} cannot be installed in this project`)
}
