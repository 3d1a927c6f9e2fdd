import pg from 'pg'
import {
  ADMIN_ROLE,
  API_ROLES,
  READONLY_ROLE,
  USER_ROLE,
  PRIVILEGED_SESSION_OPTIONS,
  adminConnection,
  bootstrapClusterRoles,
  bootstrapNewDatabase,
  withAdminClient,
} from './bootstrap-roles.js'
import type { InstanceCredentials } from './instance-provider.js'

/**
 * Moves a project made by a version whose `postgres` was the bootstrap superuser to the role model
 * of bootstrap-roles.ts, losing nothing, at boot (or when a paused project is restored).
 *
 * The bootstrap superuser (oid 10) cannot lose SUPERUSER, so it is renamed to supabase_admin and
 * gets the platform's password; a new non-superuser `postgres` gets the user's old password (their
 * connection strings keep working) and the ownership of everything the user made. Each step finds
 * out where the last attempt stopped, so a crash half-way is resumed by running this again:
 * - `postgres` is still the superuser: log in as it (user's password), make a temporary superuser
 *   (the admin password), and as that one rename + re-password in one transaction;
 * - renamed: log in as supabase_admin, drop the temporary role, create `postgres`, bootstrap.
 */
const MIGRATOR_ROLE = 'stratum_role_migrator'

export interface LegacyProject {
  port: number
  /** The old superuser's password: what the user chose at creation. */
  userPassword: string
  credentials: InstanceCredentials
}

export async function convertLegacyRoleModel(project: LegacyProject): Promise<void> {
  const { port, userPassword, credentials } = project
  const adminPassword = credentials.adminPassword
  if (!(await loginWorks(port, ADMIN_ROLE, adminPassword))) {
    if (await loginWorks(port, USER_ROLE, userPassword)) {
      await withClient(port, USER_ROLE, userPassword, async (client) => {
        const literal = client.escapeLiteral(adminPassword)
        await client.query(
          `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${MIGRATOR_ROLE}') THEN CREATE ROLE ${MIGRATOR_ROLE}; END IF; END $$`,
        )
        await client.query(`ALTER ROLE ${MIGRATOR_ROLE} WITH SUPERUSER LOGIN PASSWORD ${literal}`)
      })
    }
    await withClient(port, MIGRATOR_ROLE, adminPassword, async (client) => {
      // Sessions of the old superuser (the platform's pools, users' clients) end first.
      await client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '${USER_ROLE}' AND pid <> pg_backend_pid()`)
      await client.query('BEGIN')
      await client.query(`ALTER ROLE ${USER_ROLE} RENAME TO ${ADMIN_ROLE}`)
      await client.query(`ALTER ROLE ${ADMIN_ROLE} WITH PASSWORD ${client.escapeLiteral(adminPassword)}`)
      await client.query('COMMIT')
    })
  }
  const databases = await withAdminClient(adminConnection(port, adminPassword), async (client) => {
    await client.query(`DROP ROLE IF EXISTS ${MIGRATOR_ROLE}`)
    const exists = await client.query(`SELECT 1 FROM pg_roles WHERE rolname = '${USER_ROLE}'`)
    if (!exists.rowCount) await client.query(`CREATE ROLE ${USER_ROLE} LOGIN PASSWORD ${client.escapeLiteral(userPassword)}`)
    await bootstrapClusterRoles(client, { ...credentials, initialUserPassword: null })
    const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE NOT datistemplate AND datallowconn`)
    return rows.map((r) => r.datname)
  })
  for (const database of databases) {
    await withAdminClient(adminConnection(port, adminPassword, database), async (client) => {
      if (database !== 'postgres') await client.query(`ALTER DATABASE ${client.escapeIdentifier(database)} OWNER TO ${USER_ROLE}`)
      await client.query(GIVE_USER_OBJECTS_TO_POSTGRES)
      await bootstrapNewDatabase(client)
      // New projects give the API roles every table in public through default privileges; the
      // tables that exist already get the same grants once.
      const api = API_ROLES.join(', ')
      await client.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${api};
        GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${api};
        GRANT ALL ON ALL ROUTINES IN SCHEMA public TO ${api}`)
      // The read-only role read everything through pg_read_all_data before; now through grants.
      await client.query(GRANT_READONLY_ON_USER_SCHEMAS)
    })
  }
}

/**
 * Everything the old superuser owned that a user made (oid past the system's, outside the system
 * schemas, not part of an extension) changes owner to `postgres`: schemas, tables, views,
 * materialized and foreign tables (their indexes and owned sequences follow), free sequences,
 * routines, and standalone types and domains.
 */
const GIVE_USER_OBJECTS_TO_POSTGRES = `
DO $$
DECLARE
  admin oid := '${ADMIN_ROLE}'::regrole;
  r record;
BEGIN
  ALTER SCHEMA public OWNER TO ${USER_ROLE};
  FOR r IN
    SELECT n.oid, n.nspname FROM pg_namespace n
     WHERE n.nspowner = admin AND n.oid >= 16384 AND n.nspname NOT LIKE 'pg\\_%'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_namespace'::regclass AND d.objid = n.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER SCHEMA %I OWNER TO ${USER_ROLE}', r.nspname);
  END LOOP;
  FOR r IN
    SELECT c.oid::regclass AS name, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relowner = admin AND c.oid >= 16384 AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${USER_ROLE}',
      CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, r.name);
  END LOOP;
  FOR r IN
    SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relowner = admin AND c.oid >= 16384 AND c.relkind = 'S'
       AND n.nspname NOT IN ('pg_catalog', 'information_schema')
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i', 'e'))
  LOOP
    EXECUTE format('ALTER SEQUENCE %s OWNER TO ${USER_ROLE}', r.name);
  END LOOP;
  FOR r IN
    SELECT p.oid::regprocedure AS signature FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE p.proowner = admin AND p.oid >= 16384
       AND n.nspname NOT IN ('pg_catalog', 'information_schema')
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO ${USER_ROLE}', r.signature);
  END LOOP;
  FOR r IN
    SELECT t.oid::regtype AS name, t.typtype FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE t.typowner = admin AND t.oid >= 16384
       AND n.nspname NOT IN ('pg_catalog', 'information_schema')
       AND (t.typtype IN ('e', 'd', 'r') OR (t.typtype = 'c' AND (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c'))
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${USER_ROLE}', CASE r.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, r.name);
  END LOOP;
END $$`

const GRANT_READONLY_ON_USER_SCHEMAS = `
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT nspname FROM pg_namespace
            WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'
  LOOP
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO ${READONLY_ROLE}', r.nspname);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO ${READONLY_ROLE}', r.nspname);
    EXECUTE format('GRANT SELECT ON ALL SEQUENCES IN SCHEMA %I TO ${READONLY_ROLE}', r.nspname);
  END LOOP;
END $$`

async function withClient<T>(port: number, user: string, password: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  return withAdminClient({ host: '127.0.0.1', port, user, password, database: 'postgres', options: PRIVILEGED_SESSION_OPTIONS }, fn)
}

/**
 * Whether the server accepts this role and password. Only a refused login answers false: any other
 * failure (a server still starting, a busy machine's timeout) is thrown, so the step is retried
 * later instead of being taken for "not this role" and going down the wrong path.
 */
async function loginWorks(port: number, user: string, password: string): Promise<boolean> {
  try {
    await withClient(port, user, password, async () => {})
    return true
  } catch (error) {
    if (LOGIN_REFUSED.has((error as { code?: string }).code ?? '')) return false
    throw error
  }
}

/** invalid_password, invalid_authorization_specification (no such role, or pg_hba refuses it). */
const LOGIN_REFUSED = new Set(['28P01', '28000'])
