import { CONTENT_TEXTS } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login, memberWithRole, startTestPlatform, type Caller, type TestPlatform } from './harness.js'

// A report keeps each widget's view and chart settings in its layout (issue 15: table/chart choice, line and area charts).

let t: TestPlatform
let owner: Caller & { id: string }
let readOnly: Caller
let ref: string

const path = (rest = '') => `/platform/projects/${ref}/content${rest}`

/** POST with the Version header (the harness's api() has no header option). */
async function post(caller: Caller, body: unknown) {
  const response = await fetch(t.platform.url + path(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${caller.token}`, version: '2' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

const report = (layout: unknown, id: string = crypto.randomUUID()) => ({
  id,
  type: 'report',
  name: `Report ${id.slice(0, 8)}`,
  visibility: 'user',
  content: { schema_version: '1.0', sql: '', layout },
})

beforeAll(async () => {
  t = await startTestPlatform()
  const cookie = await login(t)
  const orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  // Content lives in the platform's database: the project need not be running for it.
  ref = (await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Reports', organization_slug: orgSlug, db_pass: 'report-password-1' })).body.ref
  const admin = await memberWithRole(t, orgSlug, 'administrator')
  owner = { token: admin.token, origin: null, id: (await api(t, 'GET', '/platform/profile', { token: admin.token })).body.id }
  readOnly = { token: (await memberWithRole(t, orgSlug, 'read_only')).token, origin: null }
})
afterAll(() => t?.cleanup())

describe('report layout with chart settings', () => {
  it('stores each widget’s view, chart type and axes, and a later PUT replaces them', async () => {
    const snippetId = crypto.randomUUID()
    const layout = [
      { snippet_id: snippetId, chart: { view: 'chart', type: 'line', xKey: 'day', yKey: 'total', cumulative: true, showGrid: false } },
      { snippet_id: snippetId },
    ]
    const created = await post(owner, report(layout))
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const read = await api(t, 'GET', path(`/item/${created.body.id}`), { token: owner.token })
    expect(read.body.content.layout).toEqual(layout)

    const next = [{ snippet_id: snippetId, chart: { view: 'chart', type: 'area', xKey: 'day', yKey: 'total' } }]
    const put = await api(t, 'PUT', path(), { token: owner.token }, { id: created.body.id, owner_id: owner.id, type: 'report', content: { schema_version: '1.0', sql: '', layout: next } })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect((await api(t, 'GET', path(`/item/${created.body.id}`), { token: owner.token })).body.content.layout).toEqual(next)
  })

  it('keeps a snippet’s own line or area chart (the SQL editor saves it there)', async () => {
    const created = await post(owner, { type: 'sql', name: 'Daily totals', content: { schema_version: '1.0', sql: 'select 1', chart: { type: 'area', view: 'chart' } } })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.content.chart).toMatchObject({ type: 'area', view: 'chart' })
  })

  it('answers 400 with a message for an unknown chart type, a wrong view or settings of the wrong kind', async () => {
    const id = crypto.randomUUID()
    const bad = [
      [{ snippet_id: id, chart: { type: 'pie' } }, 'chart.type must be one of bar, line, area'],
      [{ snippet_id: id, chart: { view: 'grid' } }, undefined],
      [{ snippet_id: id, chart: 'line' }, undefined],
      [{ snippet_id: id, chart: { xKey: 42 } }, undefined],
      [{ snippet_id: id, chart: { cumulative: 'yes' } }, undefined],
    ] as const
    for (const [widget, message] of bad) {
      const answer = await post(owner, report([widget]))
      expect(answer.status, JSON.stringify(widget)).toBe(400)
      expect(typeof answer.body.message).toBe('string')
      if (message) expect(answer.body.message).toContain(message)
    }
    const snippetChart = await post(owner, { type: 'sql', name: 'Pie', content: { schema_version: '1.0', sql: 'select 1', chart: { type: 'pie' } } })
    expect(snippetChart.status).toBe(400)
  })

  it('refuses a Read-only member a report of their own', async () => {
    const answer = await post(readOnly, report([{ snippet_id: crypto.randomUUID(), chart: { type: 'line' } }]))
    expect(answer).toMatchObject({ status: 403, body: { message: CONTENT_TEXTS.cannotSave } })
  })
})
