import type { OrgRole } from '@stratum/contracts'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { api, login, memberWithRole, startTestPlatform, waitForStatus, type TestPlatform } from './harness.js'

/**
 * Tenant escape: what a member can try through the SQL editor's query route, as each member role,
 * on the read-only and the full connection, on Postgres 15 and 17. Every attempt must be refused by
 * Postgres itself (an SQLSTATE in the answer), and the platform must keep running its own work
 * afterwards. docs/ARCHITECTURE.md "Isolation between projects".
 */
const ATTEMPTS: Array<{ what: string; sql: string }> = [
  { what: 'run a program with COPY', sql: `COPY (SELECT 1) TO PROGRAM 'id > /tmp/stratum-escaped'` },
  { what: 'read a program with COPY', sql: `CREATE TEMP TABLE out_t(line text); COPY out_t FROM PROGRAM 'cat /etc/passwd'` },
  { what: 'read a server file', sql: `SELECT pg_read_file('/etc/passwd')` },
  { what: 'read a data file', sql: `SELECT pg_read_binary_file('global/pg_control')` },
  { what: 'list the data directory', sql: `SELECT pg_ls_dir('.')` },
  { what: 'import a file as a large object', sql: `SELECT lo_import('/etc/passwd')` },
  { what: 'copy a server file into a table', sql: `CREATE TEMP TABLE in_t(line text); COPY in_t FROM '/etc/passwd'` },
  { what: 'write a server file', sql: `COPY (SELECT 'x') TO '/tmp/stratum-escaped'` },
  { what: 'create an untrusted language', sql: `CREATE LANGUAGE plperlu` },
  { what: 'create a C function', sql: `CREATE FUNCTION escape_c() RETURNS int LANGUAGE c AS '/lib/x86_64-linux-gnu/libc.so.6', 'getpid'` },
  { what: 'create an untrusted extension', sql: `CREATE EXTENSION plpython3u` },
  { what: 'create dblink', sql: `CREATE EXTENSION dblink` },
  { what: 'create postgres_fdw', sql: `CREATE EXTENSION postgres_fdw` },
  { what: 'create file_fdw', sql: `CREATE EXTENSION file_fdw` },
  { what: 'change the server configuration', sql: `ALTER SYSTEM SET archive_command = 'id'` },
  { what: 'load a library', sql: `LOAD 'auto_explain'` },
  { what: 'preload a library for the database', sql: `ALTER DATABASE postgres SET session_preload_libraries = 'auto_explain'` },
  { what: 'read password verifiers', sql: `SELECT rolname, rolpassword FROM pg_authid` },
  { what: 'take the platform superuser password', sql: `ALTER ROLE supabase_admin PASSWORD 'taken-over'` },
  { what: 'become the platform superuser', sql: `SET ROLE supabase_admin` },
  { what: 'become the platform superuser by session', sql: `SET SESSION AUTHORIZATION supabase_admin` },
  { what: 'make postgres a superuser', sql: `ALTER ROLE postgres SUPERUSER` },
  { what: 'create a superuser', sql: `CREATE ROLE escapee SUPERUSER LOGIN PASSWORD 'x'` },
  { what: 'grant program execution', sql: `GRANT pg_execute_server_program TO postgres` },
  { what: 'grant server file reads', sql: `GRANT pg_read_server_files TO postgres` },
  { what: "change the API login's password", sql: `ALTER ROLE authenticator PASSWORD 'taken-over'` },
  { what: "drop the editor's read-only role", sql: `DROP ROLE stratum_readonly` },
  { what: "change the editor login's settings", sql: `ALTER ROLE stratum_editor SET role = 'anon'` },
  { what: 'create an event trigger', sql: `CREATE OR REPLACE FUNCTION et() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN END $$; CREATE EVENT TRIGGER et ON ddl_command_start EXECUTE FUNCTION et()` },
  // A session of the platform's superuser is kept open during the attempts (see below).
  { what: "end the platform's sessions", sql: `SELECT pg_terminate_backend(pid) FROM (SELECT pid FROM pg_stat_activity WHERE application_name = 'platform-session' OFFSET 0) s` },
  { what: 'reload the server configuration', sql: `SELECT pg_reload_conf()` },
]

/** Postgres's answers to a refused attempt: insufficient privilege, read-only transaction, feature not allowed, unknown object. */
const REFUSED_CODES = ['42501', '25006', '0A000', '42704', '58P01', '22023']

const ROLES: OrgRole[] = ['owner', 'administrator', 'developer', 'read_only']

let t: TestPlatform
let cookie: string
let orgSlug: string
const members = new Map<OrgRole, { token: string }>()

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  for (const role of ROLES) members.set(role, await memberWithRole(t, orgSlug, role))
})
afterAll(() => t?.cleanup())

describe.each(['15', '17'] as const)('tenant escape on Postgres %s', (major) => {
  let ref: string
  let port: number

  beforeAll(async () => {
    const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: `Escape ${major}`, organization_slug: orgSlug, db_pass: 'escape-password-1', postgres_engine: major })
    expect(created.status).toBe(201)
    ref = created.body.ref
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
    port = (await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body.db_port
  })

  it.each(ROLES)('refuses every attempt of a %s member, on each connection it may use', async (role) => {
    const caller = members.get(role)!
    const row = (await t.platform.ctx.db.query('SELECT * FROM projects WHERE ref = $1', [ref])).rows[0]
    const platformSession = new pg.Client({ ...t.platform.ctx.projects.adminConnection(row), application_name: 'platform-session' })
    platformSession.on('error', () => {})
    await platformSession.connect()
    onTestFinished(() => platformSession.end().catch(() => {}))
    const connections = role === 'read_only' ? [true] : [true, false]
    const successes: string[] = []
    for (const readOnly of connections) {
      for (const attempt of ATTEMPTS) {
        const result = await api(t, 'POST', `/platform/pg-meta/${ref}/query`, caller, { query: attempt.sql, read_only: readOnly })
        const code = result.body?.error?.code as string | undefined
        if (result.status === 201 || !code || !REFUSED_CODES.includes(code)) {
          successes.push(`${attempt.what} (${readOnly ? 'read-only' : 'full'}): ${result.status} ${code ?? ''} ${result.body?.message ?? ''}`)
        }
      }
    }
    expect(successes).toEqual([])
    expect((await platformSession.query('select 1 as alive')).rows).toEqual([{ alive: 1 }])
  })

  it('keeps the platform in control after the attempts: a user password change locks nothing out', async () => {
    // The user may change their own password; the platform's connections do not depend on it.
    const changed = await api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query: `ALTER ROLE postgres PASSWORD 'user-chosen-2'`, read_only: false })
    expect(changed.status).toBe(201)
    const who = await api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query: 'select current_user as who, session_user as login', read_only: false })
    expect(who.body.results[0].rows).toEqual([{ who: 'postgres', login: 'stratum_editor' }])
    const reset = await api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query: 'RESET ROLE; select current_user as who', read_only: false })
    expect(reset.body.results.at(-1).rows).toEqual([{ who: 'postgres' }])

    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'user-chosen-2', database: 'postgres' })
    client.on('error', () => {})
    await client.connect()
    try {
      expect((await client.query('select rolsuper from pg_roles where rolname = current_user')).rows[0].rolsuper).toBe(false)
    } finally {
      await client.end()
    }

    // The platform's own operations still run: a restart goes through and the project is healthy.
    const restart = await api(t, 'POST', `/platform/projects/${ref}/restart`, { cookie }, {})
    expect(restart.status, JSON.stringify(restart.body)).toBeLessThan(300)
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
    const after = await api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query: 'select 1 as ok' })
    expect(after.body.results[0].rows).toEqual([{ ok: 1 }])
    const tables = await api(t, 'GET', `/platform/pg-meta/${ref}/tables`, { cookie })
    expect(tables.status).toBe(200)
  })
})
