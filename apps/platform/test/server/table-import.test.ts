import http from 'node:http'
import { TABLE_IMPORT_MAX_BYTES } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '../../src/auth/users.js'
import { api, login, memberWithRole, startTestPlatform, tokenFor, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/** Issue 15 point 7: the table editor's CSV import, streamed into COPY in one transaction. */
let t: TestPlatform
let cookie: string
let ref: string
let orgSlug: string
type Caller = { cookie?: string; token?: string }

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Import', organization_slug: orgSlug, db_pass: 'import-password-1' })
  ref = created.body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 20_000)
  const setup = await sql(`create table public.items (id int8 primary key, name text, qty int4, note text);
    create table public.victims (id int);
    create table public."x""; drop table victims; --" (a text);
    create view public.items_view as select * from public.items`)
  expect(setup.status).toBe(201)
}, 60_000)
afterAll(() => t?.cleanup())

const sql = (query: string) => api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query, read_only: false, history: false })
const count = async (table = 'public.items') => (await sql(`select count(*)::int as n from ${table}`)).body.results[0].rows[0].n as number

function importUrl(target: { schema?: string; table?: string; columns?: string[]; header?: string; delimiter?: string; ref?: string }): string {
  const params = new URLSearchParams()
  if (target.schema !== undefined) params.set('schema', target.schema)
  if (target.table !== undefined) params.set('table', target.table)
  for (const column of target.columns ?? []) params.append('columns', column)
  if (target.header !== undefined) params.set('header', target.header)
  if (target.delimiter !== undefined) params.set('delimiter', target.delimiter)
  return `${t.platform.url}/platform/pg-meta/${target.ref ?? ref}/tables/import?${params}`
}

/** Posts a CSV body, a string or a stream of chunks (sent chunked, as a browser streams a file). */
async function upload(url: string, body: string | AsyncIterable<string>, caller: Caller = { cookie }, contentType = 'text/csv') {
  const headers: Record<string, string> = { 'content-type': contentType, origin: t.platform.url }
  if (caller.cookie) headers.cookie = caller.cookie
  if (caller.token) headers.authorization = `Bearer ${caller.token}`
  const stream =
    typeof body === 'string'
      ? body
      : new ReadableStream({
          async start(controller) {
            const encoder = new TextEncoder()
            for await (const chunk of body) controller.enqueue(encoder.encode(chunk))
            controller.close()
          },
        })
  const response = await fetch(url, { method: 'POST', headers, body: stream, ...(typeof body === 'string' ? {} : { duplex: 'half' }) } as RequestInit)
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

async function* rows(from: number, to: number, header = true) {
  if (header) yield 'id,name,qty,note\n'
  const batch: string[] = []
  for (let id = from; id <= to; id++) {
    batch.push(`${id},"item ${id}, ""quoted""",${id % 1000},${id % 3 === 0 ? '' : `"line one\nline two ${id}"`}\n`)
    if (batch.length === 5000) yield batch.splice(0).join('')
  }
  if (batch.length) yield batch.join('')
}

const all = ['id', 'name', 'qty', 'note']

describe('CSV import into a table', () => {
  it('streams 100,000 rows into the table and answers their count', async () => {
    const answer = await upload(importUrl({ schema: 'public', table: 'items', columns: all }), rows(1, 100_000))
    expect(answer).toEqual({ status: 200, body: { rows: 100_000 } })
    expect(await count()).toBe(100_000)
    const sample = await sql(`select name, qty, note from public.items where id in (2, 3) order by id`)
    expect(sample.body.results[0].rows).toEqual([
      { name: 'item 2, "quoted"', qty: 2, note: 'line one\nline two 2' },
      { name: 'item 3, "quoted"', qty: 3, note: null },
    ])
  })

  it('takes the columns in the order of the file, a file without a header line and another delimiter', async () => {
    const answer = await upload(importUrl({ schema: 'public', table: 'items', columns: ['qty', 'id'], header: 'false', delimiter: ';' }), '7;200001\n8;200002\n')
    expect(answer).toEqual({ status: 200, body: { rows: 2 } })
    expect((await sql('select qty from public.items where id = 200002')).body.results[0].rows).toEqual([{ qty: 8 }])
  })

  it('refuses a malformed row with the line Postgres stopped at, and imports nothing of the file', async () => {
    const before = await count()
    const bad = await upload(importUrl({ schema: 'public', table: 'items', columns: all }), 'id,name,qty,note\n300001,a,1,x\n300002,b,1,x\n300003,c,many,x\n300004,d,1,x\n')
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ code: '22P02', line: 4 })
    expect(bad.body.message).toMatch(/^invalid input syntax for type integer: "many"/)
    expect(bad.body.message).toContain('line 4')
    // A row cut short, and an unterminated quote in a file streamed in chunks: the same all-or-nothing.
    const short = await upload(importUrl({ schema: 'public', table: 'items', columns: all }), 'id,name,qty,note\n300005,e,1,x\n300006,f\n')
    expect(short).toMatchObject({ status: 400, body: { line: 3 } })
    async function* unterminated() {
      yield* rows(300_010, 340_000)
      yield '340001,"never closed,1,x\n'
    }
    const quoted = await upload(importUrl({ schema: 'public', table: 'items', columns: all }), unterminated())
    expect(quoted.status).toBe(400)
    expect(quoted.body.message).toMatch(/unterminated CSV quoted field/)
    // A key already there: the whole file is refused, with DETAIL.
    const duplicate = await upload(importUrl({ schema: 'public', table: 'items', columns: ['id'], header: 'false' }), '400001\n1\n')
    expect(duplicate.status).toBe(400)
    expect(duplicate.body.message).toContain('DETAIL: Key (id)=(1) already exists.')
    expect(await count()).toBe(before)
  })

  it('answers bad names, missing tables and columns with a 400 before reading the file', async () => {
    const body = 'id\n1\n'
    const cases: Array<[Parameters<typeof importUrl>[0], RegExp]> = [
      [{ table: 'items', columns: ['id'] }, /schema is required/],
      [{ schema: 'public', columns: ['id'] }, /table is required/],
      [{ schema: 'public', table: 'items' }, /columns is required/],
      [{ schema: 'public', table: 'x'.repeat(64), columns: ['id'] }, /at most 63/],
      [{ schema: 'public', table: 'é'.repeat(40), columns: ['id'] }, /longer than 63 bytes/],
      [{ schema: 'public', table: 'items', columns: [''] }, /cannot be empty/],
      [{ schema: 'public', table: 'items', columns: ['id', 'id'] }, /chosen twice/],
      [{ schema: 'public', table: 'items', columns: ['id'], header: 'yes' }, /header must be true or false/],
      [{ schema: 'public', table: 'items', columns: ['id'], delimiter: "'" }, /delimiter must be/],
      [{ schema: 'public', table: 'nothing_here', columns: ['id'] }, /Table public.nothing_here does not exist/],
      [{ schema: 'public', table: 'items', columns: ['id', 'colour'] }, /has no column "colour"/],
      [{ schema: 'public', table: 'items_view', columns: ['id'] }, /is not a table/],
    ]
    for (const [target, message] of cases) {
      const answer = await upload(importUrl(target), body)
      expect(answer.status, JSON.stringify(target)).toBe(400)
      expect(answer.body.message).toMatch(message)
    }
    const json = await upload(importUrl({ schema: 'public', table: 'items', columns: ['id'] }), '{"id": 1}', { cookie }, 'application/json')
    expect(json.status).toBe(415)
  })

  it('treats hostile names as names: nothing they hold runs', async () => {
    const hostile = 'x"; drop table victims; --'
    const answer = await upload(importUrl({ schema: 'public', table: hostile, columns: ['a'] }), 'a\nfirst\nsecond\n')
    expect(answer).toEqual({ status: 200, body: { rows: 2 } })
    expect(await count('public."x""; drop table victims; --"')).toBe(2)
    const column = await upload(importUrl({ schema: 'public', table: 'items', columns: ['id") FROM STDIN; DROP TABLE victims; --'] }), 'id\n1\n')
    expect(column.status).toBe(400)
    expect(column.body.message).toMatch(/has no column/)
    const schema = await upload(importUrl({ schema: 'public"."items', table: 'items', columns: ['id'] }), 'id\n500001\n')
    expect(schema.status).toBe(400)
    expect(await count('public.victims')).toBe(0)
  })
})

describe('an upload cut off', () => {
  it('rolls the COPY back when the browser goes away mid-file, and the next import runs', async () => {
    const before = await count()
    const controller = new AbortController()
    let sentSome: () => void
    const started = new Promise<void>((resolve) => (sentSome = resolve))
    const body = new ReadableStream({
      async start(stream) {
        const encoder = new TextEncoder()
        for await (const chunk of rows(800_001, 820_000)) stream.enqueue(encoder.encode(chunk))
        sentSome()
        // The rest of the file never comes: the upload is cancelled instead.
      },
    })
    const upload = fetch(importUrl({ schema: 'public', table: 'items', columns: all }), {
      method: 'POST', headers: { cookie, origin: t.platform.url, 'content-type': 'text/csv' }, body, duplex: 'half', signal: controller.signal,
    } as RequestInit)
    await started
    controller.abort()
    await expect(upload).rejects.toThrow()
    // The member's one import slot frees once the server has ended the COPY: a 429 until then.
    await waitFor(async () => (await upload1('900001\n')).status !== 429, { what: 'the cut-off import to end' })
    expect(await count()).toBe(before + 1)
    expect((await sql('select count(*)::int as n from public.items where id between 800001 and 820000')).body.results[0].rows[0].n).toBe(0)
  })
})

describe('a file over the limit', () => {
  it('refuses a file declared larger than 1 GB with 413 before reading it, and imports nothing', async () => {
    const before = await count()
    const target = new URL(importUrl({ schema: 'public', table: 'items', columns: ['id'], header: 'false' }))
    // Only the first bytes are sent: the answer must come from the declared length, not from reading a gigabyte.
    const answer = await new Promise<{ status: number; body: { message?: string } }>((resolve, reject) => {
      const request = http.request(target, {
        method: 'POST',
        headers: { cookie, origin: t.platform.url, 'content-type': 'text/csv', 'content-length': String(TABLE_IMPORT_MAX_BYTES + 1) },
      })
      request.on('response', (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () => {
          request.destroy()
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) })
        })
      })
      request.on('error', reject)
      request.write('990001\n990002\n')
    })
    expect(answer.status).toBe(413)
    expect(answer.body.message).toBe('The file is larger than the 1 GB an import takes')
    expect(await count()).toBe(before)
    // The member's import slot was never taken.
    expect((await upload1('990003\n')).status).toBe(200)
  })
})

const upload1 = (csv: string) => upload(importUrl({ schema: 'public', table: 'items', columns: ['id'], header: 'false' }), csv)

describe('who may import', () => {
  it('refuses a Read-only member (403) and lets a Developer import', async () => {
    const before = await count()
    const readOnly = await memberWithRole(t, orgSlug, 'read_only')
    const refused = await upload(importUrl({ schema: 'public', table: 'items', columns: ['id'], header: 'false' }), '600001\n', { token: readOnly.token })
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe('You do not have sufficient permissions to run queries that write to this database')
    expect(await count()).toBe(before)
    const developer = await memberWithRole(t, orgSlug, 'developer')
    const allowed = await upload(importUrl({ schema: 'public', table: 'items', columns: ['id'], header: 'false' }), '600001\n', { token: developer.token })
    expect(allowed).toEqual({ status: 200, body: { rows: 1 } })
  })

  it("refuses another organization's project and an unknown ref as not found", async () => {
    const outsider = await createUser(t.platform.ctx.db, `outsider-${Date.now()}@example.com`, 'outsider-password-1')
    const token = await tokenFor(t, outsider.email)
    const theirs = await upload(importUrl({ schema: 'public', table: 'items', columns: ['id'], header: 'false' }), '700001\n', { token })
    expect(theirs.status).toBe(404)
    const unknown = await upload(importUrl({ ref: 'abcdefghijklmnopqrst', schema: 'public', table: 'items', columns: ['id'] }), 'id\n1\n')
    expect(unknown.status).toBe(404)
    expect((await sql('select count(*)::int as n from public.items where id = 700001')).body.results[0].rows[0].n).toBe(0)
  })
})
