import { LOG_QUERY_ILIKE_ERROR, LOG_QUERY_WITH_OR_SUBQUERY_ERROR } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, memberWithRole, projectApi, startTestPlatform, tokenFor, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/**
 * The log store end to end: a line a project's Postgres writes (`raise log`) and a request through its
 * gateway, both found through logs.all within seconds; the collector restarted without losing or repeating
 * a line; other projects' lines and lines outside the window never answered; who may query.
 */
let t: TestPlatform
let cookie: string
let orgSlug: string
let ref: string
let otherRef: string

const createProject = async (name: string) => {
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name, organization_slug: orgSlug, db_pass: 'logs-password-1' })
  await waitForStatus(t, created.body.ref, { cookie }, 'ACTIVE_HEALTHY', 30_000)
  return created.body.ref as string
}

beforeAll(async () => {
  t = await startTestPlatform({ STRATUM_LOG_COLLECT_INTERVAL_MS: '500' })
  cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  ref = await createProject('Logs')
  otherRef = await createProject('Other logs')
}, 120_000)
afterAll(() => t?.cleanup())

const raiseLog = async (project: string, message: string) => {
  const ran = await api(t, 'POST', `/platform/pg-meta/${project}/query`, { cookie }, { query: `do $$ begin raise log '${message}'; end $$` })
  expect(ran.status).toBe(201)
}

const logsAll = (project: string, sql: string, window: { start?: string; end?: string } = {}, caller: { cookie?: string; token?: string } = { cookie }) => {
  const query = new URLSearchParams({ sql })
  if (window.start) query.set('iso_timestamp_start', window.start)
  if (window.end) query.set('iso_timestamp_end', window.end)
  return api(t, 'GET', `/platform/projects/${project}/analytics/endpoints/logs.all?${query}`, caller)
}

const markers = async (project: string, pattern: string) => {
  const answer = await logsAll(project, `select event_message, count(*) as n from postgres_logs where regexp_contains(event_message, '${pattern}') group by event_message`)
  expect(answer.body.error).toBeUndefined()
  return Object.fromEntries((answer.body.result as { event_message: string; n: number }[]).map((row) => [row.event_message, row.n]))
}

describe('logs.all over the log store', () => {
  it('finds a raise log line and a gateway request within seconds', async () => {
    const { url, anonKey } = await projectApi(t, ref, { cookie })
    const started = Date.now()
    await raiseLog(ref, 'marker-xyz')
    const response = await fetch(`${url}/rest/v1/no_such_table?select=id`, { headers: { apikey: anonKey } })
    await response.arrayBuffer()
    let postgresAt = 0
    let edgeAt = 0
    await waitFor(
      async () => {
        if (!postgresAt) {
          const found = await logsAll(ref, "select timestamp, event_message from postgres_logs where regexp_contains(event_message, 'marker-xyz') order by timestamp desc limit 10")
          if (found.body.result?.length) postgresAt = Date.now()
        }
        if (!edgeAt) {
          const found = await logsAll(
            ref,
            "select timestamp, event_message, request.path, response.status_code from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as request " +
              "cross join unnest(m.response) as response where request.path = '/rest/v1/no_such_table' limit 10",
          )
          if (found.body.result?.length) {
            expect(found.body.result[0]).toMatchObject({ path: '/rest/v1/no_such_table', status_code: response.status })
            expect(typeof found.body.result[0].timestamp).toBe('number') // microseconds, as the Logs Explorer reads them
            edgeAt = Date.now()
          }
        }
        return Boolean(postgresAt && edgeAt)
      },
      { timeoutMs: 20_000, what: 'the marker and the request in logs.all' },
    )
    console.log(`log store: raise log found after ${postgresAt - started} ms, gateway request after ${edgeAt - started} ms`)

    // The Management API twin, and the ClickHouse form the official MCP server sends.
    const token = await tokenFor(t, ADMIN_EMAIL)
    const v1 = await api(t, 'GET', `/v1/projects/${ref}/analytics/endpoints/logs.all?sql=${encodeURIComponent("select event_message from postgres_logs where event_message = 'marker-xyz'")}`, { token })
    expect(v1.body.result).toEqual([{ event_message: 'marker-xyz' }])
    const sql =
      "select id, timestamp, event_message, log_attributes['parsed.error_severity'] as error_severity from logs where source = 'postgres_logs' " +
      "and event_message = 'marker-xyz' order by timestamp desc limit 100"
    const unified = await api(t, 'GET', `/v1/projects/${ref}/analytics/endpoints/logs?sql=${encodeURIComponent(sql)}`, { token })
    expect(unified.status).toBe(200)
    expect(unified.body.result).toEqual([expect.objectContaining({ event_message: 'marker-xyz', error_severity: 'LOG', id: expect.any(String) })])
  }, 60_000)

  it('starts a new project\'s Postgres log without warnings (the first lines its Logs Explorer shows)', async () => {
    // The test above waited for a line written after provisioning: every earlier line is stored by now.
    const warnings = await logsAll(
      ref,
      "select event_message from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as parsed where parsed.error_severity = 'WARNING'",
    )
    expect(warnings.body.error).toBeUndefined()
    expect(warnings.body.result).toEqual([])
  })

  it("gives the API keys page each key's last use from edge_logs: the anon key's newest request, nothing for an unused key", async () => {
    const newest = await logsAll(ref, "select max(timestamp) as at from edge_logs where metadata.role = 'anon'")
    expect(newest.body.result[0].at).toEqual(expect.any(Number))
    const lastUsed = await api(t, 'GET', `/platform/projects/${ref}/api-keys/last-used`, { cookie })
    expect(lastUsed.status).toBe(200)
    expect(lastUsed.body).toEqual({ anon: new Date(newest.body.result[0].at / 1000).toISOString(), service_role: null })
    // Another project's requests never count.
    expect((await api(t, 'GET', `/platform/projects/${otherRef}/api-keys/last-used`, { cookie })).body).toEqual({ anon: null, service_role: null })
  })

  it('neither loses nor repeats a line across a collector restart', async () => {
    for (let i = 0; i < 5; i++) await raiseLog(ref, `restart-before-${i}`)
    await waitFor(async () => Object.keys(await markers(ref, '^restart-before-')).length === 5, { what: 'the first five lines' })
    await t.platform.ctx.logCollector.stop()
    for (let i = 0; i < 5; i++) await raiseLog(ref, `restart-during-${i}`)
    expect(await markers(ref, '^restart-during-')).toEqual({})
    t.platform.ctx.logCollector.start()
    for (let i = 0; i < 5; i++) await raiseLog(ref, `restart-after-${i}`)
    await waitFor(async () => Object.keys(await markers(ref, '^restart-')).length === 15, { what: 'all fifteen lines' })
    // One more pass changes nothing: every position is recorded with its lines.
    await t.platform.ctx.logCollector.collect()
    const counts = await markers(ref, '^restart-')
    expect(Object.keys(counts).sort()).toHaveLength(15)
    expect(Object.values(counts).every((n) => n === 1)).toBe(true)
  }, 60_000)

  it("never answers another project's lines, nor lines outside the window", async () => {
    await raiseLog(otherRef, 'other-project-marker')
    await waitFor(async () => (await markers(otherRef, 'other-project-marker'))['other-project-marker'] === 1, { what: 'the other project line' })
    expect(await markers(ref, 'other-project-marker')).toEqual({})
    // The unified table's own source filter cannot widen the scope either.
    const unified = await logsAll(ref, "select event_message from logs where event_message = 'other-project-marker' or true limit 1000")
    expect(unified.body.result.map((row: { event_message: string }) => row.event_message)).not.toContain('other-project-marker')

    const hourAgo = new Date(Date.now() - 3_600_000)
    const past = await logsAll(ref, "select event_message from postgres_logs where event_message = 'marker-xyz'", {
      start: new Date(hourAgo.getTime() - 3_600_000).toISOString(),
      end: hourAgo.toISOString(),
    })
    expect(past.body).toEqual({ result: [] })
    // A query cannot reach past the window through its own conditions.
    const wide = await logsAll(ref, "select count(*) as n from postgres_logs where timestamp > timestamp_sub(current_timestamp(), interval 48 hour)", {
      start: new Date(hourAgo.getTime() - 3_600_000).toISOString(),
      end: hourAgo.toISOString(),
    })
    expect(wide.body.result).toEqual([{ n: 0 }])
  }, 60_000)

  it.each([
    "select timestamp_trunc(timestamp, minute) as minute, count(*) as n from edge_logs group by minute order by minute desc",
    "select r.status_code, count(*) from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as r where r.status_code >= 400 group by 1",
    "select parsed.error_severity from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as parsed where parsed.error_severity in ('LOG', 'ERROR')",
    "select distinct source from logs",
    "select * from postgres_logs where timestamp between timestamp_sub(current_timestamp(), interval 1 hour) and current_timestamp() limit 3",
    "select lower(event_message), length(event_message), unix_micros(timestamp) from edge_logs where event_message like '%GET%' limit 2 offset 1",
    "select log_attributes['response.status_code'] as status, avg(cast(log_attributes['duration_ms'] as float64)) from logs where source = 'edge_logs' group by 1",
    'select 1',
  ])('runs %s on the log store', async (sql) => {
    const answer = await logsAll(ref, sql)
    expect(answer.status).toBe(200)
    expect(answer.body.error).toBeUndefined()
    expect(Array.isArray(answer.body.result)).toBe(true)
  })

  it('answers the spec refusals and query errors in error', async () => {
    expect((await logsAll(ref, 'with a as (select 1) select * from a')).body).toEqual({ result: [], error: LOG_QUERY_WITH_OR_SUBQUERY_ERROR })
    expect((await logsAll(ref, "select * from edge_logs where event_message ilike '%a%'")).body).toEqual({ result: [], error: LOG_QUERY_ILIKE_ERROR })
    expect((await logsAll(ref, 'select * from public.users')).body.error).toMatch(/Unknown source/)
    expect((await logsAll(ref, "select event_message from postgres_logs where regexp_contains(event_message, '(')")).body.error).toMatch(/regular expression/)
  })

  it('lets a Read-only member query and hides the project from an outsider', async () => {
    const readOnly = await memberWithRole(t, orgSlug, 'read_only')
    const answer = await logsAll(ref, "select event_message from postgres_logs where event_message = 'marker-xyz'", {}, { token: readOnly.token })
    expect(answer.status).toBe(200)
    expect(answer.body.result).toEqual([{ event_message: 'marker-xyz' }])
    const outsider = await memberWithRole(t, orgSlug, 'owner')
    await t.platform.ctx.db.query('DELETE FROM members WHERE user_id = (SELECT id FROM users WHERE email = $1)', [outsider.email])
    expect((await logsAll(ref, 'select 1', {}, { token: outsider.token })).status).toBe(404)
  })
})
