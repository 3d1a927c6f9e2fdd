import { LOG_RETENTION_DAYS_BY_PLAN } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { maintainLogStore } from '../../src/observability/logs/store.js'
import { api, login, startTestPlatform, waitForStatus, type TestPlatform } from './harness.js'

/**
 * Log retention follows the organization's plan (free: 1 day, pro: 7): the store's maintenance, the pass the collector
 * runs every minute, deletes a free project's lines older than a day and keeps a pro project's. Old lines are
 * written straight into log_events with old timestamps (no waiting for days).
 */
let t: TestPlatform
let cookie: string
let freeRef: string
let proRef: string
let proSlug: string

const createProject = async (name: string, slug: string) => {
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name, organization_slug: slug, db_pass: 'retention-password-1' })
  expect(created.status).toBe(201)
  await waitForStatus(t, created.body.ref, { cookie }, 'ACTIVE_HEALTHY', 30_000)
  return created.body.ref as string
}

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  const freeSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const pro = await api(t, 'POST', '/platform/organizations', { cookie }, { name: 'Paying' })
  expect(pro.status).toBe(201)
  expect((await api(t, 'PUT', `/platform/organizations/${pro.body.slug}/billing/subscription`, { cookie }, { plan: 'pro' })).status).toBe(200)
  freeRef = await createProject('Free logs', freeSlug)
  proSlug = pro.body.slug
  proRef = await createProject('Pro logs', proSlug)
}, 120_000)
afterAll(() => t?.cleanup())

const HOURS_AGO = [1, 25, 48, 24 * 6 + 12]

const insertOldLines = async (ref: string) => {
  for (const hours of HOURS_AGO) {
    await t.platform.ctx.db.query(
      `INSERT INTO log_events (project_ref, source, timestamp, event_message) VALUES ($1, 'postgres_logs', now() - make_interval(hours => $2), $3)`,
      [ref, hours, `retention line ${hours}h old`],
    )
  }
}

const storedAges = async (ref: string) =>
  (await t.platform.ctx.db.query<{ event_message: string }>(`SELECT event_message FROM log_events WHERE project_ref = $1 AND event_message LIKE 'retention line %' ORDER BY timestamp DESC`, [ref])).rows.map(
    (row) => row.event_message,
  )

describe('log retention per plan', () => {
  it('the plans keep what the hosted platform documents', () => {
    expect(LOG_RETENTION_DAYS_BY_PLAN).toEqual({ free: 1, pro: 7 })
  })

  it("deletes a free project's lines older than a day and keeps a pro project's up to 7 days", async () => {
    await insertOldLines(freeRef)
    await insertOldLines(proRef)
    const all = HOURS_AGO.map((hours) => `retention line ${hours}h old`)
    expect(await storedAges(freeRef)).toEqual(all)

    await maintainLogStore(t.platform.ctx.db)
    expect(await storedAges(freeRef)).toEqual(['retention line 1h old'])
    expect(await storedAges(proRef)).toEqual(all)

    // The plan is read at each pass: the pro organization moved to free loses its older lines at the next one.
    expect((await api(t, 'PUT', `/platform/organizations/${proSlug}/billing/subscription`, { cookie }, { plan: 'free' })).status).toBe(200)
    await maintainLogStore(t.platform.ctx.db)
    expect(await storedAges(proRef)).toEqual(['retention line 1h old'])
  })
})
