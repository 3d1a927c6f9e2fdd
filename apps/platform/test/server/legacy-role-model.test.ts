import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFreePort } from '../../src/control/ports.js'
import { projectOsUser } from '../../src/control/os-user.js'
import { PostgresServer, platformHba } from '../../src/control/postgres-server.js'
import { newProjectRef } from '../../src/control/project-store.js'
import { api, login, startTestPlatform, waitForStatus, type TestPlatform } from './harness.js'

/**
 * A project made by a version before the role model (its `postgres` the bootstrap superuser, the
 * way 0.1 made it) moves over at the next boot, losing nothing: data, ownership, the user's
 * password; and `postgres` stops being a superuser.
 */
const USER_PASSWORD = 'old-way-password-1'
let t: TestPlatform
let cookie: string
let ref: string
let port: number

/** What 0.1's bootstrap-roles.ts made, then a user's objects made as the superuser. */
const OLD_BOOTSTRAP = `
CREATE ROLE anon NOLOGIN NOINHERIT; CREATE ROLE authenticated NOLOGIN NOINHERIT;
CREATE ROLE service_role NOLOGIN NOINHERIT BYPASSRLS; CREATE ROLE authenticator LOGIN NOINHERIT PASSWORD 'old-auth';
CREATE ROLE stratum_readonly LOGIN PASSWORD 'old-ro'; ALTER ROLE stratum_readonly SET default_transaction_read_only = on;
GRANT pg_read_all_data TO stratum_readonly; ALTER ROLE stratum_readonly BYPASSRLS;
GRANT anon, authenticated, service_role TO authenticator; GRANT USAGE ON SCHEMA public TO anon, authenticated, service_role;
CREATE SCHEMA shop;
CREATE TYPE shop.mood AS ENUM ('happy', 'sad');
CREATE DOMAIN shop.positive AS int CHECK (VALUE > 0);
CREATE TABLE shop.orders (id serial PRIMARY KEY, qty shop.positive, mood shop.mood);
INSERT INTO shop.orders (qty, mood) SELECT i, 'happy' FROM generate_series(1, 500) i;
CREATE TABLE public.notes (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text);
INSERT INTO public.notes (body) VALUES ('kept');
CREATE SEQUENCE public.tickets;
CREATE VIEW public.note_bodies AS SELECT body FROM public.notes;
CREATE MATERIALIZED VIEW shop.totals AS SELECT count(*) AS n FROM shop.orders;
CREATE FUNCTION public.add(a int, b int) RETURNS int LANGUAGE sql AS 'SELECT a + b';
CREATE EXTENSION pgcrypto;
`

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  const org = (await t.platform.ctx.db.query('SELECT id FROM organizations LIMIT 1')).rows[0]
  ref = newProjectRef()
  port = await findFreePort(t.config.projectPortStart + 50)
  // The instance, made the old way: initdb with `postgres` as the superuser.
  const server = new PostgresServer(path.join(t.dataDir, 'projects', ref), '17', projectOsUser(ref))
  await server.init('postgres', USER_PASSWORD)
  server.writeSettings({ port, listen_addresses: 'localhost', unix_socket_directories: '', password_encryption: 'scram-sha-256' }, platformHba(false))
  await server.start()
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: USER_PASSWORD, database: 'postgres' })
  client.on('error', () => {})
  await client.connect()
  await client.query(OLD_BOOTSTRAP)
  await client.end()
  // Its record, as 0.1 kept it: the user's password sealed, no platform credentials.
  const seal = (value: string) => t.platform.ctx.secrets.seal(value)
  await t.platform.ctx.db.query(
    `INSERT INTO projects (ref, organization_id, name, status, postgres_major, postgres_version, compute_size, port,
       db_password_sealed, readonly_password_sealed, authenticator_password_sealed)
     VALUES ($1, $2, 'Old way', 'ACTIVE_HEALTHY', '17', '17', 'micro', $3, $4, $5, $6)`,
    [ref, org.id, port, seal(USER_PASSWORD), seal('old-ro'), seal('old-auth')],
  )
  // The new version boots on the same data directory.
  await t.platform.close()
  await t.restart()
  cookie = await login(t)
})
afterAll(() => t?.cleanup())

async function asUser<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: USER_PASSWORD, database: 'postgres' })
  client.on('error', () => {})
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

describe('a project made before the role model', () => {
  it('moves over at boot: postgres is no longer a superuser, keeps its password and owns its objects', async () => {
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
    const row = (await t.platform.ctx.db.query('SELECT role_model, db_password_sealed FROM projects WHERE ref = $1', [ref])).rows[0]
    expect(row).toEqual({ role_model: 2, db_password_sealed: null })
    await asUser(async (client) => {
      expect((await client.query('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows[0].rolsuper).toBe(false)
      expect((await client.query('SELECT count(*)::int AS n, sum(qty)::int AS total FROM shop.orders')).rows[0]).toEqual({ n: 500, total: 125250 })
      expect((await client.query('SELECT body FROM public.note_bodies')).rows).toEqual([{ body: 'kept' }])
      expect((await client.query('SELECT public.add(2, 3) AS sum')).rows[0].sum).toBe(5)
      expect((await client.query("SELECT nextval('public.tickets')::int AS n")).rows[0].n).toBe(1)
      expect((await client.query('SELECT n::int FROM shop.totals')).rows[0].n).toBe(500)
      // The user can change what they made, as its owner.
      await client.query('ALTER TABLE shop.orders ADD COLUMN note text')
      await client.query("ALTER TYPE shop.mood ADD VALUE 'calm'")
      await client.query('REFRESH MATERIALIZED VIEW shop.totals')
      await client.query('INSERT INTO public.notes (body) VALUES ($1)', ['new'])
      const owners = await client.query(`SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('public', 'shop')`)
      expect(owners.rows).toEqual([{ owner: 'postgres' }])
      // The platform's superuser exists; verifiers stay out of reach.
      await expect(client.query('SELECT rolpassword FROM pg_authid')).rejects.toMatchObject({ code: '42501' })
      // 0.1 made the read-only role a member of pg_read_all_data, which reads them: the move revoked it.
      expect((await client.query("SELECT pg_has_role('stratum_readonly', 'pg_read_all_data', 'MEMBER') AS member")).rows[0].member).toBe(false)
    })
  })

  it('serves the SQL editor on both connections, with the API grants of a new project', async () => {
    const run = (query: string, readOnly: boolean) => api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query, read_only: readOnly })
    expect((await run('SELECT count(*)::int AS n FROM shop.orders', true)).body.results[0].rows).toEqual([{ n: 500 }])
    expect((await run('SELECT current_user AS who', false)).body.results[0].rows).toEqual([{ who: 'postgres' }])
    const grants = await run(`SELECT has_table_privilege('anon', 'public.notes', 'SELECT') AS anon_reads`, true)
    expect(grants.body.results[0].rows).toEqual([{ anon_reads: true }])
    const authUid = await run('SELECT auth.uid() AS uid', true)
    expect(authUid.body.results[0].rows).toEqual([{ uid: null }])
  })
})
