import { SQL_EXPORT_SINGLE_QUERY_MESSAGE, SqlExportTicket } from '@stratum/contracts'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MEMBER_EXPORT_CONCURRENCY } from '../../src/http/routes/sql-export.js'
import { api, login, memberWithRole, startTestPlatform, waitFor, waitForStatus, type Caller, type TestPlatform } from './harness.js'

/** Issue 15 point 5: the whole result of a query, streamed by the server as CSV or JSON. */
let t: TestPlatform
let cookie: string
let ref: string
let orgSlug: string

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Export', organization_slug: orgSlug, db_pass: 'export-password-1' })
  ref = created.body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 20_000)
})
afterAll(() => t?.cleanup())

const BIG = 'select g as id, md5(g::text) as hash from generate_series(1, 200000) g'
const md5 = (text: string) => createHash('md5').update(text).digest('hex')

const start = (body: unknown, caller: Caller = { cookie }, path = `/platform/pg-meta/${ref}/query/export`) => api(t, 'POST', path, caller, body)

/** Opens a ticket's URL as the browser would (a plain GET with the session cookie). */
function download(url: string, caller: Caller = { cookie }, signal?: AbortSignal) {
  const headers: Record<string, string> = {}
  if (caller.cookie) headers.cookie = caller.cookie
  if (caller.token) headers.authorization = `Bearer ${caller.token}`
  return fetch(t.platform.url + url, { headers, signal })
}

async function exported(query: string, format: 'csv' | 'json', caller: Caller = { cookie }) {
  const ticket = await start({ query, format, file_name: 'Big result' }, caller)
  expect(ticket.status, JSON.stringify(ticket.body)).toBe(201)
  const { url, file_name } = SqlExportTicket.parse(ticket.body)
  const response = await download(url, caller)
  return { url, file_name, response, text: await response.text() }
}

const run = (query: string, readOnly = false) => api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query, read_only: readOnly })

describe('export of a whole result', () => {
  it('streams 200,000 rows as CSV with a header, once, as an attachment', async () => {
    const { url, file_name, response, text } = await exported(BIG, 'csv')
    expect(response.status).toBe(200)
    expect(file_name).toBe('Big result.csv')
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="Big result.csv"; filename*=UTF-8''Big%20result.csv`)
    const lines = text.trimEnd().split('\n')
    expect(lines[0]).toBe('id,hash')
    expect(lines.length - 1).toBe(200_000)
    expect(lines[1]).toBe(`1,${md5('1')}`)
    expect(lines[200_000]).toBe(`200000,${md5('200000')}`)
    // The URL works once.
    const again = await download(url)
    expect(again.status).toBe(404)
    expect(await again.json()).toEqual({ message: 'This export is not available: it was downloaded already, or it expired' })
  })

  it('streams 200,000 rows as one JSON array', async () => {
    const { response, text, file_name } = await exported(BIG, 'json')
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(file_name).toBe('Big result.json')
    const rows = JSON.parse(text) as Array<{ id: number; hash: string }>
    expect(rows).toHaveLength(200_000)
    expect(rows[0]).toEqual({ id: 1, hash: md5('1') })
    expect(rows[199_999]).toEqual({ id: 200_000, hash: md5('200000') })
  })

  it("keeps values exact in JSON: escapes, json with newlines, nulls, unicode; an empty result is []", async () => {
    const query = String.raw`select E'back\\slash "quoted"\n\ttab' as s, '{"a":
  [1, 2]}'::json as j, '{"b": "x\\y"}'::jsonb as jb, null::text as n, 'héllo ✓ 🐘' as u, '\xdead'::bytea as by, 1.50::numeric as num`
    const { text } = await exported(query, 'json')
    expect(JSON.parse(text)).toEqual([{ s: 'back\\slash "quoted"\n\ttab', j: { a: [1, 2] }, jb: { b: 'x\\y' }, n: null, u: 'héllo ✓ 🐘', by: '\\xdead', num: 1.5 }])
    expect(JSON.parse((await exported('select 1 as one where false', 'json')).text)).toEqual([])
    // CSV quotes what needs quoting, as Postgres writes it.
    const csv = await exported(String.raw`select E'a,b\nc' as x, null as y, 'plain' as z`, 'csv')
    expect(csv.text).toBe('x,y,z\n"a,b\nc",,plain\n')
  })

  it("answers a query's error before the file starts, with Postgres's message", async () => {
    const missing = await start({ query: 'select * from no_such_export_table', format: 'csv' })
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ message: 'relation "no_such_export_table" does not exist' })
    const divided = await start({ query: 'select 1 / 0 as x', format: 'json' })
    expect(divided.status).toBe(400)
    expect(divided.body.message).toBe('division by zero')
  })

  it('refuses bad input: format, empty, not a single select', async () => {
    expect((await start({ query: 'select 1', format: 'xlsx' })).body).toEqual({ message: 'format must be csv or json' })
    expect((await start({ query: 'select 1' })).status).toBe(400)
    expect((await start({ query: '   ', format: 'csv' })).body).toEqual({ message: 'query cannot be empty' })
    expect((await start({ query: 'select 1', format: 'csv', extra: true })).status).toBe(400)
    for (const query of ['delete from pg_class', 'create table x (id int)', 'select 1; select 2', 'copy (select 1) to stdout', 'explain select 1', 'set role postgres']) {
      const answer = await start({ query, format: 'csv' })
      expect(answer.status, query).toBe(400)
      expect(answer.body, query).toEqual({ message: SQL_EXPORT_SINGLE_QUERY_MESSAGE })
    }
    // What the dashboard fills in before a run cannot reach the parser masked.
    expect((await start({ query: 'select :id as id', format: 'csv' })).body).toEqual({ message: "Fill in the query's parameters before exporting it" })
    // A syntax error says so.
    expect((await start({ query: 'select from where', format: 'csv' })).body.message).toMatch(/^The query cannot be exported: syntax error/)
    // WITH, VALUES, TABLE and a trailing semicolon and comment are fine.
    await run('create table export_items (id int primary key, name text); insert into export_items values (1, $$one$$), (2, $$two$$)')
    expect((await exported('with x as (select 2 as n) select n from x;  -- done', 'csv')).text).toBe('n\n2\n')
    expect((await exported('values (1, 2)', 'csv')).text).toBe('column1,column2\n1,2\n')
    expect((await exported('table export_items', 'csv')).text).toBe('id,name\n1,one\n2,two\n')
  })

  it('fails safely on a query that tries to leave COPY, and never writes', async () => {
    for (const query of [
      "select 1) to program 'id' --",
      "select 1) to '/tmp/stratum-export-escape' --",
      "select 1) to stdout; copy (select 1) to program 'id' --",
      "select 1 /* ) to program 'id' -- */",
      "select $$ ) to program 'id' -- $$ as s) to program 'id' --",
    ]) {
      const answer = await start({ query, format: 'csv' })
      // Each is refused, or (the comment and the dollar quote) runs as the harmless select it is.
      if (answer.status === 201) {
        const text = await (await download(answer.body.url)).text()
        expect(text, query).toMatch(/^(\?column\?\n1|s\n" \) to program 'id' -- ")\n$/)
      } else {
        expect(answer.status, query).toBe(400)
      }
    }
    // A data-modifying CTE or a sequence step is a write: the read-only role in a READ ONLY
    // transaction refuses it, even for the owner who may write with the full connection.
    const deleting = await start({ query: 'with d as (delete from export_items returning *) select * from d', format: 'csv' })
    expect(deleting.status).toBe(400)
    expect(deleting.body.message).toMatch(/read-only transaction|permission denied/)
    expect((await run('select count(*)::int as n from export_items', true)).body.results[0].rows).toEqual([{ n: 2 }])
    await run('create sequence export_seq')
    const stepping = await start({ query: "select nextval('export_seq')", format: 'json' })
    expect(stepping.status).toBe(400)
    expect(stepping.body.message).toMatch(/read-only transaction|permission denied/)
    // It runs as the read-only role.
    expect(JSON.parse((await exported('select current_user as who', 'json')).text)).toEqual([{ who: 'stratum_readonly' }])
  })

  it("is a read: every member may export; outsiders, other callers and other projects' refs are refused", async () => {
    const readOnly = await memberWithRole(t, orgSlug, 'read_only')
    const developer = await memberWithRole(t, orgSlug, 'developer')
    expect((await exported('select 1 as one', 'csv', { token: readOnly.token })).text).toBe('one\n1\n')

    const outsider = await memberWithRole(t, orgSlug, 'owner')
    await t.platform.ctx.db.query('DELETE FROM members WHERE user_id = (SELECT id FROM users WHERE email = $1)', [outsider.email])
    const refused = await start({ query: 'select 1', format: 'csv' }, { token: outsider.token })
    expect(refused.status).toBe(404)
    expect(refused.body).toEqual({ message: `Project ${ref} not found` })
    // Another project's ref (one the caller has no access to) is refused the same way.
    expect((await start({ query: 'select 1', format: 'csv' }, { cookie }, '/platform/pg-meta/abcdefghijabcdefghij/query/export')).status).toBe(404)
    expect((await start({ query: 'select 1', format: 'csv' }, { cookie }, '/platform/pg-meta/not-a-ref/query/export')).status).toBe(400)
    // Not signed in, or a cross-site form post with the session cookie: refused.
    expect((await start({ query: 'select 1', format: 'csv' }, {})).status).toBe(401)
    const crossSite = await start({ query: 'select 1', format: 'csv' }, { cookie, origin: 'https://evil.example' })
    expect(crossSite.status).toBe(403)

    // A ticket is the caller's own, on its own project's URL.
    const ticket = await start({ query: 'select 1 as one', format: 'csv' }, { token: developer.token })
    expect(ticket.status).toBe(201)
    const url: string = ticket.body.url
    expect((await download(url, { cookie })).status).toBe(404)
    expect((await download(url.replace(ref, 'abcdefghijabcdefghij'), { token: developer.token })).status).toBe(404)
    expect((await download(url.replace(/[^/]+$/, 'x'.repeat(32)), { token: developer.token })).status).toBe(404)
    expect((await download(url.replace(/[^/]+$/, 'short'), { token: developer.token })).status).toBe(400)
    // Taken by someone else it stays the caller's: still downloadable once.
    expect(await (await download(url, { token: developer.token })).text()).toBe('one\n1\n')
  })

  it(`runs at most ${MEMBER_EXPORT_CONCURRENCY} exports of a member at once`, async () => {
    const urls: string[] = []
    for (let i = 0; i < MEMBER_EXPORT_CONCURRENCY; i++) {
      const ticket = await start({ query: BIG, format: 'csv' })
      expect(ticket.status).toBe(201)
      urls.push(ticket.body.url)
    }
    const over = await start({ query: 'select 1', format: 'csv' })
    expect(over.status).toBe(429)
    expect(over.body.message).toMatch(/at most 2 exports at once/)
    // A finished download frees its share.
    for (const url of urls) expect((await (await download(url)).text()).length).toBeGreaterThan(0)
    expect((await start({ query: 'select 1', format: 'csv' })).status).toBe(201)
  })

  it('stops the query and frees its session when the download is cancelled', async () => {
    const marker = `export_abort_${Date.now()}`
    // In the select list the series streams row by row (in FROM, Postgres would first write all of it to disk).
    const query = `select generate_series(1, 100000000) as ${marker}, repeat('x', 200) as pad`
    const ticket = await start({ query, format: 'csv' })
    expect(ticket.status).toBe(201)
    const controller = new AbortController()
    const response = await download(ticket.body.url, { cookie }, controller.signal)
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value).startsWith(`${marker},pad`)).toBe(true)
    const running = async () => {
      const sessions = await api(t, 'GET', `/platform/pg-meta/${ref}/query/ongoing`, { cookie })
      return (sessions.body as Array<{ query: string }>).some((session) => session.query.includes(marker))
    }
    expect(await running()).toBe(true)
    controller.abort()
    await waitFor(async () => !(await running()), { what: 'the export query to end after the download was cancelled' })
    // The member's share is free again.
    for (let i = 0; i < MEMBER_EXPORT_CONCURRENCY; i++) {
      const next = await start({ query: 'select 1 as one', format: 'csv' })
      expect(next.status).toBe(201)
      expect(await (await download(next.body.url)).text()).toBe('one\n1\n')
    }
  })
})
