import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login, startTestPlatform, tokenFor, waitFor, waitForStatus, ADMIN_EMAIL, type TestPlatform } from './harness.js'

let t: TestPlatform
let cookie: string
let orgSlug: string

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
})
afterAll(() => t?.cleanup())

async function connect(project: { db_host: string; db_port: number; db_user: string; db_name: string }, password: string) {
  const client = new pg.Client({ host: project.db_host, port: project.db_port, user: project.db_user, database: project.db_name, password })
  // A server that goes away (the supervision test kills one) fails the query, not the test run.
  client.on('error', () => {})
  await client.connect()
  return client
}

describe('projects', () => {
  let ref: string

  it('creates a project that reaches ACTIVE_HEALTHY and accepts a Postgres client with the shown details', async () => {
    const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Shop', organization_slug: orgSlug, db_pass: 'shop-password-1' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'Shop', status: 'COMING_UP', postgres_engine: '17', compute_size: 'micro', organization_slug: orgSlug })
    expect(created.body.ref).toMatch(/^[a-z]{20}$/)
    ref = created.body.ref
    // A bound on the wait, not on the speed: creation times belong in the bench.
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 30_000)

    const project = (await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body
    expect(project.dbVersion).toMatch(/^17\.\d+/)
    const client = await connect(project, 'shop-password-1')
    await client.query('CREATE TABLE orders (id serial primary key, item text)')
    await client.query("INSERT INTO orders (item) VALUES ('book')")
    const settings = await client.query("SELECT current_setting('max_connections') AS max_connections, current_setting('shared_buffers') AS shared_buffers")
    expect(settings.rows[0]).toEqual({ max_connections: '60', shared_buffers: '64MB' })
    const roles = await client.query(`SELECT rolname FROM pg_roles WHERE rolname IN ('anon','authenticated','service_role','authenticator','stratum_readonly') ORDER BY 1`)
    expect(roles.rows.map((r) => r.rolname)).toEqual(['anon', 'authenticated', 'authenticator', 'service_role', 'stratum_readonly'])
    await client.end()
  })

  it('forgets the database password once the project is provisioned, and never reveals it', async () => {
    const { rows } = await t.platform.ctx.db.query('SELECT db_password_sealed, admin_password_sealed FROM projects WHERE ref = $1', [ref])
    expect(rows[0].db_password_sealed).toBeNull()
    expect(rows[0].admin_password_sealed).toMatch(/^v1:/)
    expect((await api(t, 'GET', `/platform/projects/${ref}/db-password`, { cookie })).status).toBe(404)
    // The user's postgres is not a superuser; the platform's own superuser is another role.
    const client = await connect((await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body, 'shop-password-1')
    const { rows: me } = await client.query(`SELECT rolsuper, rolcreatedb, rolbypassrls, rolreplication FROM pg_roles WHERE rolname = current_user`)
    expect(me[0]).toEqual({ rolsuper: false, rolcreatedb: true, rolbypassrls: true, rolreplication: false })
    await client.end()
  })

  it('serves the Management API shapes to a token-holding client', async () => {
    const token = await tokenFor(t, ADMIN_EMAIL)
    const orgs = await api(t, 'GET', '/v1/organizations', { token })
    expect(orgs.status).toBe(200)
    expect(orgs.headers.get('content-type')).toContain('application/json')
    expect(orgs.body[0]).toEqual({ id: orgSlug, slug: orgSlug, name: expect.any(String) })

    const created = await api(t, 'POST', '/v1/projects', { token, origin: null }, {
      name: 'Legacy', organization_slug: orgSlug, db_pass: 'legacy-password-1', postgres_engine: '15', region: 'eu-west-1',
    })
    expect(created.status).toBe(201)
    expect(Object.keys(created.body).sort()).toEqual(['created_at', 'id', 'name', 'organization_id', 'organization_slug', 'ref', 'region', 'status'])
    expect(created.body).toMatchObject({ id: created.body.ref, organization_slug: orgSlug, region: 'eu-west-1', status: 'COMING_UP' })
    await waitForStatus(t, created.body.ref, { token }, 'ACTIVE_HEALTHY')

    const one = await api(t, 'GET', `/v1/projects/${created.body.ref}`, { token })
    expect(one.body.database).toMatchObject({ host: 'localhost', postgres_engine: '15', release_channel: 'ga', port: expect.any(Number) })
    expect(one.body.database.version).toMatch(/^15\.\d+/)
    const client = await connect({ db_host: 'localhost', db_port: one.body.database.port, db_user: 'postgres', db_name: 'postgres' }, 'legacy-password-1')
    expect((await client.query('SHOW server_version_num')).rows[0].server_version_num).toMatch(/^15/)
    await client.end()

    const list = await api(t, 'GET', '/v1/projects', { token })
    expect(list.body.map((p: { ref: string }) => p.ref)).toEqual(expect.arrayContaining([ref, created.body.ref]))
  })

  it('answers bad input with a 4xx message and creates nothing', async () => {
    const before = (await t.platform.ctx.db.query('SELECT count(*)::int AS n FROM projects')).rows[0].n
    const token = await tokenFor(t, ADMIN_EMAIL)
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/platform/projects', { name: '', organization_slug: orgSlug, db_pass: 'long-enough-1' }],
      ['POST', '/platform/projects', { name: 'x', organization_slug: orgSlug, db_pass: 'short' }],
      ['POST', '/platform/projects', { name: 'x', organization_slug: orgSlug, db_pass: 'long-enough-1', postgres_engine: '16' }],
      ['POST', '/platform/projects', { name: 'x', organization_slug: orgSlug, db_pass: 'long-enough-1', desired_instance_size: 'huge' }],
      ['POST', '/platform/projects', { name: 'x', organization_slug: 'no-such-org', db_pass: 'long-enough-1' }],
      ['POST', '/platform/projects', '{not json'],
      ['POST', '/v1/projects', { name: 'x', organization_slug: orgSlug, db_pass: 'long-enough-1', unknown_field: 1 }],
      ['POST', '/v1/projects', { name: 'x', organization_slug: orgSlug, db_pass: 'long-enough-1', postgres_engine: '17-oriole' }],
      ['POST', '/v1/projects', { name: 'x', organization_slug: orgSlug, db_pass: 'long-enough-1', desired_instance_size: 'xlarge' }],
    ]
    for (const [method, path, body] of cases) {
      const result = await api(t, method, path, { token }, body)
      expect(result.status, `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400)
      expect(result.status).toBeLessThan(500)
      expect(result.body.message).toEqual(expect.any(String))
    }
    expect((await api(t, 'GET', '/v1/projects/NOT-A-REF', { token })).status).toBe(400)
    expect((await api(t, 'GET', '/v1/projects/abcdefghijklmnopqrst', { token })).status).toBe(404)
    expect((await t.platform.ctx.db.query('SELECT count(*)::int AS n FROM projects')).rows[0].n).toBe(before)
  })

  it('brings instances, statuses and data back after the platform restarts', async () => {
    await t.platform.close()
    await t.restart()
    const fresh = await login(t)
    const project = (await api(t, 'GET', `/platform/projects/${ref}`, { cookie: fresh })).body
    expect(project.status).toBe('ACTIVE_HEALTHY')
    const client = await connect(project, 'shop-password-1')
    expect((await client.query('SELECT item FROM orders')).rows).toEqual([{ item: 'book' }])
    await client.end()
  })
})

describe('database health', () => {
  it('says whether the database answers within 2 s', async () => {
    const cookie = await login(t)
    const [project] = (await api(t, 'GET', '/platform/projects', { cookie })).body
    expect((await api(t, 'GET', `/platform/projects/${project.ref}/database/health`, { cookie })).body).toEqual({ healthy: true })
    const fs = await import('node:fs')
    const pid = Number(fs.readFileSync(`${t.dataDir}/projects/${project.ref}/data/postmaster.pid`, 'utf8').split('\n')[0])
    process.kill(pid, 'SIGSTOP')
    try {
      // It answers (its own 2 s bound) instead of hanging on the frozen server; the test's timeout
      // catches a hang, and no duration is asserted on a busy machine.
      expect((await api(t, 'GET', `/platform/projects/${project.ref}/database/health`, { cookie })).body).toEqual({ healthy: false })
    } finally {
      process.kill(pid, 'SIGCONT')
    }
    expect((await api(t, 'GET', `/platform/projects/${project.ref}/database/health`, { cookie })).body).toEqual({ healthy: true })
  })
})

describe('instance supervision', () => {
  it('starts an instance again when its Postgres process dies', async () => {
    const cookie = await login(t)
    const [project] = (await api(t, 'GET', '/platform/projects', { cookie })).body
    const pidFile = `${t.dataDir}/projects/${project.ref}/data/postmaster.pid`
    const fs = await import('node:fs')
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
    process.kill(pid, 'SIGKILL')
    // Until reaped, the dead postmaster still answers kill(pid, 0): wait for it to be gone.
    await waitFor(() => {
      try {
        process.kill(pid, 0)
        return false
      } catch {
        return true
      }
    }, { timeoutMs: 30_000, what: `postmaster ${pid} to be gone` })
    await t.platform.ctx.projects.checkRunningInstances()
    expect((await api(t, 'GET', `/platform/projects/${project.ref}/status`, { cookie })).body.status).toBe('ACTIVE_HEALTHY')
    const client = await connect(project, project.name === 'Shop' ? 'shop-password-1' : 'legacy-password-1')
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    await client.end()
  })
})
