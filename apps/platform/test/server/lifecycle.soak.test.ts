import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, querySuperuser, login, startTestPlatform, waitForStatus, type TestPlatform } from './harness.js'

/**
 * Soak tier (`npm run test:soak`): twenty pause/restore cycles of one project. One cycle of each runs in
 * lifecycle.test.ts; this one looks for what only repetition shows (lost rows, backups piling up).
 */
let t: TestPlatform
let cookie: string
let ref: string
let port: number
const PASSWORD = 'lifecycle-password-1'

const sql = <T = any>(text: string) => querySuperuser<T>(port, PASSWORD, text)
const checksum = async () => (await sql(`SELECT md5(string_agg(i::text || ':' || payload, ',' ORDER BY i)) AS sum FROM rows`))[0].sum as string

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  // Restores count against the free plan's limit of active projects: Pro has none.
  await api(t, 'PUT', `/platform/organizations/${slug}/billing/subscription`, { cookie }, { plan: 'pro' })
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Lifecycle soak', organization_slug: slug, db_pass: PASSWORD })
  ref = created.body.ref
  port = created.body.db_port
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
  await sql(`CREATE TABLE rows AS SELECT i, md5(i::text) AS payload FROM generate_series(1, 20000) i`)
})
afterAll(() => t?.cleanup())

describe('repeated pause and restore', () => {
  it('loses nothing over 20 cycles, and keeps only the newest physical backups', async () => {
    const before = await checksum()
    for (let cycle = 0; cycle < 20; cycle++) {
      expect((await api(t, 'POST', `/platform/projects/${ref}/pause`, { cookie })).status).toBe(200)
      await waitForStatus(t, ref, { cookie }, 'INACTIVE')
      expect((await api(t, 'POST', `/platform/projects/${ref}/restore`, { cookie }, {})).status).toBe(200)
      await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
      await sql(`INSERT INTO rows VALUES (${100_000 + cycle}, 'cycle ${cycle}')`)
    }
    const [{ n }] = await sql(`SELECT count(*)::int AS n FROM rows WHERE i >= 100000`)
    expect(n).toBe(20)
    await sql(`DELETE FROM rows WHERE i >= 100000`)
    expect(await checksum()).toBe(before)
    const physical = (await api(t, 'GET', `/platform/database/${ref}/backups`, { cookie })).body.backups.filter((b: { isPhysicalBackup: boolean }) => b.isPhysicalBackup)
    expect(physical).toHaveLength(3)
  }, 300_000)
})
