import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChildPlatform } from './child-platform.js'
import type { TestPlatform } from './harness.js'
import { api, querySuperuser, login, waitFor, waitForStatus } from './harness.js'

/**
 * Soak tier (`npm run test:soak`): kill -9 of the platform in the middle of a 15 -> 17 upgrade, then a new
 * start on the same data directory. The other operations' crashes are in lifecycle-crash.test.ts; an upgrade
 * is the longest of them (a second server, pg_dump and restore of 50,000 rows).
 */
const PASSWORD = 'crash-password-1'
const STEP_DELAY = { STRATUM_OPERATION_STEP_DELAY_MS: '1500' }
let platform: ChildPlatform
let t: TestPlatform
let cookie: string
let ref: string
let port: number

const sql = <T = any>(text: string) => querySuperuser<T>(port, PASSWORD, text)
const checksum = async () => (await sql(`SELECT count(*) AS n, md5(string_agg(i::text || payload, ',' ORDER BY i)) AS sum FROM rows`))[0]

beforeAll(async () => {
  platform = new ChildPlatform()
  t = { platform: { url: platform.url } } as unknown as TestPlatform
})
afterAll(() => platform?.cleanup())

describe('a platform killed mid-upgrade', () => {
  it('resumes the upgrade from its last step and keeps every row', async () => {
    await platform.start()
    cookie = await login(t)
    const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
    const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Upgrade crash', organization_slug: slug, db_pass: PASSWORD, postgres_engine: '15' })
    const upgradeRef = created.body.ref as string
    await waitForStatus(t, upgradeRef, { cookie }, 'ACTIVE_HEALTHY')
    ref = upgradeRef
    port = created.body.db_port
    await sql(`CREATE TABLE rows AS SELECT i, md5(i::text) AS payload FROM generate_series(1, 50000) i; CREATE INDEX rows_i ON rows (i)`)
    const before = await checksum()
    await platform.stop()

    await platform.start(STEP_DELAY)
    const started = await api(t, 'POST', `/v1/projects/${ref}/upgrade`, { cookie }, { target_version: '17' })
    expect(started.status).toBe(201)
    await waitForStatus(t, ref, { cookie }, 'UPGRADING')
    // Several steps in: the new instance runs and the live one is read-only (step 4 done).
    const upgradeStatus = async () => (await api(t, 'GET', `/v1/projects/${ref}/upgrade/status?tracking_id=${started.body.tracking_id}`, { cookie })).body.databaseUpgradeStatus
    await waitFor(async () => Number.parseInt((await upgradeStatus())?.progress ?? '0', 10) >= 4, { timeoutMs: 60_000, what: 'the upgrade to stop writes on the live instance' })
    const midway = (await api(t, 'GET', `/v1/projects/${ref}/upgrade/status?tracking_id=${started.body.tracking_id}`, { cookie })).body.databaseUpgradeStatus
    expect(midway.status).toBe(0)
    await platform.crash()
    await platform.start()

    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
    const final = (await api(t, 'GET', `/v1/projects/${ref}/upgrade/status?tracking_id=${started.body.tracking_id}`, { cookie })).body.databaseUpgradeStatus
    expect(final).toMatchObject({ status: 1, progress: '10_completed_post_physical_backup' })
    expect((await sql(`SHOW server_version_num`))[0].server_version_num).toMatch(/^17/)
    expect(await checksum()).toEqual(before)
    await sql(`INSERT INTO rows VALUES (0, 'writable again')`)
  }, 240_000)
})
