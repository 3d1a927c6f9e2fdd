import { createHmac } from 'node:crypto'
import pg from 'pg'
import type { InstanceCredentials } from './instance-provider.js'
import { ADMIN_ROLE, PRIVILEGED_SEARCH_PATH, PRIVILEGED_SESSION_OPTIONS } from './platform-superuser.js'
import { inClientTransaction } from '../store/db.js'
import { openProjectSession, withProjectSession } from './project-connections.js'

/**
 * The roles of a project database, as Supabase projects have them (DESIGN.md "Isolation"):
 *
 * - ADMIN_ROLE: the platform's own superuser (bootstrap, extensions, lifecycle, upgrade,
 *   introspection). Its password is sealed in the platform database and never shown to anyone.
 * - USER_ROLE (`postgres`): what users and the SQL editor's full connection get. Not a superuser:
 *   CREATEDB, BYPASSRLS, CREATEROLE from Postgres 16 on (see createRoleAllowed), never REPLICATION.
 * - EDITOR_ROLE: the login of the SQL editor's full connection. It has no rights of its own and acts
 *   as `postgres` (role set at connection start), so a user who changes the `postgres` password in
 *   SQL does not cut the platform off, and RESET ROLE only ever falls back to a powerless login.
 * - READONLY_ROLE: the SQL editor's first try; reads the user's data (SELECT on what `postgres` and
 *   the platform create, through default privileges; never pg_authid) and cannot write.
 * - anon, authenticated, service_role (BYPASSRLS) and authenticator (LOGIN NOINHERIT): the API roles.
 * - AUTH_ADMIN_ROLE: the auth service's login (services/auth); owns the `auth` schema's tables and
 *   nothing else, as on Supabase.
 */
// The platform's superuser and its pinned search_path live beside the connections that enforce it.
export { ADMIN_ROLE, PRIVILEGED_SEARCH_PATH, PRIVILEGED_SESSION_OPTIONS }
export const USER_ROLE = 'postgres'
export const EDITOR_ROLE = 'stratum_editor'
export const READONLY_ROLE = 'stratum_readonly'
export const AUTH_ADMIN_ROLE = 'supabase_auth_admin'
/** The login of PostgREST and of the storage service: it switches to the caller's API role. */
export const AUTHENTICATOR_ROLE = 'authenticator'
export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const
/** Owns the realtime schema (services/realtime/schema.ts), as on Supabase; `postgres` is a member, to write its policies. */
export const REALTIME_ADMIN_ROLE = 'supabase_realtime_admin'
/**
 * Realtime's change stream logs in as this: REPLICATION and nothing else (it owns nothing, is granted nothing), from
 * this machine only (hba.ts), with a password derived from the superuser's like the auth service's.
 */
export const REPLICATION_ROLE = 'supabase_replication_admin'
/** Owns the `net` schema (services/net/schema.ts): no login, and no tenant is a member, so nobody else can put triggers on its queue. */
export const NET_OWNER_ROLE = 'stratum_net'
/** Owns `supabase_functions` (database webhooks) as on Supabase; may call net.http_* and nothing more. */
export const FUNCTIONS_ADMIN_ROLE = 'supabase_functions_admin'
/** pg_cron's jobs run over this login, which holds nothing but EXECUTE on each job's function (services/cron). */
export const CRON_RUNNER_ROLE = 'stratum_cron'
/** Roles the platform creates and manages in every instance. */
export const PLATFORM_MANAGED_ROLES = [
  ADMIN_ROLE, USER_ROLE, EDITOR_ROLE, READONLY_ROLE, AUTH_ADMIN_ROLE, ...API_ROLES, AUTHENTICATOR_ROLE, REALTIME_ADMIN_ROLE, REPLICATION_ROLE,
  NET_OWNER_ROLE, FUNCTIONS_ADMIN_ROLE, CRON_RUNNER_ROLE,
]

/**
 * The auth service's password, derived from the instance's sealed superuser password: nothing more
 * to store or rotate, and nobody who lacks the superuser password can compute it.
 */
export const authAdminPassword = (adminPassword: string): string =>
  createHmac('sha256', adminPassword).update(AUTH_ADMIN_ROLE).digest('base64url')

/** The replication login's password, derived the same way. */
export const replicationPassword = (adminPassword: string): string =>
  createHmac('sha256', adminPassword).update(REPLICATION_ROLE).digest('base64url')

/**
 * Realtime's two roles: made with every instance, and again by realtime itself in projects made before them.
 * The one REPLICATION role a project has (revokeTenantReplication spares it): its sessions are the platform's.
 */
export async function bootstrapRealtimeRoles(client: pg.Client, adminPassword: string): Promise<void> {
  const roles: Array<[string, string]> = [
    [REALTIME_ADMIN_ROLE, 'NOLOGIN NOINHERIT NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS'],
    [REPLICATION_ROLE, `LOGIN NOINHERIT NOSUPERUSER NOCREATEROLE NOCREATEDB REPLICATION NOBYPASSRLS PASSWORD ${client.escapeLiteral(replicationPassword(adminPassword))}`],
  ]
  for (const [name, attributes] of roles) {
    await client.query(
      `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = ${client.escapeLiteral(name)}) THEN CREATE ROLE ${name}; END IF; END $$`,
    )
    await client.query(`ALTER ROLE ${name} WITH ${attributes}`)
  }
  await client.query(`GRANT ${REALTIME_ADMIN_ROLE} TO ${USER_ROLE}`)
}

/**
 * Up to Postgres 15, CREATEROLE may grant membership in any non-superuser role, including
 * pg_execute_server_program and pg_read_server_files: a way to the host. Supabase closes that with
 * its supautils extension, which these builds lack; so on 15 `postgres` gets no CREATEROLE. From 16
 * on, CREATEROLE only manages roles its holder created, and `postgres` has it as on Supabase.
 */
export const createRoleAllowed = (serverVersionNum: number): boolean => serverVersionNum >= 160000


export interface AdminConnection {
  host: string
  port: number
  user: string
  password: string
  database: string
  /** Startup options: always PRIVILEGED_SESSION_OPTIONS. */
  options: string
}

export const adminConnection = (port: number, password: string, database = 'postgres'): AdminConnection => ({
  host: '127.0.0.1',
  port,
  user: ADMIN_ROLE,
  password,
  database,
  options: PRIVILEGED_SESSION_OPTIONS,
})

/** A platform login that is no superuser, and the role it acts as (`-c role=...`), for inLoginTransaction. */
export interface TenantSafeLogin {
  user: string
  password: string
  options?: string
}

/**
 * Runs fn in a transaction of a session of its own, logged in as `login` on the server `admin` is connected to. For
 * what the platform must read or write in relations a tenant owns or can change (auth's and storage's bookkeeping,
 * bucket rows): a tenant can turn such a table into a view, or give it triggers, rules or policies, whose functions
 * run as whoever reads or writes it. Never a role SET over the superuser's own session: SET ROLE is checked against
 * the session's login, so tenant code run that way gets the superuser back with RESET ROLE (or RESET SESSION
 * AUTHORIZATION). Here the way back leads to a login without rights of its own.
 */
export async function inLoginTransaction<T>(admin: pg.Client, login: TenantSafeLogin, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const target = { host: admin.host, port: admin.port, database: admin.database ?? 'postgres', user: login.user, password: login.password, options: login.options }
  return withProjectSession(target, (client) => inClientTransaction(client, () => fn(client)))
}

/** The login that acts as `postgres` (the SQL editor's): RESET ROLE there falls back to a login with no rights. */
export const ownerLogin = (editorPassword: string): TenantSafeLogin => ({ user: EDITOR_ROLE, password: editorPassword, options: `-c role=${USER_ROLE}` })

/** Opens a session as the platform's superuser, runs fn, always closes. */
export function withAdminClient<T>(connection: AdminConnection, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  return withProjectSession(connection, fn)
}

/**
 * Cluster-wide roles: created when missing, attributes and platform passwords set every time (safe
 * to run again). The `postgres` password is set only when one is given (at creation): afterwards
 * it belongs to the user, who may change it.
 */
export async function bootstrapClusterRoles(client: pg.Client, credentials: InstanceCredentials): Promise<void> {
  const literal = (value: string) => client.escapeLiteral(value)
  const { rows } = await client.query<{ num: string }>(`SELECT current_setting('server_version_num') AS num`)
  const modern = createRoleAllowed(Number(rows[0]!.num))
  const roles: Array<[string, string]> = [
    // Never REPLICATION: a replication connection (even `replication=database`, which pg_hba matches as
    // an ordinary database) can run BASE_BACKUP and receive the whole data directory: server.key,
    // pg_authid's verifiers. Tenants' own roles lose it too (revokeTenantReplication).
    [USER_ROLE, `LOGIN INHERIT NOSUPERUSER ${modern ? 'CREATEROLE' : 'NOCREATEROLE'} NOREPLICATION CREATEDB BYPASSRLS`],
    ['anon', 'NOLOGIN NOINHERIT'],
    ['authenticated', 'NOLOGIN NOINHERIT'],
    ['service_role', 'NOLOGIN NOINHERIT BYPASSRLS'],
    ['authenticator', 'LOGIN NOINHERIT NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS'],
    [EDITOR_ROLE, 'LOGIN NOINHERIT NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS'],
    // BYPASSRLS: the editor's first try reads what the owner would (a table must not look empty).
    [READONLY_ROLE, 'LOGIN INHERIT NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION BYPASSRLS'],
    [AUTH_ADMIN_ROLE, 'LOGIN NOINHERIT NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS'],
  ]
  for (const [name, attributes] of roles) {
    await client.query(
      `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = ${literal(name)}) THEN CREATE ROLE ${client.escapeIdentifier(name)}; END IF; END $$`,
    )
    await client.query(`ALTER ROLE ${client.escapeIdentifier(name)} WITH ${attributes}`)
  }
  await bootstrapRealtimeRoles(client, credentials.adminPassword)
  await hardenPrivilegedRoles(client)
  if (credentials.initialUserPassword) await client.query(`ALTER ROLE ${USER_ROLE} WITH PASSWORD ${literal(credentials.initialUserPassword)}`)
  await client.query(`ALTER ROLE authenticator WITH PASSWORD ${literal(credentials.authenticatorPassword)}`)
  await client.query(`ALTER ROLE ${EDITOR_ROLE} WITH PASSWORD ${literal(credentials.editorPassword)}`)
  await client.query(`ALTER ROLE ${READONLY_ROLE} WITH PASSWORD ${literal(credentials.readonlyPassword)}`)
  await client.query(`ALTER ROLE ${AUTH_ADMIN_ROLE} WITH PASSWORD ${literal(authAdminPassword(credentials.adminPassword))}`)
  await client.query(`ALTER ROLE ${AUTH_ADMIN_ROLE} SET search_path = auth`)
  // Even a function that tries to write fails on this role: reads are all it can do.
  await client.query(`ALTER ROLE ${READONLY_ROLE} SET default_transaction_read_only = on`)
  // Not pg_read_all_data: it reads pg_authid (password verifiers) too. The read-only role gets
  // SELECT on what the owner and the platform create (bootstrapNewDatabase's default privileges).
  // Revoked only where an earlier version granted it: revoking a membership never granted writes a
  // WARNING, which would be the first thing a new project's Postgres log shows.
  const { rows: readAllMembers } = await client.query<{ member: string }>(
    `SELECT pg_get_userbyid(member) AS member FROM pg_auth_members WHERE roleid = 'pg_read_all_data'::regrole AND pg_get_userbyid(member) IN (${literal(READONLY_ROLE)}, ${literal(USER_ROLE)})`,
  )
  for (const { member } of readAllMembers) await client.query(`REVOKE pg_read_all_data FROM ${client.escapeIdentifier(member)}`)
  await client.query(`GRANT ${USER_ROLE} TO ${EDITOR_ROLE}`)
  await client.query('GRANT anon, authenticated, service_role TO authenticator')
  // As on Supabase: the owner sees every session and its statistics, can end non-superuser
  // sessions, and may switch to the API roles to try its policies.
  await client.query(`GRANT pg_monitor, pg_signal_backend TO ${USER_ROLE}`)
  await client.query(`GRANT anon, authenticated, service_role TO ${USER_ROLE}`)
  // Dropping a trigger needs the table's owner: without supautils (Supabase's way to allow it), the
  // owner role is given to `postgres`, so `drop trigger ... on auth.users` works as users expect.
  await client.query(`GRANT ${AUTH_ADMIN_ROLE} TO ${USER_ROLE}`)
}

/**
 * What an instance made by an earlier version lacks (role model 2; run at creation and at the next
 * boot of older projects): the superuser's own search_path pinned, and no REPLICATION for tenants.
 */
export async function hardenPrivilegedRoles(client: pg.Client): Promise<void> {
  await client.query(`ALTER ROLE ${ADMIN_ROLE} SET search_path = ${PRIVILEGED_SEARCH_PATH}`)
  await revokeTenantReplication(client)
}

/**
 * Roles a tenant made while `postgres` still had REPLICATION (earlier versions, Postgres 16+) lose it,
 * and physical replication slots are dropped: none of the platform's lives beyond its own session.
 * Superusers (the platform's own) keep theirs.
 */
async function revokeTenantReplication(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ rolname: string }>(
    'SELECT rolname FROM pg_catalog.pg_roles WHERE rolreplication AND NOT rolsuper AND rolname <> $1',
    [REPLICATION_ROLE],
  )
  for (const { rolname } of rows) await client.query(`ALTER ROLE ${client.escapeIdentifier(rolname)} WITH NOREPLICATION`)
  await client.query(
    `SELECT pg_catalog.pg_drop_replication_slot(slot_name) FROM pg_catalog.pg_replication_slots
      WHERE slot_type = 'physical' AND NOT temporary AND NOT active`,
  )
}

/**
 * What a database needs that a dump does not carry (database-level grants and settings): run at
 * creation and again after an upgrade's restore. Idempotent.
 */
export async function bootstrapDatabaseEssentials(client: pg.Client): Promise<void> {
  const database = client.escapeIdentifier((await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db)
  await client.query(`GRANT CONNECT, CREATE, TEMPORARY ON DATABASE ${database} TO ${USER_ROLE}`)
  await client.query(`ALTER DATABASE ${database} SET search_path TO "$user", public, extensions`)
}

/**
 * The schemas and functions a new project database starts with, as on Supabase: `public` owned by
 * `postgres` with the default privileges that put every table it creates in the API roles' reach,
 * an `extensions` schema, and an `auth` schema with auth.uid(), auth.role() and auth.jwt() reading
 * the claims PostgREST sets (`request.jwt.claims`). Run once at creation: default privileges a
 * user later revokes stay revoked.
 */
export async function bootstrapNewDatabase(client: pg.Client): Promise<void> {
  await bootstrapDatabaseEssentials(client)
  const api = API_ROLES.join(', ')
  await client.query(`
    ALTER SCHEMA public OWNER TO ${USER_ROLE};
    GRANT USAGE ON SCHEMA public TO ${api};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${USER_ROLE} IN SCHEMA public GRANT ALL ON TABLES TO ${api};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${USER_ROLE} IN SCHEMA public GRANT ALL ON SEQUENCES TO ${api};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${USER_ROLE} IN SCHEMA public GRANT ALL ON FUNCTIONS TO ${api};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${ADMIN_ROLE} IN SCHEMA public GRANT ALL ON TABLES TO ${api};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${ADMIN_ROLE} IN SCHEMA public GRANT ALL ON SEQUENCES TO ${api};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${ADMIN_ROLE} IN SCHEMA public GRANT ALL ON FUNCTIONS TO ${api};

    GRANT USAGE ON SCHEMA public TO ${READONLY_ROLE};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${USER_ROLE} GRANT USAGE ON SCHEMAS TO ${READONLY_ROLE};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${USER_ROLE} GRANT SELECT ON TABLES TO ${READONLY_ROLE};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${USER_ROLE} GRANT SELECT ON SEQUENCES TO ${READONLY_ROLE};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${ADMIN_ROLE} GRANT USAGE ON SCHEMAS TO ${READONLY_ROLE};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${ADMIN_ROLE} GRANT SELECT ON TABLES TO ${READONLY_ROLE};
    ALTER DEFAULT PRIVILEGES FOR ROLE ${ADMIN_ROLE} GRANT SELECT ON SEQUENCES TO ${READONLY_ROLE};

    CREATE SCHEMA IF NOT EXISTS extensions;
    GRANT USAGE ON SCHEMA extensions TO ${READONLY_ROLE};
    GRANT USAGE, CREATE ON SCHEMA extensions TO ${USER_ROLE};
    GRANT USAGE ON SCHEMA extensions TO ${api};

    CREATE SCHEMA IF NOT EXISTS auth;
    GRANT USAGE ON SCHEMA auth TO ${USER_ROLE}, ${READONLY_ROLE}, ${api};
    CREATE OR REPLACE FUNCTION auth.jwt() RETURNS jsonb LANGUAGE sql STABLE AS $fn$
      SELECT coalesce(nullif(current_setting('request.jwt.claim', true), ''), nullif(current_setting('request.jwt.claims', true), ''))::jsonb
    $fn$;
    CREATE OR REPLACE FUNCTION auth.uid() RETURNS uuid LANGUAGE sql STABLE AS $fn$
      SELECT coalesce(nullif(current_setting('request.jwt.claim.sub', true), ''), auth.jwt() ->> 'sub')::uuid
    $fn$;
    CREATE OR REPLACE FUNCTION auth.role() RETURNS text LANGUAGE sql STABLE AS $fn$
      SELECT coalesce(nullif(current_setting('request.jwt.claim.role', true), ''), auth.jwt() ->> 'role')::text
    $fn$;
    GRANT EXECUTE ON FUNCTION auth.jwt(), auth.uid(), auth.role() TO ${USER_ROLE}, ${api};
  `)
}

/** All roles and the new database's schemas: what provisioning a project runs, as the platform's superuser. */
export async function bootstrapInstance(connection: AdminConnection, credentials: InstanceCredentials): Promise<string> {
  return withAdminClient(connection, async (client) => {
    await bootstrapClusterRoles(client, credentials)
    await bootstrapNewDatabase(client)
    return serverVersion(client)
  })
}

/**
 * A copy of a bootstrapped template (instance-templates.ts): everything is in place but the roles' passwords,
 * which are the instance's own.
 */
export async function bootstrapTemplateCopy(
  connection: AdminConnection,
  credentials: InstanceCredentials,
  /** Run first on the same connection (the superuser's own password replacing the template's). */
  before?: (client: pg.Client) => Promise<unknown>,
): Promise<string> {
  return withAdminClient(connection, async (client) => {
    await before?.(client)
    await bootstrapClusterRoles(client, credentials)
    return serverVersion(client)
  })
}

async function serverVersion(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ server_version: string }>('SHOW server_version')
  return rows[0]!.server_version.split(' ')[0]!
}

/** The server refused a login's password (SQLSTATE invalid_password). */
export function passwordRejected(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '28P01'
}

/** True when the instance answers a query as the platform's superuser. */
export async function canConnect(port: number, adminPassword: string, timeoutMs = 5_000): Promise<boolean> {
  try {
    const client = await openProjectSession(adminConnection(port, adminPassword), { connectTimeoutMs: timeoutMs, queryTimeoutMs: timeoutMs })
    try {
      await client.query('SELECT 1')
      return true
    } finally {
      await client.end().catch(() => {})
    }
  } catch {
    return false
  }
}
