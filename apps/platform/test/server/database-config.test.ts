import pg from 'pg'
import { SupabaseManagementAPI } from 'supabase-management-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, memberWithRole, projectApi, startTestPlatform, tokenFor, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/*
 * The database server's settings and who may connect: config/database/postgres (validated against
 * the server's own limits, applied with a reload or a restart), network restrictions and SSL
 * enforcement (pg_hba.conf), through supabase-management-js (unmodified) and a real Postgres client.
 */
const DB_PASSWORD = 'database-config-password-1'
let t: TestPlatform
let ownerToken: string
let owner: SupabaseManagementAPI
let ref: string
let port: number
let readOnlyToken: string

/** Connects as the project's `postgres` user from this machine, as psql would; the connection's error when refused. */
async function connectAsUser(ssl: boolean): Promise<{ ok: true; show: (name: string) => Promise<string>; end: () => Promise<void> } | { ok: false; message: string }> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: DB_PASSWORD, database: 'postgres', ssl: ssl ? { rejectUnauthorized: false } : false })
  client.on('error', () => {})
  try {
    await client.connect()
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
  return {
    ok: true,
    show: async (name) => (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name]!,
    end: () => client.end(),
  }
}

/** The platform's own paths keep working whatever the restrictions: the SQL route and the data API. */
async function platformStillWorks() {
  const query = await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token: ownerToken }, { query: 'select 1 as one' })
  expect(query.status).toBe(201)
  const project = await projectApi(t, ref, { token: ownerToken })
  const rest = await fetch(`${project.url}/rest/v1/`, { headers: { apikey: project.anonKey } })
  expect(rest.status).toBe(200)
}

beforeAll(async () => {
  t = await startTestPlatform()
  ownerToken = await tokenFor(t, ADMIN_EMAIL)
  owner = new SupabaseManagementAPI({ accessToken: ownerToken, baseUrl: t.platform.url })
  const slug = (await owner.listAllOrganizations()).data[0]!.slug
  ref = (await owner.createAProject({ name: 'Database config', organization_slug: slug, db_pass: DB_PASSWORD })).data.ref
  await waitForStatus(t, ref, { token: ownerToken }, 'ACTIVE_HEALTHY', 60_000)
  port = (await t.platform.ctx.db.query<{ port: number }>('SELECT port FROM projects WHERE ref = $1', [ref])).rows[0]!.port
  readOnlyToken = (await memberWithRole(t, slug, 'read_only')).token
}, 120_000)
afterAll(() => t?.cleanup())

describe('config/database/postgres', () => {
  it('answers the settings in force and applies a reloadable one at once', async () => {
    const before = await owner.getPostgresConfig(ref)
    expect(before.data).toMatchObject({ max_connections: expect.any(Number), shared_buffers: expect.stringMatching(/^\d+[kMG]B$/), track_commit_timestamp: false })

    const changed = await owner.updatePostgresConfig(ref, { statement_timeout: '12s', work_mem: '8MB' })
    expect(changed.data).toMatchObject({ statement_timeout: '12s', work_mem: '8MB' })
    const user = await connectAsUser(false)
    if (!user.ok) throw new Error(user.message)
    expect(await user.show('statement_timeout')).toBe('12s')
    await user.end()
  })

  it('keeps a restart-only setting pending until a restart, which restart_database starts', async () => {
    const pending = await owner.updatePostgresConfig(ref, { max_locks_per_transaction: 96 })
    expect(pending.data.max_locks_per_transaction).toBe(96)
    const user = await connectAsUser(false)
    if (!user.ok) throw new Error(user.message)
    expect(await user.show('max_locks_per_transaction')).toBe('64')
    await user.end()

    await owner.updatePostgresConfig(ref, { max_locks_per_transaction: 96, restart_database: true })
    // The restart runs as an operation: wait until the server shows the new value (refused connections while it restarts).
    await waitFor(
      async () => {
        const after = await connectAsUser(false)
        if (!after.ok) return false
        try {
          return (await after.show('max_locks_per_transaction')) === '96'
        } catch {
          return false // the server went down under the query: it is restarting
        } finally {
          await after.end().catch(() => {})
        }
      },
      { timeoutMs: 60_000, what: 'the restarted server to show max_locks_per_transaction = 96' },
    )
    await waitForStatus(t, ref, { token: ownerToken }, 'ACTIVE_HEALTHY', 60_000)
  })

  it('refuses what the server would refuse, and other roles, with {message}', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ max_connections: 0 }, /max_connections must be at least 1/],
      [{ shared_buffers: '1KB' }, /shared_buffers must be a size/],
      [{ shared_buffers: '8kB' }, /shared_buffers must be between/],
      [{ statement_timeout: 'soon' }, /statement_timeout must be a duration/],
      [{ port: 1 }, /./],
      [{ session_replication_role: 'leader' }, /origin, replica or local/],
    ]
    for (const [body, message] of cases) {
      const refused = await api(t, 'PUT', `/v1/projects/${ref}/config/database/postgres`, { token: ownerToken }, body)
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(refused.body.message, JSON.stringify(body)).toMatch(message)
    }
    expect((await api(t, 'PUT', `/v1/projects/${ref}/config/database/postgres`, { token: readOnlyToken }, { work_mem: '4MB' })).status).toBe(403)
    expect((await api(t, 'GET', `/v1/projects/${ref}/config/database/postgres`, { token: readOnlyToken })).status).toBe(200)
  })
})

describe('network restrictions and SSL enforcement', () => {
  it('refuses the project user from networks not allowed, never the platform, and allows again', async () => {
    const applied = await owner.updateNetworkRestrictions(ref, { dbAllowedCidrs: ['10.0.0.0/8'], dbAllowedCidrsV6: [] })
    expect(applied.status).toBe(201)
    expect(applied.data).toMatchObject({ entitlement: 'allowed', status: 'applied', config: { dbAllowedCidrs: ['10.0.0.0/8'], dbAllowedCidrsV6: [] } })
    const refused = await connectAsUser(false)
    expect(refused.ok).toBe(false)
    expect(refused.ok ? '' : refused.message).toMatch(/no pg_hba\.conf entry for host "127\.0\.0\.1", user "postgres"/)
    await platformStillWorks()

    const patched = await owner.patchNetworkRestrictions(ref, { add: { dbAllowedCidrs: ['127.0.0.1/32'] } })
    expect(patched.status).toBe(200)
    expect(patched.data.config.dbAllowedCidrs).toEqual([
      { address: '10.0.0.0/8', type: 'v4' },
      { address: '127.0.0.1/32', type: 'v4' },
    ])
    const allowed = await connectAsUser(false)
    expect(allowed.ok).toBe(true)
    if (allowed.ok) await allowed.end()
    const read = await api(t, 'GET', `/v1/projects/${ref}/network-restrictions`, { token: readOnlyToken })
    expect(read.body).toMatchObject({ entitlement: 'allowed', status: 'applied', config: { dbAllowedCidrs: ['10.0.0.0/8', '127.0.0.1/32'], dbAllowedCidrsV6: [] } })

    for (const body of [{ dbAllowedCidrs: ['10.0.0.0/33'] }, { dbAllowedCidrs: ['not a network'] }, { dbAllowedCidrsV6: ['10.0.0.0/8'] }, { everyone: true }]) {
      const bad = await api(t, 'POST', `/v1/projects/${ref}/network-restrictions/apply`, { token: ownerToken }, body)
      expect(bad.status, JSON.stringify(body)).toBe(400)
      expect(bad.body).toHaveProperty('message')
    }
    expect((await api(t, 'POST', `/v1/projects/${ref}/network-restrictions/apply`, { token: readOnlyToken }, { dbAllowedCidrs: ['0.0.0.0/0'] })).status).toBe(403)
    await api(t, 'POST', `/v1/projects/${ref}/network-restrictions/apply`, { token: ownerToken }, { dbAllowedCidrs: ['0.0.0.0/0'], dbAllowedCidrsV6: ['::/0'] })
  })

  it('with SSL enforced, refuses the project user without TLS and accepts it with TLS', async () => {
    const enforced = await owner.updateSslEnforcementConfig(ref, { requestedConfig: { database: true } })
    expect(enforced.data).toEqual({ currentConfig: { database: true }, appliedSuccessfully: true })
    const plain = await connectAsUser(false)
    expect(plain.ok ? '' : plain.message).toMatch(/no pg_hba\.conf entry .*no encryption/)
    const tls = await connectAsUser(true)
    expect(tls.ok).toBe(true)
    if (tls.ok) await tls.end()
    await platformStillWorks()

    expect((await api(t, 'PUT', `/v1/projects/${ref}/ssl-enforcement`, { token: readOnlyToken }, { requestedConfig: { database: false } })).status).toBe(403)
    expect((await api(t, 'PUT', `/v1/projects/${ref}/ssl-enforcement`, { token: ownerToken }, { requestedConfig: {} })).status).toBe(400)
    await api(t, 'PUT', `/v1/projects/${ref}/ssl-enforcement`, { token: ownerToken }, { requestedConfig: { database: false } })
    const again = await connectAsUser(false)
    expect(again.ok).toBe(true)
    if (again.ok) await again.end()
    expect((await api(t, 'GET', `/v1/projects/${ref}/ssl-enforcement`, { token: readOnlyToken })).body.currentConfig).toEqual({ database: false })
  })
})
