import { SQL_HISTORY_RETENTION, SQL_OPEN_TRANSACTION_WARNING, SqlHistoryPage, SqlQueryResponse } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login, memberWithRole, startTestPlatform, waitForStatus, type TestPlatform } from './harness.js'

/** Issue 15 points 5 and 6: Postgres's messages, command tags and values as it prints them; each member's query history. */
let t: TestPlatform
let cookie: string
let ref: string
let orgSlug: string
type Caller = { cookie?: string; token?: string }

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Messages', organization_slug: orgSlug, db_pass: 'messages-password-1' })
  ref = created.body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 20_000)
})
afterAll(() => t?.cleanup())

const run = (body: unknown, caller: Caller = { cookie }) => api(t, 'POST', `/platform/pg-meta/${ref}/query`, caller, body)
const history = (query = '', caller: Caller = { cookie }) => api(t, 'GET', `/platform/projects/${ref}/sql/history${query}`, caller)

async function streamed(body: unknown) {
  const response = await fetch(`${t.platform.url}/platform/pg-meta/${ref}/query`, {
    method: 'POST',
    headers: { cookie, origin: t.platform.url, accept: 'application/x-ndjson', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return (await response.text()).trim().split('\n').map((line) => JSON.parse(line))
}

describe("Postgres's messages of a run", () => {
  it('returns NOTICE, WARNING and INFO output with detail and hint, in order, with the statement that raised it', async () => {
    const query = `select 1 as one;
do $$ begin
  raise notice 'counted % rows', 3 using detail = 'from the demo table', hint = 'nothing to do';
  raise warning 'disk is %', 'fine';
  raise info 'just saying';
end $$`
    const answer = await run({ query })
    expect(answer.status).toBe(201)
    const body = SqlQueryResponse.parse(answer.body)
    expect(body.notices).toEqual([
      { severity: 'NOTICE', message: 'counted 3 rows', detail: 'from the demo table', hint: 'nothing to do', statement_index: 1 },
      { severity: 'WARNING', message: 'disk is fine', statement_index: 1 },
      { severity: 'INFO', message: 'just saying', statement_index: 1 },
    ])
    expect(body.warnings).toEqual([])
    // The streamed answer carries them in its end frame.
    const end = (await streamed({ query })).at(-1)
    expect(end).toMatchObject({ kind: 'end', status: 201 })
    expect(end.body.notices.map((notice: { message: string }) => notice.message)).toEqual(['counted 3 rows', 'disk is fine', 'just saying'])
    // A notice before an error is kept too.
    const failing = await run({ query: `do $$ begin raise notice 'before'; perform 1 / 0; end $$` })
    expect(failing.status).toBe(400)
    expect(failing.body.notices).toEqual([{ severity: 'NOTICE', message: 'before', statement_index: 0 }])
  })

  it("gives each statement's command tag as Postgres sent it", async () => {
    const answer = await run({
      query: `create table tagged (id int primary key, name text);
insert into tagged values (1, 'a'), (2, 'b'), (3, 'c');
update tagged set name = upper(name) where id < 3;
delete from tagged where id = 3;
select * from tagged order by id;
drop table tagged`,
      read_only: false,
    })
    expect(answer.status).toBe(201)
    expect(answer.body.results.map((result: { command_tag: string }) => result.command_tag)).toEqual(['CREATE TABLE', 'INSERT 0 3', 'UPDATE 2', 'DELETE 1', 'SELECT 2', 'DROP TABLE'])
  })

  it('warns when the query leaves a transaction open, which is rolled back', async () => {
    const open = await run({ query: 'begin; create table left_open (id int); insert into left_open values (1)', read_only: false })
    expect(open.status).toBe(201)
    expect(open.body.warnings).toEqual([SQL_OPEN_TRANSACTION_WARNING])
    const gone = await run({ query: `select to_regclass('public.left_open') is null as gone` })
    expect(gone.body.results[0].rows).toEqual([{ gone: true }])
    // Committed: no warning, and the table stays.
    const committed = await run({ query: 'begin; create table kept (id int); commit', read_only: false })
    expect(committed.body.warnings).toEqual([])
    expect(committed.body.results.map((result: { command_tag: string }) => result.command_tag)).toEqual(['BEGIN', 'CREATE TABLE', 'COMMIT'])
    // A failure inside a transaction leaves it aborted: it is rolled back too, and said so.
    const aborted = await run({ query: 'begin; insert into kept values (1); select 1 / 0', read_only: false })
    expect(aborted.status).toBe(400)
    expect(aborted.body.warnings).toEqual([SQL_OPEN_TRANSACTION_WARNING])
  })

  it('keeps the error fields Postgres gives: position, DETAIL and HINT', async () => {
    const hinted = await run({ query: 'select 1;\nselect lower(1, 2, 3)' })
    expect(hinted.status).toBe(400)
    expect(hinted.body.error).toMatchObject({ message: 'function lower(integer, integer, integer) does not exist', code: '42883', statement_index: 1, position: 18 })
    expect(hinted.body.error.hint).toMatch(/No function matches the given name and argument types/)
    await run({ query: 'create table uniq (id int primary key); insert into uniq values (1)', read_only: false })
    const detailed = await run({ query: 'insert into uniq values (1)', read_only: false })
    expect(detailed.body.error).toMatchObject({ code: '23505', detail: 'Key (id)=(1) already exists.' })
  })

  it('shows values as Postgres prints them in the editor, and as pg parses them on the Management API', async () => {
    const query = `select '\\xdeadbeef'::bytea as by, array[1, null, 3] as ia, array['a', 'b"c'] as ta, '1 day 02:03:04'::interval as iv,
      point(1, 2) as pt, circle(point(0, 0), 2) as ci, box(point(0, 0), point(1, 1)) as bx, '[1,5)'::int4range as r, row(1, 'x') as rec,
      '10.0.0.1/8'::inet as ip, 7::int8 as big, 1.5::numeric as n, true as b, '{"a": 1}'::jsonb as jb`
    const answer = await run({ query })
    expect(answer.status).toBe(201)
    expect(answer.body.results[0].rows[0]).toEqual({
      by: '\\xdeadbeef', ia: '{1,NULL,3}', ta: '{a,"b\\"c"}', iv: '1 day 02:03:04', pt: '(1,2)', ci: '<(0,0),2>', bx: '(1,1),(0,0)', r: '[1,5)',
      rec: '(1,x)', ip: '10.0.0.1/8', big: 7, n: '1.5', b: true, jb: { a: 1 },
    })
    const v1 = await api(t, 'POST', `/v1/projects/${ref}/database/query`, { cookie }, { query: 'select array[1, 2] as ia', read_only: true })
    expect(v1.body).toEqual([{ ia: [1, 2] }])
  })
})

describe('query history', () => {
  it("records each run for the member who ran it, not another member's; searchable and paged", async () => {
    const developer = await memberWithRole(t, orgSlug, 'developer')
    const readOnly = await memberWithRole(t, orgSlug, 'read_only')
    expect((await run({ query: 'select 41 + 1 as answer_of_history' }, { token: developer.token })).status).toBe(201)
    expect((await run({ query: 'select * from no_such_history_table' }, { token: developer.token })).status).toBe(400)
    expect((await run({ query: "select 'read only member' as who" }, { token: readOnly.token })).status).toBe(201)
    // A read of the table editor's own asks not to be kept.
    expect((await run({ query: 'select 1 as not_kept', history: false }, { token: developer.token })).status).toBe(201)

    const mine = await history('', { token: developer.token })
    expect(mine.status).toBe(200)
    const page = SqlHistoryPage.parse(mine.body)
    expect(page.entries.map((entry) => entry.query)).toEqual(['select * from no_such_history_table', 'select 41 + 1 as answer_of_history'])
    expect(page.entries[0]).toMatchObject({ status: 'error', error_message: 'relation "no_such_history_table" does not exist', row_count: null })
    expect(page.entries[1]).toMatchObject({ status: 'ok', error_message: null, row_count: 1 })
    expect(page.entries[1]?.duration_ms).toBeGreaterThanOrEqual(0)
    expect(Date.parse(page.entries[1]?.ran_at ?? '')).not.toBeNaN()
    expect(page.next_cursor).toBeNull()

    // Another member sees only their own, and the owner none of these.
    expect((await history('', { token: readOnly.token })).body.entries.map((entry: { query: string }) => entry.query)).toEqual(["select 'read only member' as who"])
    expect((await history('?search=history')).body.entries.some((entry: { query: string }) => entry.query.includes('_history'))).toBe(false)

    // Search is on the text, case-insensitive, and LIKE's wildcards match themselves.
    expect((await history('?search=ANSWER_OF', { token: developer.token })).body.entries.map((entry: { query: string }) => entry.query)).toEqual(['select 41 + 1 as answer_of_history'])
    expect((await history('?search=%25', { token: developer.token })).body.entries).toEqual([])

    // Paging: limit and the cursor of the previous page.
    const first = await history('?limit=1', { token: developer.token })
    expect(first.body.entries).toHaveLength(1)
    const second = await history(`?limit=1&cursor=${first.body.next_cursor}`, { token: developer.token })
    expect(second.body.entries.map((entry: { query: string }) => entry.query)).toEqual(['select 41 + 1 as answer_of_history'])
    expect(second.body.next_cursor).toBeNull()
  })

  it('records a write with the rows it changed, and a streamed run', async () => {
    expect((await run({ query: 'create table hist_rows (id int)', read_only: false })).body).toMatchObject({ results: [{}] })
    expect((await run({ query: 'insert into hist_rows select generate_series(1, 7)', read_only: false })).status).toBe(201)
    await streamed({ query: 'select g from generate_series(1, 250) g -- streamed history' })
    const entries = (await history('?limit=2')).body.entries
    expect(entries[0]).toMatchObject({ query: 'select g from generate_series(1, 250) g -- streamed history', status: 'ok', row_count: 250 })
    expect(entries[1]).toMatchObject({ query: 'insert into hist_rows select generate_series(1, 7)', status: 'ok', row_count: 7 })
  })

  it('keeps the text as written and the named parameters it ran with (issue 33 item 10)', async () => {
    const written = "-- @set n:int = 3\nselect :n as n_of_history, :kind as kind"
    const answer = await run({ query: "select 3 as n_of_history, 'x' as kind", history_query: written, history_parameters: [{ name: 'n', value: '3' }, { name: 'kind', value: 'x' }] })
    expect(answer.status).toBe(201)
    const [entry] = (await history('?search=n_of_history')).body.entries
    expect(entry).toMatchObject({ query: written, parameters: [{ name: 'n', value: '3' }, { name: 'kind', value: 'x' }], status: 'ok', row_count: 1 })
    // A run without parameters keeps none.
    await run({ query: 'select 1 as plain_of_history' })
    expect((await history('?search=plain_of_history')).body.entries[0]).toMatchObject({ query: 'select 1 as plain_of_history', parameters: null })
    for (const [body, message] of [
      [{ query: 'select 1', history_parameters: [{ name: 'bad name', value: '1' }] }, 'a parameter name must be a SQL identifier'],
      [{ query: 'select 1', history_parameters: [{ name: 'n', value: 1 }] }, 'a parameter value must be a string'],
      [{ query: 'select 1', history_parameters: 'n=1' }, 'history_parameters must be a list of { name, value }'],
      [{ query: 'select 1', history_query: '  ' }, 'query cannot be empty'],
    ] as const) {
      const refused = await run(body)
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(refused.body.message).toEqual(message)
    }
  })

  it(`keeps the newest ${SQL_HISTORY_RETENTION} runs per member and project`, async () => {
    const member = await memberWithRole(t, orgSlug, 'developer')
    const userId = (await t.platform.ctx.db.query('SELECT id FROM users WHERE email = $1', [member.email])).rows[0].id
    // As many runs as the limit, recorded earlier (inserted directly: running 500 queries proves nothing more).
    await t.platform.ctx.db.query(
      `INSERT INTO query_history (project_ref, user_id, query, duration_ms, row_count, status)
       SELECT $1, $2, 'select ' || g, 1, 1, 'ok' FROM generate_series(1, $3::int) g`,
      [ref, userId, SQL_HISTORY_RETENTION],
    )
    expect((await run({ query: 'select 501 as newest' }, { token: member.token })).status).toBe(201)
    // The answer does not wait for the entry; the listing does (QueryHistory.settled): read it first, then the table.
    const newest = await history('?limit=2', { token: member.token })
    expect(newest.body.entries.map((entry: { query: string }) => entry.query)).toEqual(['select 501 as newest', `select ${SQL_HISTORY_RETENTION}`])
    const { rows } = await t.platform.ctx.db.query('SELECT count(*)::int AS n, min(query) FILTER (WHERE query = $3) AS oldest FROM query_history WHERE project_ref = $1 AND user_id = $2', [ref, userId, 'select 1'])
    expect(rows[0]).toEqual({ n: SQL_HISTORY_RETENTION, oldest: null })
    // Another member's history on the project is not touched by this member's runs.
    expect((await t.platform.ctx.db.query('SELECT count(*)::int AS n FROM query_history WHERE project_ref = $1 AND user_id <> $2', [ref, userId])).rows[0].n).toBeGreaterThan(0)
  })

  it('answers bad input with 400 and a message, and outsiders with 404', async () => {
    for (const [query, message] of [
      ['?limit=0', 'limit must be at least 1'],
      ['?limit=abc', 'limit must be a number'],
      ['?cursor=x', 'cursor must be the next_cursor of a previous page'],
      ['?other=1', expect.stringContaining('other')],
    ] as const) {
      const answer = await history(query)
      expect(answer.status, query).toBe(400)
      expect(answer.body.message).toEqual(message)
    }
    expect((await api(t, 'GET', '/platform/projects/abcdefghijklmnopqrst/sql/history', { cookie })).status).toBe(404)
  })
})
