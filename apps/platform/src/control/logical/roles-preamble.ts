import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { isProjectPostgrestSetting } from '../../services/rest/role-settings.js'
import { AUTHENTICATOR_ROLE, EDITOR_ROLE, PLATFORM_MANAGED_ROLES, READONLY_ROLE, REALTIME_ADMIN_ROLE, REPLICATION_ROLE } from '../bootstrap-roles.js'

/** Roles every instance is created with (bootstrap-roles.ts): the target has its own, keep them. */
const INSTANCE_ROLES = ['anon', 'authenticated', 'service_role', 'authenticator', READONLY_ROLE, EDITOR_ROLE, REALTIME_ADMIN_ROLE, REPLICATION_ROLE]

/** Settings whose value is a list written as SQL (e.g. search_path = "$user", public). */
const LIST_SETTINGS = new Set(['search_path', 'temp_tablespaces', 'session_preload_libraries', 'local_preload_libraries'])

interface RoleRow {
  rolname: string
  rolsuper: boolean
  rolinherit: boolean
  rolcreaterole: boolean
  rolcreatedb: boolean
  rolcanlogin: boolean
  rolreplication: boolean
  rolbypassrls: boolean
  rolconnlimit: number
  rolvaliduntil: string | null
  rolpassword: string | null
}

/**
 * SQL that creates the roles a database dump refers to but a fresh instance lacks.
 *
 * pg_dump dumps one database; roles belong to the cluster (pg_dumpall --globals-only would dump
 * them, and this toolchain has no pg_dumpall). Since the dump keeps ownership and GRANTs, a role a
 * user created with CREATE ROLE would make the restore stop at the first `OWNER TO` naming it. So
 * the dump starts with those roles: created only when missing, with their attributes, password
 * verifier (SCRAM verifiers carry over between majors, so logins keep working after an upgrade),
 * memberships and role-wide settings. The instance's own roles and the superuser are left to the
 * target, which has its own passwords for them, but for the PostgREST settings the project set on authenticator
 * (postgrestSettings).
 */
export async function rolesPreamble(client: pg.Client): Promise<string> {
  return (await customRoles(client)) + (await postgrestSettings(client))
}

/**
 * The PostgREST settings the project set on authenticator (services/rest/role-settings.ts), which an upgrade or a
 * restore must keep: only those a project may set, with values PostgREST reads (a key the platform owns, or a value
 * that would stop PostgREST, is not carried), applied when the target has authenticator (a plain Postgres has not).
 */
async function postgrestSettings(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ everywhere: boolean; setconfig: string[] }>(
    `SELECT s.setdatabase = 0 AS everywhere, s.setconfig
       FROM pg_catalog.pg_db_role_setting s JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
      WHERE r.rolname = $1 AND s.setdatabase IN (0, (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database()))
      ORDER BY 1 DESC`,
    [AUTHENTICATOR_ROLE],
  )
  const statements: string[] = []
  for (const { everywhere, setconfig } of rows) {
    for (const entry of setconfig) {
      const at = entry.indexOf('=')
      const [key, value] = [entry.slice(0, at), entry.slice(at + 1)]
      if (!isProjectPostgrestSetting(key, value)) continue
      const scope = everywhere ? '' : ' IN DATABASE %I'
      statements.push(
        `EXECUTE pg_catalog.format(${client.escapeLiteral(`ALTER ROLE %I${scope} SET ${key} TO %L`)}, ${client.escapeLiteral(AUTHENTICATOR_ROLE)}${everywhere ? '' : ', pg_catalog.current_database()'}, ${client.escapeLiteral(value)});`,
      )
    }
  }
  if (statements.length === 0) return ''
  // The superuser runs this block when restoring: its dollar quote must not occur in the values it quotes.
  let tag = '$stratum$'
  while (statements.some((statement) => statement.includes(tag))) tag = `$stratum_${randomBytes(6).toString('hex')}$`
  return [
    '--',
    '-- PostgREST settings the project set on authenticator (Stratum)',
    '--',
    `DO ${tag} BEGIN IF EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = ${client.escapeLiteral(AUTHENTICATOR_ROLE)}) THEN`,
    ...statements.map((statement) => `  ${statement}`),
    `END IF; END ${tag};`,
    '',
    '',
  ].join('\n')
}

async function customRoles(client: pg.Client): Promise<string> {
  const ident = (name: string) => client.escapeIdentifier(name)
  const literal = (value: string) => client.escapeLiteral(value)
  const { rows: me } = await client.query<{ name: string; superuser: boolean }>(
    'SELECT current_user AS name, rolsuper AS superuser FROM pg_catalog.pg_roles WHERE rolname = current_user',
  )
  const self = me[0]!
  // The dumping superuser (supabase_admin) owns the platform's schemas: a plain Postgres that a
  // backup is restored into gets it as a role without rights, so that ownership restores.
  const excluded = INSTANCE_ROLES
  // Password verifiers are in pg_authid, which only a superuser may read.
  const password = self.superuser ? '(SELECT a.rolpassword FROM pg_catalog.pg_authid a WHERE a.oid = r.oid)' : 'NULL'
  const { rows: roles } = await client.query<RoleRow>(
    `SELECT r.rolname, r.rolsuper, r.rolinherit, r.rolcreaterole, r.rolcreatedb, r.rolcanlogin, r.rolreplication,
            r.rolbypassrls, r.rolconnlimit, r.rolvaliduntil::text AS rolvaliduntil, ${password} AS rolpassword
       FROM pg_catalog.pg_roles r
      WHERE r.rolname !~ '^pg_' AND NOT (r.rolname = ANY ($1))
      ORDER BY r.rolname`,
    [excluded],
  )
  if (roles.length === 0) return ''
  const names = roles.map((role) => role.rolname)
  const { rows: memberships } = await client.query<{ role: string; member: string; admin_option: boolean }>(
    `SELECT g.rolname AS role, m.rolname AS member, am.admin_option
       FROM pg_catalog.pg_auth_members am
       JOIN pg_catalog.pg_roles g ON g.oid = am.roleid
       JOIN pg_catalog.pg_roles m ON m.oid = am.member
      WHERE g.rolname = ANY ($1) OR m.rolname = ANY ($1)
      ORDER BY 1, 2`,
    [names],
  )
  const { rows: settings } = await client.query<{ rolname: string; setconfig: string[] }>(
    `SELECT r.rolname, s.setconfig
       FROM pg_catalog.pg_db_role_setting s JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
      WHERE s.setdatabase = 0 AND r.rolname = ANY ($1)
      ORDER BY 1`,
    [names],
  )

  const flag = (on: boolean, name: string) => (on ? name : `NO${name}`)
  const lines = ['--', '-- Roles this database refers to (Stratum): created when the instance lacks them', '--', '']
  for (const role of roles) {
    const name = ident(role.rolname)
    lines.push(
      `DO $stratum$ BEGIN IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = ${literal(role.rolname)}) ` +
        `THEN CREATE ROLE ${name}; END IF; END $stratum$;`,
    )
    if (role.rolname === self.name) continue // only created (above), never altered: the target's own superuser
    const attributes = [
      flag(role.rolsuper, 'SUPERUSER'),
      flag(role.rolinherit, 'INHERIT'),
      flag(role.rolcreaterole, 'CREATEROLE'),
      flag(role.rolcreatedb, 'CREATEDB'),
      flag(role.rolcanlogin, 'LOGIN'),
      flag(role.rolreplication, 'REPLICATION'),
      flag(role.rolbypassrls, 'BYPASSRLS'),
      `CONNECTION LIMIT ${role.rolconnlimit}`,
    ]
    if (role.rolpassword) attributes.push(`PASSWORD ${literal(role.rolpassword)}`)
    if (role.rolvaliduntil) attributes.push(`VALID UNTIL ${literal(role.rolvaliduntil)}`)
    // A role that is a superuser in the target (the `postgres` of a plain Postgres that a backup
    // is restored into) keeps what it has: demoting the restoring superuser would break the restore.
    lines.push(
      `DO $stratum$ BEGIN IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = ${literal(role.rolname)}) ` +
        `THEN ALTER ROLE ${name} WITH ${attributes.join(' ').replace(/\$stratum\$/g, '')}; END IF; END $stratum$;`,
    )
  }
  // Memberships among the platform's own roles are the target's bootstrap's business.
  const managed = (name: string) => name.startsWith('pg_') || PLATFORM_MANAGED_ROLES.includes(name)
  for (const { role, member, admin_option } of memberships) {
    if (managed(role) && managed(member)) continue
    lines.push(`GRANT ${ident(role)} TO ${ident(member)}${admin_option ? ' WITH ADMIN OPTION' : ''};`)
  }
  for (const { rolname, setconfig } of settings) {
    for (const entry of setconfig) {
      const at = entry.indexOf('=')
      const [setting, value] = [entry.slice(0, at), entry.slice(at + 1)]
      const sqlValue = LIST_SETTINGS.has(setting) ? value : literal(value)
      // Names as the catalog holds them (custom ones contain a dot, which quoting would swallow).
      const sqlName = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(setting) ? setting : ident(setting)
      lines.push(`ALTER ROLE ${ident(rolname)} SET ${sqlName} TO ${sqlValue};`)
    }
  }
  return lines.join('\n') + '\n\n'
}
