import { SQL_RESULTS_TRUNCATED_MESSAGE, SqlQueryErrorResponse, SqlQueryResponse, WRITE_CONNECTION_REQUIRED } from '@stratum/contracts'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresTextTypes } from '../../src/sql-runner/pools.js'
import { api, login, memberWithRole, startTestPlatform, tokenFor, waitFor, waitForStatus, ADMIN_EMAIL, type TestPlatform } from './harness.js'

let t: TestPlatform
let cookie: string
let ref: string
let orgSlug: string
let readOnly: { token: string }
let developer: { token: string }

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Sql', organization_slug: orgSlug, db_pass: 'sql-password-1' })
  ref = created.body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 20_000)
  readOnly = await memberWithRole(t, orgSlug, 'read_only')
  developer = await memberWithRole(t, orgSlug, 'developer')
})
afterAll(() => t?.cleanup())

const run = (body: unknown, caller: { cookie?: string; token?: string } = { cookie }) => api(t, 'POST', `/platform/pg-meta/${ref}/query`, caller, body)

describe('SQL editor query', () => {
  it('runs on the read-only connection first and answers WRITE_CONNECTION_REQUIRED for a write', async () => {
    const refused = await run({ query: 'create table items (id int primary key, name text)' })
    expect(refused.status).toBe(403)
    expect(SqlQueryErrorResponse.parse(refused.body)).toMatchObject({
      code: WRITE_CONNECTION_REQUIRED,
      can_run_with_full_connection: true,
      read_only: true,
      error: { statement_index: 0 },
    })
    expect(refused.body.message).toMatch(/permission denied|read-only transaction/)
    const who = await run({ query: 'select current_user as who' })
    expect(who.status).toBe(201)
    expect(who.body.results[0].rows).toEqual([{ who: 'stratum_readonly' }])

    // Nothing was created on the read-only try.
    const check = await run({ query: "select to_regclass('public.items') as t" })
    expect(check.body.results[0].rows).toEqual([{ t: null }])
  })

  it('runs the write on the full connection for the owner, and refuses a read-only member', async () => {
    const member = await run({ query: 'create table items (id int)' }, readOnly)
    expect(member.status).toBe(403)
    expect(member.body).toMatchObject({ code: WRITE_CONNECTION_REQUIRED, can_run_with_full_connection: false })
    const escalated = await run({ query: 'create table items (id int)', read_only: false }, readOnly)
    expect(escalated.status).toBe(403)
    expect(escalated.body.message).toBe('You do not have sufficient permissions to run queries that write to this database')

    const owner = await run({ query: 'create table items (id int primary key, name text)', read_only: false })
    expect(owner.status).toBe(201)
    expect(SqlQueryResponse.parse(owner.body).results[0]).toMatchObject({ command: 'CREATE' })
    expect(owner.body.read_only).toBe(false)
    const dev = await run({ query: "insert into items values (1, 'one'), (2, 'two')", read_only: false }, developer)
    expect(dev.status).toBe(201)
    expect(dev.body.results[0]).toMatchObject({ command: 'INSERT', rowCount: 2 })
    // The read-only role reads everything (pg_read_all_data).
    const read = await run({ query: 'select * from items order by id' }, readOnly)
    expect(read.body.results[0].rows).toEqual([{ id: 1, name: 'one' }, { id: 2, name: 'two' }])
  })

  it('runs several statements in order in one session and returns each result', async () => {
    const sql = "select 1 as a;\nset search_path = pg_catalog;\nselect current_setting('search_path') as path, now()::date = current_date as today;"
    const result = await run({ query: sql })
    expect(result.status).toBe(201)
    const results = SqlQueryResponse.parse(result.body).results
    expect(results.map((r) => r.command)).toEqual(['SELECT', 'SET', 'SELECT'])
    expect(results[0]).toMatchObject({ statement: 'select 1 as a', start: 0, rows: [{ a: 1 }], columns: [{ name: 'a', data_type_id: 23 }], rowCount: 1 })
    expect(results[2]!.rows).toEqual([{ path: 'pg_catalog', today: true }])
    expect(sql.slice(results[1]!.start, results[1]!.end)).toBe('set search_path = pg_catalog')
    for (const r of results) expect(r.elapsed_ms).toBeGreaterThanOrEqual(0)

    // The next request gets a clean session: the setting did not leak through the pool.
    for (let i = 0; i < 4; i++) {
      const after = await run({ query: "select current_setting('search_path') as path" })
      expect(after.body.results[0].rows).toEqual([{ path: '"$user", public, extensions' }])
    }
  })

  it('stops at the first error and reports its message and position in the whole query', async () => {
    const sql = 'select 1 as first;\nselect * from no_such_table;\nselect 3'
    const result = await run({ query: sql })
    expect(result.status).toBe(400)
    expect(result.body.message).toBe('relation "no_such_table" does not exist')
    expect(result.body.code).toBe('42P01')
    expect(result.body.results).toHaveLength(1)
    expect(result.body.error).toMatchObject({ statement_index: 1, code: '42P01' })
    // Postgres counts positions from 1.
    expect(sql.slice(result.body.error.position - 1).startsWith('no_such_table')).toBe(true)

    const syntax = await run({ query: 'select 1;\nselec 2' })
    expect(syntax.status).toBe(400)
    expect(syntax.body.message).toBe('syntax error at or near "selec"')
    expect(syntax.body.error.position).toBe(11)
  })

  it('rolls back a transaction left open and keeps nothing of it', async () => {
    const open = await run({ query: "begin; insert into items values (3, 'three')", read_only: false })
    expect(open.status).toBe(201)
    const count = await run({ query: 'select count(*)::int as n from items' })
    expect(count.body.results[0].rows).toEqual([{ n: 2 }])
  })

  it('cancels a statement past its timeout', async () => {
    // The messages say who stopped each query (its timeout, the watchdog); how long that took is
    // the bench's business, not a test's on a busy machine.
    const result = await run({ query: 'select pg_sleep(5)', statement_timeout_ms: 300 })
    expect(result.status).toBe(400)
    expect(result.body.message).toBe('canceling statement due to statement timeout')
    // Turning the timeout off inside the query does not escape the watchdog.
    const sneaky = await run({ query: 'set statement_timeout = 0; select pg_sleep(10)', statement_timeout_ms: 200 })
    expect(sneaky.status).toBe(400)
    expect(sneaky.body.message).toBe('canceling statement due to user request')

    const tooLong = await run({ query: 'select 1', statement_timeout_ms: 10_000_000 })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.message).toBe('statement_timeout_ms must be at most 300000')
    // The editor's per-run setting: an integer number of ms, positive, at most 5 min; anything else is refused before running.
    for (const [bad, message] of [
      ['10s', 'statement_timeout_ms must be a number'],
      [1500.5, 'statement_timeout_ms must be an integer'],
      [0, 'statement_timeout_ms must be positive'],
      [-1, 'statement_timeout_ms must be positive'],
      [null, 'statement_timeout_ms must be a number'],
    ] as const) {
      const refused = await run({ query: 'select 1', statement_timeout_ms: bad })
      expect(refused.status, String(bad)).toBe(400)
      expect(refused.body).toEqual({ message })
    }
    // Within bounds, the setting holds for the run (and the next run is back to the default).
    const set = await run({ query: "select current_setting('statement_timeout') as timeout", statement_timeout_ms: 10_000 })
    expect(set.body.results[0].rows).toEqual([{ timeout: '10s' }])
    const after = await run({ query: "select current_setting('statement_timeout') as timeout" })
    expect(after.body.results[0].rows).toEqual([{ timeout: '1min' }])
  })

  it('truncates a large result with a clear message instead of holding it all', async () => {
    const rows = await run({ query: 'select g as n from generate_series(1, 150000) g' })
    expect(rows.status).toBe(201)
    expect(rows.body.truncated).toBe(true)
    expect(rows.body.truncated_message).toBe(SQL_RESULTS_TRUNCATED_MESSAGE)
    expect(rows.body.results[0]).toMatchObject({ truncated: true, rowCount: 150000 })
    expect(rows.body.results[0].rows).toHaveLength(100_000)

    // 32 MB of 4,000-character rows is about 8,400 of them.
    const wide = await run({ query: "select g, repeat('x', 4000) as pad from generate_series(1, 20000) g" })
    expect(wide.body.truncated).toBe(true)
    expect(wide.body.results[0].rows.length).toBeLessThan(9_000)
    expect(wide.body.results[0].rows.length).toBeGreaterThan(8_000)
  })

  it('applies the row limit to a single plain select', async () => {
    const limited = await run({ query: 'select g from generate_series(1, 1000) g', row_limit: 100 })
    expect(limited.body.autoLimit).toBe(100)
    expect(limited.body.results[0].rows).toHaveLength(100)
    const none = await run({ query: 'select g from generate_series(1, 1000) g', row_limit: -1 })
    expect(none.body.autoLimit).toBeUndefined()
    expect(none.body.results[0].rows).toHaveLength(1000)
  })

  it('lists an ongoing query and cancels it from another request', async () => {
    const sleeping = run({ query: 'select pg_sleep(30) as slept' }, readOnly)
    let ongoing: any[] = []
    await waitFor(async () => {
      ongoing = (await api(t, 'GET', `/platform/pg-meta/${ref}/query/ongoing`, { token: readOnly.token })).body
      return ongoing.some((q) => q.query.includes('pg_sleep(30)'))
    }, { what: 'the query in the ongoing list' })
    const target = ongoing.find((q) => q.query.includes('pg_sleep(30)'))
    expect(target).toMatchObject({ state: 'active', usename: 'stratum_readonly', application_name: 'stratum-sql-editor' })
    // The platform's own sessions are not listed.
    expect(ongoing.every((q) => !q.application_name.startsWith('stratum-') || q.application_name === 'stratum-sql-editor')).toBe(true)

    const cancelled = await api(t, 'POST', `/platform/pg-meta/${ref}/query/cancel`, { token: readOnly.token }, { pid: target.pid })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toEqual({ pid: target.pid, cancelled: true })
    const answer = await sleeping
    expect(answer.status).toBe(400)
    expect(answer.body.message).toBe('canceling statement due to user request')

    expect((await api(t, 'POST', `/platform/pg-meta/${ref}/query/cancel`, { cookie }, { pid: 1 })).status).toBe(404)
    expect((await api(t, 'POST', `/platform/pg-meta/${ref}/query/cancel`, { cookie }, { pid: 'x' })).body.message).toBe('pid must be a number')
  })

  it('terminates a session only for roles with the full connection', async () => {
    const sleeping = run({ query: 'select pg_sleep(30)', read_only: false })
    let target: any
    await waitFor(async () => {
      target = (await api(t, 'GET', `/platform/pg-meta/${ref}/query/ongoing`, { cookie })).body.find((q: any) => q.query.includes('pg_sleep(30)'))
      return target !== undefined
    }, { what: 'the query in the ongoing list' })
    // The full connection logs in as the editor role, which acts as the user's postgres.
    expect(target.usename).toBe('stratum_editor')
    // A read-only member may neither cancel the superuser's query nor terminate.
    expect((await api(t, 'POST', `/platform/pg-meta/${ref}/query/cancel`, { token: readOnly.token }, { pid: target.pid })).status).toBe(403)
    expect((await api(t, 'POST', `/platform/pg-meta/${ref}/query/terminate`, { token: readOnly.token }, { pid: target.pid })).status).toBe(403)
    const terminated = await api(t, 'POST', `/platform/pg-meta/${ref}/query/terminate`, { cookie }, { pid: target.pid })
    expect(terminated.body).toEqual({ pid: target.pid, terminated: true })
    const answer = await sleeping
    expect(answer.status).toBe(400)
    expect(answer.body.message).toBe('terminating connection due to administrator command')
    // The pool recovers: the next query runs.
    expect((await run({ query: 'select 1 as ok', read_only: false })).body.results[0].rows).toEqual([{ ok: 1 }])
  })

  it('returns every type as Postgres prints it (numbers, booleans and json as JSON; int8 a number when exact), from rows encoded straight to JSON', async () => {
    const query = `select true as b, false as f, 1::int2 as i2, (-2147483648)::int4 as i4, 9007199254740993::int8 as i8, (-9007199254740991)::int8 as i8s, 42::oid as o,
      1.5::float4 as f4, 'NaN'::float8 as nan, '-Infinity'::float8 as ninf, 1e-5::float8 as small, 12345678901234567890.123::numeric as n,
      E'quote " backslash \\ newline \n tab \t bell \x07 é 😀' as t, 'v'::varchar(3) as vc, 'c'::char(3) as bp, 'nm'::name as nm,
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid as u, '{"a": [1, 2.50, null], "b": "x"}'::json as j, '{"z": 1, "a": {"k": true}}'::jsonb as jb,
      array[1, null, 3] as ia, array['a', 'b"c'] as ta, '\\xdeadbeef'::bytea as by, '2024-02-29 12:34:56.123456'::timestamp as ts,
      '2024-02-29 12:34:56.123456+02'::timestamptz as tz, '2024-02-29'::date as d, '1 day 02:03:04'::interval as iv, '10.0.0.1/8'::inet as ip,
      point(1, 2) as pt, null::int as nul, 1 as dup, 2 as dup, row(1, 'x') as rec`
    const answer = await run({ query })
    expect(answer.status, JSON.stringify(answer.body.message)).toBe(201)
    const direct = new pg.Client({ host: '127.0.0.1', port: (await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body.db_port, user: 'postgres', password: 'sql-password-1', database: 'postgres', types: postgresTextTypes })
    direct.on('error', () => {})
    await direct.connect()
    const expected = JSON.parse(JSON.stringify((await direct.query(query)).rows))
    await direct.end()
    expect(answer.body.results[0].rows).toEqual(expected)
    expect(answer.body.results[0].rows[0]).toMatchObject({ b: true, i8: '9007199254740993', i8s: -9007199254740991, nan: null, n: '12345678901234567890.123', dup: 2, jb: { a: { k: true }, z: 1 }, by: '\\xdeadbeef', ia: '{1,NULL,3}', pt: '(1,2)' })
  })

  it('gives back a clean session: settings of one run do not reach the next', async () => {
    const changed = await run({ query: "set search_path = pg_catalog; set statement_timeout = '1s'; select current_setting('search_path') as path" })
    expect(changed.body.results.at(-1).rows).toEqual([{ path: 'pg_catalog' }])
    for (let i = 0; i < 4; i++) {
      const next = await run({ query: "select current_setting('search_path') as path, current_setting('statement_timeout') as timeout" })
      expect(next.body.results[0].rows).toEqual([{ path: '"$user", public, extensions', timeout: '1min' }])
    }
  })

  it('runs a single statement without a semicolon as written, and comments alone as nothing', async () => {
    const single = await run({ query: '  select 1 as one -- a comment; not a second statement\n' })
    expect(single.status).toBe(201)
    expect(single.body.results).toHaveLength(1)
    expect(single.body.results[0]).toMatchObject({ rows: [{ one: 1 }], start: 2 })
    // No semicolon and no comment: the statement is read without the lexer (runner.ts), with the same bounds.
    const plain = await run({ query: '\n  select 2 as two \t' })
    expect(plain.body.results).toHaveLength(1)
    expect(plain.body.results[0]).toMatchObject({ statement: 'select 2 as two', start: 3, end: 18, rows: [{ two: 2 }] })
    const comments = await run({ query: '-- only a comment' })
    expect(comments.status).toBe(201)
    expect(comments.body.results).toEqual([])
  })

  it('applies a role change to the very next query, cached access or not', async () => {
    const member = await memberWithRole(t, orgSlug, 'developer')
    const write = () => run({ query: 'create temporary table scratch (id int)', read_only: false }, { token: member.token })
    for (let i = 0; i < 3; i++) expect((await write()).status).toBe(201)
    const userId = (await t.platform.ctx.db.query('SELECT id FROM users WHERE email = $1', [member.email])).rows[0].id
    const changed = await api(t, 'PATCH', `/platform/organizations/${orgSlug}/members/${userId}`, { cookie }, { role: 'read_only' })
    expect(changed.status).toBe(200)
    const refused = await write()
    expect(refused.status).toBe(403)
    expect(refused.body.message).toMatch(/sufficient permissions/)
    // A change made outside the routes (another process, the CLI) is heard through the database.
    await t.platform.ctx.db.query('DELETE FROM members WHERE user_id = $1', [userId])
    await expect.poll(async () => (await run({ query: 'select 1' }, { token: member.token })).status, { timeout: 15_000 }).toBe(404)
  })

  it('reads tables with row level security on the read-only try as the owner sees them', async () => {
    const setup = await run({ query: 'create table guarded (id int); insert into guarded values (1), (2); alter table guarded enable row level security', read_only: false })
    expect(setup.status).toBe(201)
    const read = await run({ query: 'select count(*)::int as n from guarded' })
    expect(read.body.results[0].rows).toEqual([{ n: 2 }])
  })

  it('streams rows as they arrive when asked for NDJSON, and ends with the plain answer', async () => {
    const stream = async (body: unknown, caller: { cookie?: string; token?: string } = { cookie }) => {
      const response = await fetch(`${t.platform.url}/platform/pg-meta/${ref}/query`, {
        method: 'POST',
        headers: { ...(caller.cookie ? { cookie: caller.cookie } : { authorization: `Bearer ${caller.token}` }), origin: t.platform.url, accept: 'application/x-ndjson', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      const text = await response.text()
      return { status: response.status, type: response.headers.get('content-type'), frames: text.trim().split('\n').map((line) => JSON.parse(line)) }
    }
    const many = await stream({ query: 'select g as n from generate_series(1, 5000) g' })
    expect(many.status).toBe(200)
    expect(many.type).toMatch(/^application\/x-ndjson/)
    expect(many.frames[0]).toEqual({ kind: 'columns', result: 0, columns: [{ name: 'n', data_type_id: 23 }] })
    const batches = many.frames.filter((frame) => frame.kind === 'rows')
    expect(batches.length).toBeGreaterThan(1)
    expect(batches[0].rows).toHaveLength(100) // a small first batch: the first rows show at once
    expect(batches.flatMap((batch) => batch.rows).map((row) => row.n)).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1))
    const end = many.frames.at(-1)
    expect(end).toMatchObject({ kind: 'end', status: 201, body: { read_only: true, truncated: false } })
    expect(end.body.results[0]).toMatchObject({ command: 'SELECT', rowCount: 5000, rows: [] })

    // An error after rows went out: the end frame says so, and the failed statement has no result.
    const failing = await stream({ query: 'select 1 as one; select 1 / (g - 3000) as x from generate_series(1, 5000) g' })
    expect(failing.frames.some((frame) => frame.kind === 'rows' && frame.result === 1)).toBe(true)
    expect(failing.frames.at(-1)).toMatchObject({ kind: 'end', status: 400, body: { message: 'division by zero', error: { statement_index: 1 } } })
    expect(failing.frames.at(-1).body.results).toHaveLength(1)

    // The read-only refusal keeps its meaning; checks before running keep their plain answers.
    const write = await stream({ query: 'create table streamed (id int)' })
    expect(write.frames.at(-1)).toMatchObject({ kind: 'end', status: 403, body: { code: 'WRITE_CONNECTION_REQUIRED', can_run_with_full_connection: true } })
    const bad = await stream({ query: '' })
    expect(bad.status).toBe(400)
    expect(bad.frames[0]).toEqual({ message: 'query cannot be empty' })
  })

  it('answers 400 with a message on bad input', async () => {
    for (const [body, message] of [
      [{}, 'query is required'],
      [{ query: '   ' }, 'query cannot be empty'],
      [{ query: 'select 1', read_only: 'no' }, 'read_only must be true or false'],
      [{ query: 'select 1', extra: 1 }, expect.stringContaining('extra')],
    ] as const) {
      const result = await run(body)
      expect(result.status).toBe(400)
      expect(result.body.message).toEqual(message)
    }
    expect((await api(t, 'POST', `/platform/pg-meta/abcdefghijklmnopqrst/query`, { cookie }, { query: 'select 1' })).status).toBe(404)
  })
})

describe('POST /v1/projects/{ref}/database/query', () => {
  it('answers 201 with the rows of the last statement, with parameters', async () => {
    const token = await tokenFor(t, ADMIN_EMAIL)
    const v1 = (body: unknown, tok = token) => api(t, 'POST', `/v1/projects/${ref}/database/query`, { token: tok, origin: null }, body)
    const result = await v1({ query: 'select 1 as a; select id, name from items order by id' })
    expect(result.status).toBe(201)
    expect(result.headers.get('content-type')).toContain('application/json')
    expect(result.body).toEqual([{ id: 1, name: 'one' }, { id: 2, name: 'two' }])

    const param = await v1({ query: 'select name from items where id = $1', parameters: [2] })
    expect(param.body).toEqual([{ name: 'two' }])
    const write = await v1({ query: "insert into items values (9, 'nine') returning id" })
    expect(write.status).toBe(201)
    expect(write.body).toEqual([{ id: 9 }])
    expect((await v1({ query: 'create table nope (id int)' })).status).toBe(201)

    const sqlError = await v1({ query: 'select * from missing_table' })
    expect(sqlError.status).toBe(400)
    expect(sqlError.body).toEqual({ message: 'relation "missing_table" does not exist' })
    const readOnlyError = await v1({ query: 'drop table items', read_only: true })
    expect(readOnlyError.status).toBe(400)
    expect(readOnlyError.body.message).toMatch(/must be owner|permission denied|read-only/)
    expect((await v1({})).body).toEqual({ message: 'query is required' })

    // A read-only member: reads with read_only true, refused without it.
    expect((await v1({ query: 'select count(*)::int as n from items', read_only: true }, readOnly.token)).body).toEqual([{ n: 3 }])
    const refused = await v1({ query: 'select 1' }, readOnly.token)
    expect(refused.status).toBe(403)
  })
})
