import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChildPlatform } from './child-platform.js'
import type { TestPlatform } from './harness.js'
import { api, login, querySuperuser, waitFor, waitForStatus } from './harness.js'

/**
 * Point-in-time recovery for real: the PITR add-on turns WAL archiving on, a base backup follows; rows
 * are changed after a noted moment; a branch from that moment and a restore to it (interrupted by kill -9
 * of the platform, then resumed) both give back exactly the rows of that moment.
 */
const PASSWORD = 'pitr-password-1'
let platform: ChildPlatform
let t: TestPlatform
let cookie: string
let ref: string
let port: number

const sql = <T = any>(text: string, at = port) => querySuperuser<T>(at, PASSWORD, text)
const checksum = async (at = port) => (await sql(`SELECT count(*)::int AS n, md5(string_agg(id::text || note, ',' ORDER BY id)) AS sum FROM notes`, at))[0]
const dbSeconds = async () => Number((await sql<{ s: string }>(`SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS s`))[0]!.s)

beforeAll(async () => {
  platform = new ChildPlatform()
  await platform.start()
  t = { platform: { url: platform.url } } as unknown as TestPlatform
  cookie = await login(t)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  expect((await api(t, 'PUT', `/platform/organizations/${slug}/billing/subscription`, { cookie }, { plan: 'pro' })).status).toBe(200)
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Pitr', organization_slug: slug, db_pass: PASSWORD })
  ref = created.body.ref
  port = created.body.db_port
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  await sql(`CREATE TABLE notes (id int PRIMARY KEY, note text NOT NULL); INSERT INTO notes SELECT i, md5(i::text) FROM generate_series(1, 5000) i`)
}, 120_000)
afterAll(() => platform?.cleanup())

describe('point-in-time recovery', () => {
  let moment = 0
  let atMoment: { n: number; sum: string }

  it('turns WAL archiving on with the add-on and shows a recoverable window once the first base backup is taken', async () => {
    const before = await api(t, 'GET', `/platform/database/${ref}/backups`, { cookie })
    expect(before.body).toMatchObject({ pitr_enabled: false, physical_backup_data: {} })
    const on = await api(t, 'PATCH', `/v1/projects/${ref}/billing/addons`, { cookie }, { addon_type: 'pitr', addon_variant: 'pitr_7' })
    expect(on.status, JSON.stringify(on.body)).toBe(200)
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
    expect(await sql(`SELECT current_setting('archive_mode') AS mode`)).toEqual([{ mode: 'on' }])
    await waitFor(async () => (await api(t, 'GET', `/platform/database/${ref}/backups`, { cookie })).body.physical_backup_data?.earliestPhysicalBackupDateUnix !== undefined, {
      timeoutMs: 90_000,
      intervalMs: 250,
      what: 'the first base backup',
    })
    const addons = (await api(t, 'GET', `/v1/projects/${ref}/billing/addons`, { cookie })).body
    expect(addons.selected_addons).toEqual([expect.objectContaining({ type: 'pitr', variant: expect.objectContaining({ id: 'pitr_7' }) })])
  })

  it('notes a moment, changes rows after it, and refuses a moment outside the window', async () => {
    const window = (await api(t, 'GET', `/platform/database/${ref}/backups`, { cookie })).body.physical_backup_data
    await sql(`INSERT INTO notes SELECT i, 'after backup ' || i FROM generate_series(5001, 6000) i`)
    atMoment = await checksum()
    // The moment is a whole second after the last commit; the changes come a whole second after it.
    const committed = await dbSeconds()
    await waitFor(async () => (await dbSeconds()) > committed, { what: 'the next second' })
    moment = committed + 1
    expect(moment).toBeGreaterThanOrEqual(window.earliestPhysicalBackupDateUnix)
    await waitFor(async () => (await dbSeconds()) > moment, { what: 'the second after the moment' })
    await sql(`UPDATE notes SET note = 'changed' WHERE id <= 100; DELETE FROM notes WHERE id > 5500`)
    expect(await checksum()).not.toEqual(atMoment)
    const early = await api(t, 'POST', `/platform/database/${ref}/backups/pitr`, { cookie }, { recovery_time_target_unix: window.earliestPhysicalBackupDateUnix - 3600 })
    expect(early.status).toBe(400)
    expect(early.body.message).toContain('No backup covers')
    const future = await api(t, 'POST', `/platform/database/${ref}/backups/pitr`, { cookie }, { recovery_time_target_unix: moment + 86_400 })
    expect(future.status).toBe(400)
  })

  it('makes a branch as the project was at that moment', async () => {
    const created = await api(t, 'POST', `/v1/projects/${ref}/branches`, { cookie }, { branch_name: 'at-moment', with_data: true, recovery_time_target_unix: moment })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    let branch: any
    await waitFor(
      async () => {
        branch = (await api(t, 'GET', `/v1/projects/${ref}/branches/at-moment`, { cookie })).body
        if (branch.preview_project_status === 'INIT_FAILED') throw new Error(JSON.stringify(branch))
        return branch.preview_project_status === 'ACTIVE_HEALTHY' && branch.status === 'MIGRATIONS_PASSED'
      },
      { timeoutMs: 120_000, intervalMs: 250, what: 'the point-in-time branch' },
    )
    const detail = (await api(t, 'GET', `/v1/branches/${branch.id}`, { cookie })).body
    expect(await checksum(detail.db_port)).toEqual(atMoment)
    expect(branch.recovery_time_target).toBe(new Date(moment * 1000).toISOString())
  })

  it('finishes a branch whose creation was interrupted by kill -9 after its copy', async () => {
    await platform.stop()
    await platform.start({ STRATUM_OPERATION_STEP_DELAY_MS: '1500' })
    const now = await checksum()
    const created = await api(t, 'POST', `/v1/projects/${ref}/branches`, { cookie }, { branch_name: 'interrupted', with_data: true })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const copied = path.join(platform.dataDir, 'projects', created.body.project_ref, 'data', 'PG_VERSION')
    await waitFor(() => fs.existsSync(copied), { timeoutMs: 60_000, intervalMs: 50, what: 'the branch copy' })
    await platform.crash()
    await platform.start()
    let branch: any
    await waitFor(
      async () => {
        branch = (await api(t, 'GET', `/v1/projects/${ref}/branches/interrupted`, { cookie })).body
        return branch.preview_project_status === 'ACTIVE_HEALTHY' && branch.status === 'MIGRATIONS_PASSED'
      },
      { timeoutMs: 120_000, intervalMs: 250, what: 'the interrupted branch to finish' },
    )
    const detail = (await api(t, 'GET', `/v1/branches/${branch.id}`, { cookie })).body
    expect(await checksum(detail.db_port)).toEqual(now)
    expect((await api(t, 'DELETE', `/v1/branches/${branch.id}`, { cookie })).status).toBe(200)
  })

  it('rolls back a branch cancelled before its first step (its project never waits as COMING_UP)', async () => {
    await platform.stop()
    await platform.start({ STRATUM_OPERATION_STEP_DELAY_MS: '1500' })
    const created = await api(t, 'POST', `/v1/projects/${ref}/branches`, { cookie }, { branch_name: 'cancelled' })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const branchRef = created.body.project_ref
    const operations = (await api(t, 'GET', `/platform/projects/${branchRef}/operations`, { cookie })).body
    const operation = (operations.operations ?? operations)[0]
    const cancelled = await api(t, 'POST', `/platform/projects/${branchRef}/operations/${operation.id}/cancel`, { cookie })
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBeLessThan(300)
    let branch: any
    await waitFor(async () => (branch = (await api(t, 'GET', `/v1/projects/${ref}/branches/cancelled`, { cookie })).body).preview_project_status === 'INIT_FAILED', {
      timeoutMs: 60_000,
      what: 'the cancelled branch to be rolled back',
    })
    expect(branch.status).toBe('MIGRATIONS_FAILED')
    expect((await api(t, 'DELETE', `/v1/branches/${branch.id}`, { cookie })).status).toBe(200)
  })

  it('restores the project to the moment, and a kill -9 half-way does not stop it', async () => {
    await platform.stop()
    await platform.start({ STRATUM_OPERATION_STEP_DELAY_MS: '1500' })
    const started = await api(t, 'POST', `/platform/database/${ref}/backups/pitr`, { cookie }, { recovery_time_target_unix: moment })
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    expect((await api(t, 'GET', `/platform/projects/${ref}/status`, { cookie })).body.status).toBe('RESTORING')
    // Killed once the old data has been set aside (the instance stopped and no longer answers).
    await waitFor(() => sql('SELECT 1').then(() => false, (error: { code?: string }) => error.code === 'ECONNREFUSED'), {
      timeoutMs: 60_000,
      intervalMs: 50,
      what: 'the instance to stop for the restore',
    })
    await platform.crash()
    await platform.start()
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 120_000)
    const operation = (await api(t, 'GET', `/platform/projects/${ref}/operations`, { cookie })).body
    expect(JSON.stringify(operation)).toContain('pitr_restore')
    expect(await checksum()).toEqual(atMoment)
    // Writable again, on its new timeline.
    await sql(`INSERT INTO notes VALUES (999999, 'after the restore')`)
  })
})
