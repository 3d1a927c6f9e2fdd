import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MEMBER_QUERY_CONCURRENCY } from '../../src/sql-runner/member-limiter.js'
import { createUser } from '../../src/auth/users.js'
import { ADMIN_EMAIL, ADMIN_PASSWORD, api, login, memberWithRole, startTestPlatform, tokenFor, waitFor, waitForStatus, type Caller, type TestPlatform } from './harness.js'

/**
 * The holes of issue 9 point 8, each reproduced as an attacker would try it: a login brute force
 * that pads the email, hostile input (NUL bytes, very deep JSON, forged cursors), a Read-only member
 * who fills the read-only pool or reads and stops others' queries, and an unchecked survey route.
 */
const LOGIN_LIMIT = 3
let t: TestPlatform
let owner: Caller
let orgSlug: string
let ref: string
let readOnly: Caller
let developer: Caller

beforeAll(async () => {
  t = await startTestPlatform({ STRATUM_LOGIN_RATE_LIMIT: String(LOGIN_LIMIT) })
  owner = { cookie: await login(t) }
  orgSlug = (await api(t, 'GET', '/platform/organizations', owner)).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', owner, { name: 'Hardening', organization_slug: orgSlug, db_pass: 'hardening-password-1' })
  ref = created.body.ref
  readOnly = { token: (await memberWithRole(t, orgSlug, 'read_only')).token }
  developer = { token: (await memberWithRole(t, orgSlug, 'developer')).token }
  await waitForStatus(t, ref, owner, 'ACTIVE_HEALTHY', 30_000)
})
afterAll(() => t?.cleanup())

/** Sends a raw body (the harness's api() would JSON-encode a string). */
async function rawPost(path: string, caller: Caller, text: string) {
  const response = await fetch(t.platform.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${caller.token}`, origin: t.platform.url },
    body: text,
  })
  const body = await response.text()
  return { status: response.status, body: JSON.parse(body) as { message?: string } }
}

/** A 400 with a plain message: what every bad input gets, never a 500 or a stack. */
function expectRefused(result: { status: number; body: unknown }, what: string) {
  expect(result.status, `${what}: ${JSON.stringify(result.body)}`).toBe(400)
  expect(result.body, what).toEqual({ message: expect.any(String) })
  expect(JSON.stringify(result.body), what).not.toMatch(/ at .*\.(ts|js):\d+/)
}

describe('sign-in rate limit', () => {
  it('counts an email padded with spaces or in other case as the same account', async () => {
    const email = 'victim@example.com'
    const spellings = [email, `  ${email}`, `${email.toUpperCase()}   `, `\t${email}\n`, ` Victim@Example.COM `, `${email} `]
    const statuses: number[] = []
    for (const spelling of spellings) {
      statuses.push((await api(t, 'POST', '/api/auth/login', {}, { email: spelling, password: 'guess-guess' })).status)
    }
    expect(statuses).toEqual([...Array(LOGIN_LIMIT).fill(401), ...Array(spellings.length - LOGIN_LIMIT).fill(429)])
    const limited = await api(t, 'POST', '/api/auth/login', {}, { email: `   ${email}`, password: 'guess-guess' })
    expect(limited.status).toBe(429)
    expect(limited.body.message).toMatch(/^Too many sign-in attempts\. Try again in \d+ seconds\.$/)
    // Another account from the same address is not locked out by it.
    expect((await api(t, 'POST', '/api/auth/login', {}, { email: 'someone-else@example.com', password: 'guess-guess' })).status).toBe(401)
  })
})

describe('session cookie without a trusted proxy', () => {
  it('ignores X-Forwarded-Proto from a client the platform does not trust', async () => {
    const response = await fetch(`${t.platform.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: t.platform.url, 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')).toMatch(/^stratum_session=/)
    expect(response.headers.get('set-cookie')).not.toMatch(/Secure/i)
  })
})

describe('hostile input', () => {
  it('answers NUL bytes in JSON bodies with 400 on every route family', async () => {
    const cases: [string, string, unknown][] = [
      ['POST', '/platform/organizations', { name: 'Evil\u0000Corp' }],
      ['PATCH', `/platform/organizations/${orgSlug}`, { name: 'Renamed\u0000' }],
      ['POST', `/platform/pg-meta/${ref}/query`, { query: 'select 1 as "a\u0000b"' }],
      ['POST', `/v1/projects/${ref}/database/query`, { query: 'select $1::text as t', parameters: ['x\u0000y'] }],
      ['PUT', `/platform/projects/${ref}/content`, { id: crypto.randomUUID(), owner_id: crypto.randomUUID(), type: 'sql', name: 'n', content: { sql: 'select \u0000' } }],
      ['POST', '/platform/support/requests', { category: 'Problem', subject: 'Hi\u0000', message: 'Body' }],
      // In a key too.
      ['POST', `/platform/projects/${ref}/content/folders`, { 'name\u0000': 'x', name: 'Folder' }],
    ]
    for (const [method, path, body] of cases) expectRefused(await api(t, method, path, owner, body), `${method} ${path}`)
    // Nothing was stored.
    const orgs = (await api(t, 'GET', '/platform/organizations', owner)).body as { name: string }[]
    expect(orgs.some((org) => org.name.includes('Evil'))).toBe(false)
  })

  it('answers NUL bytes in query strings and path parameters with 400', async () => {
    for (const path of [
      `/platform/projects/${ref}/content?name=%00`,
      `/platform/projects/${ref}/content?type=sql&name=a%00b`,
      `/platform/projects/${ref}/content/count?type=%00`,
      `/platform/organizations/%00`,
      `/platform/organizations/${orgSlug}%00/members`,
      `/platform/projects/${ref}%00/status`,
      `/v1/projects/${ref}/functions/fn%00`,
      `/platform/projects/${ref}/content/item/%00`,
    ]) {
      expectRefused(await api(t, 'GET', path, owner), path)
    }
  })

  it('answers JSON nested 10,000 deep with 400', async () => {
    const deepArray = '['.repeat(10_000) + ']'.repeat(10_000)
    const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)
    for (const [path, text] of [
      [`/v1/projects/${ref}/database/query`, `{"query":"select $1::jsonb as j","parameters":[${deepArray}]}`],
      [`/platform/pg-meta/${ref}/query`, `{"query":"select 1","extra":${deepObject}}`],
      ['/platform/organizations', `{"name":"Deep","x":${deepArray}}`],
      [`/platform/projects/${ref}/content/folders`, deepObject],
      ['/api/auth/login', `{"email":"a@example.com","password":${deepArray}}`],
    ] as const) {
      expectRefused(await rawPost(path, developer, text), path)
    }
    // Ordinary nesting still goes through.
    const nested = await rawPost(`/v1/projects/${ref}/database/query`, developer, '{"query":"select $1::jsonb as j","parameters":[{"a":{"b":[1,[2,[3]]]}}],"read_only":true}')
    expect(nested.status).toBe(201)
  })

  it('answers forged or malformed pagination cursors with 400', async () => {
    const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const uuid = '00000000-0000-4000-8000-000000000000'
    const list = (query: string) => api(t, 'GET', `/platform/projects/${ref}/content?${query}`, owner)
    for (const [query, what] of [
      ['cursor=not-a-cursor!!', 'not base64'],
      [`cursor=${forge(null)}`, 'null'],
      [`cursor=${forge([1, 2])}`, 'an array'],
      [`cursor=${forge({ v: 'yesterday-ish', id: uuid })}`, 'a sort value that is no timestamp'],
      [`cursor=${forge({ v: '2024-13-45 99:00:00+00', id: uuid })}`, 'an impossible timestamp'],
      [`cursor=${forge({ v: '2024-01-01 00:00:00+00', id: '-'.repeat(36) })}`, 'an id that is no uuid'],
      [`cursor=${forge({ v: 'a\u0000b', id: uuid })}&sort_by=name`, 'a NUL byte inside'],
      [`cursor=${forge({ v: 1, id: uuid })}`, 'a number as sort value'],
      [`cursor=${forge({ v: 'b', id: uuid })}&sort_by=updated_at&sort_order=asc`, 'a name cursor on a date sort'],
    ] as [string, string][]) {
      expectRefused(await list(query), what)
      expect((await list(query)).body.message).toBe('cursor is not valid: pass the cursor of a previous page')
    }
    // A real cursor still pages.
    for (let i = 0; i < 3; i++) {
      const saved = await api(t, 'PUT', `/platform/projects/${ref}/content`, owner, { id: crypto.randomUUID(), owner_id: await profileId(owner), type: 'sql', name: `Page ${i}`, content: { sql: `select ${i}` } })
      expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    }
    for (const sort of ['sort_by=name', 'sort_by=inserted_at', 'sort_by=updated_at&sort_order=asc']) {
      const first = await list(`limit=1&${sort}`)
      expect(first.body.cursor, sort).toEqual(expect.any(String))
      const second = await list(`limit=1&${sort}&cursor=${first.body.cursor}`)
      expect(second.status, sort).toBe(200)
      expect(second.body.data[0].id).not.toBe(first.body.data[0].id)
    }
  })
})

async function profileId(caller: Caller): Promise<string> {
  return (await api(t, 'GET', '/platform/profile', caller)).body.id
}

describe('SQL sessions of a Read-only member', () => {
  const query = (caller: Caller, sql: string, readOnlyMode = true) => api(t, 'POST', `/platform/pg-meta/${ref}/query`, caller, { query: sql, read_only: readOnlyMode })
  const ongoing = async (caller: Caller) => (await api(t, 'GET', `/platform/pg-meta/${ref}/query/ongoing`, caller)).body as { pid: number; query: string; usename: string }[]
  /** The pid of a running query whose text holds `marker`, once the caller's list shows it. */
  const pidOf = async (caller: Caller, marker: string) => {
    let pid = 0
    await waitFor(async () => {
      pid = (await ongoing(caller)).find((row) => row.query.includes(marker))?.pid ?? 0
      return pid !== 0
    }, { timeoutMs: 20_000, what: `query ${marker} in the ongoing list` })
    return pid
  }
  const cancel = (caller: Caller, pid: number, how: 'cancel' | 'terminate' = 'cancel') => api(t, 'POST', `/platform/pg-meta/${ref}/query/${how}`, caller, { pid })

  it(`allows ${MEMBER_QUERY_CONCURRENCY} running queries per member and project, and answers 429 beyond`, async () => {
    expect(MEMBER_QUERY_CONCURRENCY).toBe(2)
    const sleepers = [query(readOnly, 'select pg_sleep(60) as first_sleeper'), query(readOnly, 'select pg_sleep(60) as second_sleeper')]
    const pids = [await pidOf(owner, 'first_sleeper'), await pidOf(owner, 'second_sleeper')]

    const third = await query(readOnly, 'select 1')
    expect(third.status).toBe(429)
    expect(third.body).toEqual({ message: 'You already have 2 queries running on this project. Wait for one to finish or cancel it, then run this query.' })
    expect(third.headers.get('retry-after')).toBe('1')
    // The Management API's query route counts the same running queries.
    const v1 = await api(t, 'POST', `/v1/projects/${ref}/database/query`, readOnly, { query: 'select 1', read_only: true })
    expect(v1.status).toBe(429)
    expect(v1.body.message).toMatch(/already have 2 queries running/)
    // The pool still serves everyone else.
    expect((await query(developer, 'select 2 as two')).body.results[0].rows).toEqual([{ two: 2 }])
    expect((await query(owner, 'select 3 as three')).body.results[0].rows).toEqual([{ three: 3 }])

    for (const pid of pids) expect((await cancel(readOnly, pid)).body).toEqual({ pid, cancelled: true })
    for (const sleeper of sleepers) expect((await sleeper).body.message).toBe('canceling statement due to user request')
    // The slots are given back, on both routes.
    expect((await query(readOnly, 'select 4 as four')).body.results[0].rows).toEqual([{ four: 4 }])
    expect((await api(t, 'POST', `/v1/projects/${ref}/database/query`, readOnly, { query: 'select 5 as five', read_only: true })).body).toEqual([{ five: 5 }])
  })

  it('gives the slot back when the query fails or the stream ends', async () => {
    for (let i = 0; i < MEMBER_QUERY_CONCURRENCY + 2; i++) expect((await query(readOnly, 'select * from no_such_table')).status).toBe(400)
    for (let i = 0; i < MEMBER_QUERY_CONCURRENCY + 2; i++) {
      const response = await fetch(`${t.platform.url}/platform/pg-meta/${ref}/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${readOnly.token}`, accept: 'application/x-ndjson', 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'select 1 as one' }),
      })
      const frames = (await response.text()).trim().split('\n').map((line) => JSON.parse(line))
      expect(frames.at(-1)).toMatchObject({ kind: 'end', status: 201 })
    }
    expect((await query(readOnly, 'select 6 as six')).status).toBe(201)
  })

  it('shows a Read-only member only the read-only sessions, and lets it stop only its own', async () => {
    const full = query(owner, 'select pg_sleep(60) as owner_full_secret', false)
    const ownerReadOnly = query(owner, 'select pg_sleep(60) as owner_read_only')
    const own = query(readOnly, 'select pg_sleep(60) as reader_own')
    const fullPid = await pidOf(owner, 'owner_full_secret')
    const ownerReadOnlyPid = await pidOf(owner, 'owner_read_only')
    const ownPid = await pidOf(readOnly, 'reader_own')

    // Full access sees every user SQL session; a Read-only member sees the read-only role's only.
    const ownersView = await ongoing(owner)
    expect(ownersView.map((row) => row.pid)).toEqual(expect.arrayContaining([fullPid, ownerReadOnlyPid, ownPid]))
    const readersView = await ongoing(readOnly)
    expect(readersView.map((row) => row.pid)).toEqual(expect.arrayContaining([ownerReadOnlyPid, ownPid]))
    expect(readersView.every((row) => row.usename === 'stratum_readonly')).toBe(true)
    expect(JSON.stringify(readersView)).not.toContain('owner_full_secret')
    expect((await ongoing(developer)).map((row) => row.pid)).toContain(fullPid)

    // Stopping others' queries: refused, whichever connection they run on.
    for (const pid of [fullPid, ownerReadOnlyPid]) {
      for (const how of ['cancel', 'terminate'] as const) {
        const refused = await cancel(readOnly, pid, how)
        expect(refused.status, `${how} ${pid}`).toBe(403)
        expect(refused.body).toEqual({ message: expect.any(String) })
      }
    }
    expect((await cancel(readOnly, ownPid, 'terminate')).status).toBe(403)
    // Its own query it may cancel; full access may stop anyone's.
    expect((await cancel(readOnly, ownPid)).body).toEqual({ pid: ownPid, cancelled: true })
    expect((await cancel(developer, ownerReadOnlyPid)).body).toEqual({ pid: ownerReadOnlyPid, cancelled: true })
    expect((await cancel(owner, fullPid, 'terminate')).body).toEqual({ pid: fullPid, terminated: true })
    expect((await own).body.message).toBe('canceling statement due to user request')
    expect((await ownerReadOnly).body.message).toBe('canceling statement due to user request')
    expect((await full).body.message).toBe('terminating connection due to administrator command')
  })
})

describe('POST /platform/feedback/downgrade', () => {
  it('takes the exit survey only from members who may delete the project or change the plan', async () => {
    const survey = (caller: Caller, extra: Record<string, unknown> = {}) =>
      api(t, 'POST', '/platform/feedback/downgrade', caller, { projectRef: ref, orgSlug, reasons: ['Too expensive'], additionalFeedback: 'bye', exitAction: 'delete', ...extra })
    const surveys = async () => (await t.platform.ctx.db.query('SELECT count(*)::int AS n FROM exit_surveys')).rows[0].n as number

    const outsiderEmail = `outsider-${crypto.randomUUID()}@example.com`
    await createUser(t.platform.ctx.db, outsiderEmail, 'outsider-password-1')
    const outsider: Caller = { token: await tokenFor(t, outsiderEmail) }
    const before = await surveys()
    const fromOutsider = await survey(outsider)
    expect(fromOutsider.status).toBe(404)
    expect(fromOutsider.body).toEqual({ message: `Organization ${orgSlug} not found` })
    for (const caller of [readOnly, developer]) {
      const refused = await survey(caller)
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual({ message: 'You need additional permissions to update this project' })
    }
    // A plan downgrade survey needs the billing permission: an administrator lacks it.
    const admin: Caller = { token: (await memberWithRole(t, orgSlug, 'administrator')).token }
    expect((await survey(admin, { exitAction: 'downgrade' })).status).toBe(403)
    expect(await surveys()).toBe(before)

    // An outsider's own organization does not open another organization's project.
    const own = await api(t, 'POST', '/platform/organizations', outsider, { name: 'Outsider Org' })
    expect(own.status).toBe(201)
    const crossed = await survey(outsider, { orgSlug: own.body.slug })
    expect(crossed.status).toBe(404)
    expect(crossed.body).toEqual({ message: `Project ${ref} not found` })
    expect(await surveys()).toBe(before)

    expect((await survey(admin)).status).toBe(201)
    expect((await survey(owner, { exitAction: 'downgrade' })).status).toBe(201)
    expect(await surveys()).toBe(before + 2)
  })
})
