import type { DiskQuota, ProjectResourceWarnings, ProjectUsage, ReadOnlyStatus } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withAdminClient } from '../../src/control/bootstrap-roles.js'
import { findProject } from '../../src/control/project-store.js'
import { applyReadOnly } from '../../src/observability/usage/readonly.js'
import { ADMIN_EMAIL, api, memberWithRole, startTestPlatform, tokenFor, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/**
 * Usage and resource warnings from real measurements: a project with a small disk quota is filled until the disk
 * warning shows, then until it is read-only at 95% (writes refused with Postgres's own error, reads working, the
 * platform's superuser still writing), then the quota is raised and writes come back; the temporary override lets
 * data be deleted; who sees and changes what.
 */
let t: TestPlatform
let token: string
let readOnly: string
let outsider: string
let ref: string

const MB = 1024 * 1024

beforeAll(async () => {
  t = await startTestPlatform({ STRATUM_USAGE_INTERVAL_MS: '300', STRATUM_USAGE_DISK_INTERVAL_MS: '300' })
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/v1/organizations', { token })).body[0].slug
  ref = (await api(t, 'POST', '/v1/projects', { token }, { name: 'Filled', organization_slug: slug, db_pass: 'filled-db-password-1' })).body.ref
  await waitForStatus(t, ref, { token }, 'ACTIVE_HEALTHY', 60_000)
  readOnly = (await memberWithRole(t, slug, 'read_only')).token
  const stranger = await memberWithRole(t, slug, 'developer')
  await t.platform.ctx.db.query('DELETE FROM members WHERE user_id = (SELECT id FROM users WHERE email = $1)', [stranger.email])
  outsider = stranger.token
}, 120_000)
afterAll(() => t?.cleanup())

const sql = (query: string) => api(t, 'POST', `/v1/projects/${ref}/database/query`, { token }, { query })
const disk = async () => (await api<DiskQuota>(t, 'GET', `/platform/projects/${ref}/disk`, { token })).body
const warnings = async (caller = token) => (await api<ProjectResourceWarnings[]>(t, 'GET', '/platform/projects-resource-warnings', { token: caller })).body
const warningOf = async () => (await warnings()).find((record) => record.project === ref)!
const setQuota = (bytes: number, caller = token) => api<DiskQuota>(t, 'POST', `/platform/projects/${ref}/disk`, { token: caller }, { size_bytes: bytes })
/** Waits for a disk measurement taken after now. */
const measuredAfter = async (since: number) => {
  let measured!: DiskQuota
  await waitFor(async () => {
    measured = await disk()
    return measured.measured_at !== null && Date.parse(measured.measured_at) > since
  }, { what: 'a disk measurement', timeoutMs: 30_000 })
  return measured
}
const fill = () => sql(`insert into filler (payload) select repeat(md5(random()::text), 80) from generate_series(1, 2000)`)

describe('resource warnings and read-only mode', () => {
  it('samples the instance: disk, CPU, memory, connections and IO, and answers the usage series', async () => {
    await waitFor(async () => (await api<ProjectUsage>(t, 'GET', `/platform/projects/${ref}/usage?interval=1h`, { token })).body.points.length >= 2, {
      what: 'two usage samples',
    })
    const usage = (await api<ProjectUsage>(t, 'GET', `/platform/projects/${ref}/usage?interval=1h`, { token })).body
    const last = usage.points.at(-1)!
    expect(last.disk_bytes).toBeGreaterThan(10 * MB)
    expect(last.memory_bytes).toBeGreaterThan(MB)
    expect(usage.max_connections).toBe(60)
    expect(usage.postgres_version).toMatch(/^\d+/)
    expect(usage.disk_quota_bytes).toBe(8 * 1024 ** 3)
    // A session of our own shows up as a connection.
    const busy = sql('select pg_sleep(1.5)')
    await waitFor(async () => ((await api<ProjectUsage>(t, 'GET', `/platform/projects/${ref}/usage`, { token })).body.points.at(-1)?.connections ?? 0) >= 1, {
      what: 'a connection counted',
    })
    await busy
    expect((await api(t, 'GET', `/platform/projects/${ref}/usage?interval=2h`, { token })).status).toBe(400)
    expect((await warningOf()).disk_space_exhaustion).toBeNull()
  })

  it('warns, goes read-only at 95% with writes refused and reads working, and comes back when the quota is raised', async () => {
    // EXTERNAL storage: the repeated text is stored as is, not compressed away.
    expect((await sql('create table filler (id bigint generated always as identity primary key, payload text); alter table filler alter column payload set storage external')).status).toBe(201)
    const start = await measuredAfter(Date.now())
    expect((await setQuota(start.used_bytes! + 150 * MB)).status).toBe(200)
    const levels = new Set<string>()
    let warnedAfterMs: number | null = null
    let refused: { status: number; body: { message?: string; error?: { message?: string } } } | null = null
    for (let step = 0; step < 200 && !refused; step++) {
      const inserted = await fill()
      const insertedAt = Date.now()
      if (inserted.status !== 201) {
        // Going read-only ends the open sessions so that the setting applies: an insert caught in that moment
        // fails with the termination; the next one meets the read-only database.
        if (JSON.stringify(inserted.body).includes('terminating connection due to administrator command')) continue
        refused = inserted
        break
      }
      await measuredAfter(insertedAt)
      const record = await warningOf()
      if (record.disk_space_exhaustion) {
        if (!levels.size) warnedAfterMs = Date.now() - insertedAt
        levels.add(record.disk_space_exhaustion)
      }
    }
    console.log(`disk warning seen ${warnedAfterMs} ms after the insert that crossed 80%`)
    expect(levels.has('warning')).toBe(true)
    expect(refused, 'an INSERT is refused once read-only').not.toBeNull()
    expect(JSON.stringify(refused!.body)).toContain('cannot execute INSERT in a read-only transaction')
    const record = await warningOf()
    expect(record.is_readonly_mode_enabled).toBe(true)
    expect(record.disk_space_exhaustion).toBe('critical')
    expect((await api<ReadOnlyStatus>(t, 'GET', `/v1/projects/${ref}/readonly`, { token })).body).toMatchObject({ enabled: true, override_enabled: false })
    // Reads work; the platform's own superuser still writes (migrations, backups, lifecycle).
    const counted = await sql('select count(*)::int as n from filler')
    expect(counted.status).toBe(201)
    expect(counted.body[0].n).toBeGreaterThan(0)
    const row = (await findProject(t.platform.ctx.db, ref))!
    await withAdminClient(t.platform.ctx.projects.adminConnection(row), (client) => client.query(`insert into public.filler (payload) values ('platform')`))

    const raised = await setQuota(8 * 1024 ** 3)
    expect(raised.status).toBe(200)
    expect((await warningOf()).is_readonly_mode_enabled).toBe(false)
    expect((await fill()).status).toBe(201)
    expect((await warningOf()).disk_space_exhaustion).toBeNull()
  }, 600_000)

  it('lets the owner delete data during a temporary override', async () => {
    const now = await measuredAfter(Date.now())
    expect((await setQuota(Math.floor(now.used_bytes! / 0.96))).status).toBe(200)
    expect((await fill()).status).not.toBe(201)
    expect((await api(t, 'POST', `/v1/projects/${ref}/readonly/temporary-disable`, { token: readOnly }, {})).status).toBe(403)
    expect((await api(t, 'POST', `/v1/projects/${ref}/readonly/temporary-disable`, { token }, {})).status).toBe(201)
    const status = (await api<ReadOnlyStatus>(t, 'GET', `/v1/projects/${ref}/readonly`, { token })).body
    expect(status.enabled).toBe(true)
    expect(status.override_enabled).toBe(true)
    expect(Date.parse(status.override_active_until)).toBeGreaterThan(Date.now() + 10 * 60_000)
    const deleted = await sql('delete from filler where id % 2 = 0')
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(201)
    await t.platform.ctx.db.query('UPDATE projects SET readonly_override_until = NULL WHERE ref = $1', [ref])
    await setQuota(8 * 1024 ** 3)
    expect((await fill()).status).toBe(201)
  }, 120_000)

  it('ends the sessions opened before a change of read-only mode before it returns: the next query meets the new setting', async () => {
    const connection = t.platform.ctx.projects.adminConnection((await findProject(t.platform.ctx.db, ref))!)
    const setting = async () => {
      const answer = await sql('show default_transaction_read_only')
      expect(answer.status, JSON.stringify(answer.body)).toBe(201)
      return answer.body[0].default_transaction_read_only
    }
    // Each round, the SQL route's pool holds a session opened under the previous setting.
    for (const on of [true, false, true, false]) {
      await setting()
      await applyReadOnly(connection, on)
      expect(await setting()).toBe(on ? 'on' : 'off')
    }
  })

  it('shows a project to its members only, and lets no Read-only member change the quota', async () => {
    expect((await warnings(readOnly)).map((record) => record.project)).toContain(ref)
    expect((await warnings(outsider)).map((record) => record.project)).not.toContain(ref)
    expect((await api(t, 'GET', `/platform/projects/${ref}/usage`, { token: outsider })).status).toBe(404)
    const refused = await setQuota(9 * 1024 ** 3, readOnly)
    expect(refused.status).toBe(403)
    expect((await disk()).size_bytes).toBe(8 * 1024 ** 3)
    const tooBig = await api(t, 'POST', `/platform/projects/${ref}/disk`, { token }, { size_gb: 201 })
    expect(tooBig.status).toBe(400)
    expect(tooBig.body.message).toContain('Disk size can be increased up to 200GB')
  })
})
