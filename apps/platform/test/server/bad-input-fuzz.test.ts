import net from 'node:net'
import { Agent } from 'undici'
import yauzl from 'yauzl'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, projectApi, startTestPlatform, tokenFor, waitFor, waitForStatus, type ProjectApi, type TestPlatform } from './harness.js'

/**
 * Issue 25 point 6, "bad input, early answers": NUL bytes and wrong shapes are 4xx in each service's own
 * error shape; an early answer to an unread body never leaves a kept-alive socket hanging; object names
 * that could become paths are refused and stored ones never break the archive; and a deterministic
 * fuzzer per route family (rest, graphql, auth, storage, functions, v1, mcp, platform) meets 0 5xx.
 */
let t: TestPlatform
let cookie: string
let token: string
let orgSlug: string
let ref: string
let project: ProjectApi

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  token = await tokenFor(t, ADMIN_EMAIL)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  ref = (await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Fuzz', organization_slug: orgSlug, db_pass: 'fuzz-password-1' })).body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  // The project URL as the API settings page shows it (its own origin, whatever that is).
  project = await projectApi(t, ref, { cookie })
  const sql = await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token }, {
    query: `create table public.fuzz_items (id serial primary key, name text, n int);
            insert into public.fuzz_items (name, n) values ('one', 1);
            create function public.fuzz_echo(t text) returns text language sql as $$ select t $$;`,
  })
  expect(sql.status, JSON.stringify(sql.body)).toBe(201)
  expect((await storage('POST', '/bucket', JSON.stringify({ name: 'fuzz', public: true }))).status).toBe(200)
  expect((await storage('POST', '/object/fuzz/seed.txt', 'seed', 'text/plain')).status).toBe(200)
  const form = new FormData()
  form.append('metadata', JSON.stringify({ entrypoint_path: 'index.ts', verify_jwt: false }))
  form.append('file', new Blob([ECHO_FUNCTION], { type: 'application/typescript' }), 'index.ts')
  const deployed = await fetch(`${t.platform.url}/v1/projects/${ref}/functions/deploy?slug=echo`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
  expect(deployed.status, await deployed.clone().text()).toBe(201)
}, 120_000)
afterAll(() => t?.cleanup())

const ECHO_FUNCTION = `Deno.serve(async (req) => new Response(JSON.stringify({ method: req.method, bytes: (await req.arrayBuffer()).byteLength }), { headers: { 'content-type': 'application/json' } }))\n`

const keys = () => ({ apikey: project.serviceKey, authorization: `Bearer ${project.serviceKey}` })

/**
 * A request with its path sent as written: fetch and `new URL` resolve '..' and '%2e%2e' segments
 * before sending, which would hide exactly what these tests send.
 */
const agent = new Agent({ headersTimeout: 30_000, bodyTimeout: 30_000 })
afterAll(() => agent.close())

async function rawRequest(method: string, url: string, headers: Record<string, string>, body?: string) {
  const { origin } = new URL(url)
  const response = await agent.request({ origin, path: url.slice(origin.length), method: method as 'GET', headers, body })
  return { status: response.statusCode, text: await response.body.text() }
}

async function storage(method: string, path: string, body?: string, contentType = 'application/json') {
  const response = await rawRequest(method, `${project.url}/storage/v1${path}`, { ...keys(), 'content-type': contentType }, body)
  return { status: response.status, body: parsed(response.text) }
}

function parsed(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

async function projectCall(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${project.url}${path}`, { method, headers: { ...keys(), 'content-type': 'application/json', ...headers }, body })
  return { status: response.status, body: (await response.json().catch(() => null)) as any }
}

describe('NUL bytes and wrong shapes', () => {
  it('answer 400 in storage-api, GoTrue, GraphQL and platform error shapes', async () => {
    const storageShape = { statusCode: '400', error: expect.any(String), message: expect.any(String) }
    for (const path of ['/object/fuzz/a%00b.txt', '/object/fu%00zz/a.txt', '/object/public/fuzz/a%00.txt', '/bucket/fu%00zz', '/object/info/fuzz/%00']) {
      const result = await storage(path.startsWith('/object/fuzz') ? 'POST' : 'GET', path, 'x', 'text/plain')
      expect([result.status, result.body], path).toEqual([400, expect.objectContaining(storageShape)])
    }
    const listed = await storage('POST', '/object/list/fuzz', JSON.stringify({ prefix: 'a\u0000' }))
    expect([listed.status, listed.body]).toEqual([400, expect.objectContaining(storageShape)])
    expect((await storage('GET', '/bucket?search=%00')).status).toBe(400)

    const credentials = JSON.stringify({ email: 'nul\u0000@example.com', password: 'fuzz-password-1' })
    for (const path of ['/auth/v1/signup', '/auth/v1/token?grant_type=password', '/auth/v1/admin/users?filter=%00']) {
      const result = await projectCall(path.includes('admin') ? 'GET' : 'POST', path, path.includes('admin') ? undefined : credentials)
      expect([result.status, result.body], path).toEqual([400, { code: 400, error_code: 'validation_failed', msg: expect.any(String) }])
    }

    for (const body of [{ query: 1 }, { query: [] }, { query: {} }, { query: '{ __typename }', variables: 3 }, { query: '{ __typename }', variables: [] },
      { query: '{ __typename }', operationName: 5 }, [{ query: '{ __typename }' }], { query: '{ __typename }', variables: { a: 'x\u0000' } }]) {
      const result = await projectCall('POST', '/graphql/v1', JSON.stringify(body))
      expect([result.status, result.body], JSON.stringify(body)).toEqual([400, { errors: [{ message: expect.any(String) }] }])
    }
    expect((await projectCall('POST', '/graphql/v1', JSON.stringify({ query: '{ __typename }' }))).body).toEqual({ data: { __typename: 'Query' } })

    const search = await api(t, 'GET', `/platform/auth/${ref}/users?keywords=a%00`, { cookie })
    expect([search.status, search.body]).toEqual([400, { message: expect.any(String) }])
    const keyQuery = await api(t, 'GET', `/v1/projects/${ref}/api-keys?reveal=%00`, { token })
    expect([keyQuery.status, keyQuery.body]).toEqual([400, { message: expect.any(String) }])
  })
})

/** Two requests on one kept-alive socket, the first with `size` bytes of body: what came back, and whether it closed. */
function twoOnOneSocket(url: string, first: { method: string; path: string; headers: Record<string, string>; chunked?: boolean }, size: number, second: string) {
  const { hostname, port } = new URL(url)
  return new Promise<{ statuses: string[]; closed: boolean; close: boolean; timedOut: boolean }>((resolve) => {
    const socket = net.connect(Number(port), hostname)
    let received = ''
    const done = (closed: boolean, timedOut = false) => {
      clearTimeout(timer)
      socket.destroy()
      const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]!)
      resolve({ statuses, closed, timedOut, close: /^connection: close/im.test(received) })
    }
    const timer = setTimeout(() => done(false, true), 20_000)
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1')
      // A status line (bodies end without a newline: not anchored), then the second answer's head complete.
      const second = [...received.matchAll(/HTTP\/1\.1 \d{3} /g)][1]
      if (second && received.indexOf('\r\n\r\n', second.index) > 0) setTimeout(() => done(false), 100)
    })
    socket.on('close', () => done(true))
    socket.on('error', () => {})
    const headers = Object.entries(first.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')
    const length = first.chunked ? 'transfer-encoding: chunked\r\n' : `content-length: ${size}\r\n`
    socket.write(`${first.method} ${first.path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n${length}${headers}\r\n`)
    const body = Buffer.alloc(size, 0x20)
    body[0] = 0x7b
    body[size - 1] = 0x7d
    const tail = `GET ${second} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n\r\n`
    if (first.chunked) socket.write(Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n' + tail)]))
    else socket.write(Buffer.concat([body, Buffer.from(tail)]))
  })
}

describe('early answers on kept-alive connections', () => {
  it('drain the unread body or close the connection, never hang', async () => {
    const size = 3 * 1024 * 1024
    const base = new URL(project.url).pathname
    const json = { ...keys(), 'content-type': 'application/json' }
    const cases: { url: string; method: string; path: string; headers: Record<string, string>; chunked?: boolean }[] = [
      { url: project.url, method: 'POST', path: `${base}/auth/v1/signup`, headers: json },
      { url: project.url, method: 'POST', path: `${base}/auth/v1/signup`, headers: json, chunked: true },
      { url: project.url, method: 'POST', path: `${base}/graphql/v1`, headers: json },
      { url: project.url, method: 'POST', path: `${base}/graphql/v1`, headers: json, chunked: true },
      { url: project.url, method: 'POST', path: `${base}/storage/v1/bucket`, headers: json, chunked: true },
      { url: project.url, method: 'POST', path: `${base}/storage/v1/object/list/fuzz`, headers: json },
      { url: project.url, method: 'POST', path: `${base}/storage/v1/object/no-bucket/x.txt`, headers: { ...keys(), 'content-type': 'text/plain' }, chunked: true },
      { url: project.url, method: 'POST', path: `${base}/storage/v1/object/fuzz/a%5Cb.txt`, headers: { ...keys(), 'content-type': 'text/plain' } },
      { url: t.platform.url, method: 'POST', path: `/platform/storage/${ref}/objects/list/fuzz`, headers: { cookie, origin: t.platform.url, 'content-type': 'application/json' }, chunked: true },
      { url: t.platform.url, method: 'POST', path: `/v1/projects/${ref}/database/query`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
    ]
    for (const item of cases) {
      const second = item.url === project.url ? `${base}/storage/v1/object/public/fuzz/seed.txt` : '/api/health'
      const result = await twoOnOneSocket(item.url, item, size, second)
      const what = `${item.path}${item.chunked ? ' (chunked)' : ''}: ${JSON.stringify(result)}`
      expect(result.timedOut, what).toBe(false)
      expect(result.statuses[0], what).toMatch(/^4\d\d$/)
      // Either the next request was answered, or the first answer said it closes, and it did.
      if (result.statuses.length < 2) expect(result.close && result.closed, what).toBe(true)
      else expect(result.statuses[1], what).toBe('200')
    }
  })
})

function zipEntries(buffer: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    // yauzl checks every entry name itself: '..', absolute paths and backslashes fail the read.
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'))
      const entries = new Map<string, string>()
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return void (entries.set(entry.fileName, ''), zip.readEntry())
        zip.openReadStream(entry, (failure, stream) => {
          if (failure || !stream) return reject(failure ?? new Error('no stream'))
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => void (entries.set(entry.fileName, Buffer.concat(chunks).toString('utf8')), zip.readEntry()))
        })
      })
      zip.on('end', () => resolve(entries))
      zip.on('error', reject)
      zip.readEntry()
    })
  })
}

describe('object names that could become paths', () => {
  it('are refused with Invalid key, and names stored with SQL are archived safely', async () => {
    const names = ['a%5C..%5C..%5Cescape.txt', 'a%5Cb.txt', 'x/%252e%252e/y.txt', '%EF%BC%8E%EF%BC%8E/x.txt', 'x/%E2%80%A5/y.txt', 'x/.%20/y.txt', 'x/%2e%2e/y.txt', '%2e/y.txt']
    for (const name of names) {
      const result = await storage('POST', `/object/fuzz/${name}`, 'x', 'text/plain')
      expect([result.status, result.body], name).toEqual([400, expect.objectContaining({ statusCode: '400', code: 'InvalidKey', message: expect.stringMatching(/^Invalid key/) })])
    }
    const moved = await storage('POST', '/object/move', JSON.stringify({ bucketId: 'fuzz', sourceKey: 'seed.txt', destinationKey: 'a\\..\\..\\escape.txt' }))
    expect(moved.body.code).toBe('InvalidKey')

    // What an older platform accepted, or a tenant writes with SQL: each stored name gets an entry of its own inside the bucket's folder.
    const stored = ['a\\..\\..\\escape.txt', '../up.txt', 'x/../../y.txt', 'a//b.txt', '.', 'C:\\win.txt', '%2e%2e/z.txt']
    const values = stored.map((name) => `('${name.replace(/'/g, "''")}')`).join(', ')
    const inserted = await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token }, {
      query: `insert into storage.objects (bucket_id, name, version, metadata)
              select 'fuzz', n.name, o.version, o.metadata from storage.objects o, (values ${values}) as n(name) where o.name = 'seed.txt'`,
    })
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(201)
    expect((await api(t, 'POST', `/platform/storage/${ref}/archive`, { cookie })).status).toBe(201)
    let fileUrl: string | undefined
    await waitFor(async () => {
      const polled = await api(t, 'GET', `/platform/storage/${ref}/archive`, { cookie })
      expect(polled.status, JSON.stringify(polled.body)).toBe(200)
      fileUrl = polled.body.fileUrl
      return fileUrl !== undefined
    }, { what: 'the storage archive', timeoutMs: 30_000 })
    const entries = await zipEntries(Buffer.from(await (await fetch(t.platform.url + fileUrl!, { headers: { cookie } })).arrayBuffer()))
    const mapped = JSON.parse(entries.get('names.json')!) as { bucket: string; name: string; entry: string }[]
    expect(mapped.map((item) => item.name).sort()).toEqual([...stored].sort())
    for (const item of mapped) {
      expect(item.entry.startsWith('fuzz/') && !item.entry.slice(5).includes('/'), item.entry).toBe(true)
      expect(entries.get(item.entry), item.entry).toBe('seed')
    }
    expect(entries.get('fuzz/seed.txt')).toBe('seed')
  })
})

// ---------------------------------------------------------------------------------------------
// The fuzzer: seeded, so every run sends the same requests.

function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state)
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
const SEGMENTS = ['%00', 'a%00b', '%ff', '%c0%ae%c0%ae', '..', '%2e%2e', '.%2e', '..%2f..%2fetc%2fpasswd', '%5C..%5Cx', 'a%5Cb', 'x'.repeat(3000), '%', '%zz',
  '%E2%80%AE', '%F0%9F%92%A9', '%20', '%0a', '%0d%0a', '*', '%3A', 'null', '-1', '99999999999999999999', '1e309', '%7B%7D', "'", '%22', '%3Cscript%3E', '%2F%2F', '~']
const QUERIES = ['%00=1', 'a=%00', 'select=%00', 'select=*,%00', 'limit=-1', 'limit=abc', 'limit=1e999', 'offset=%ff', 'order=%00.asc', 'id=eq.%00', 'a[b]=1',
  'a[]=1&a[]=2', 'a=1&a=2', '%ff=%ff', '&&&', '=', `x=${'y'.repeat(4000)}`, 'apikey=%00', 'grant_type=%00', 'token=%00', 'filter=%00', 'keywords=%00',
  'page=-1', 'per_page=abc', 'download=%00', 'redirect_to=%00', 'type=%00', 'slug=%00', 'search=%00', 'sortColumn=%00', 'q=%E2%80%AE', 'query=%00']
const VALUES: unknown[] = [null, 0, -1, 1.5, 2 ** 63, true, false, '', ' ', '\u0000', 'a\u0000b', '\ud800', 'x'.repeat(5000), [], {}, [null], { '\u0000': 1 },
  '../../etc/passwd', 'a\\..\\b', '%00', { nested: { deeper: ['\u0000'] } }, JSON.parse(deep(150))]
const RAW_BODIES = ['{', '[', '{"a":', '{"a":1,}', "{'a':1}", 'nul', '\u0000', '{"a":"\u0000"}', '{"a":"\\u0000"}', '{"\\u0000":"x"}', '1', '"s"', 'true', 'null', '[]',
  '{"__proto__":{"polluted":1}}', deep(5000), '{"a":1e999}', '\ufeff{}', 'a=1&b=%00', '--x\r\n\r\n', '', '\xff\xfe']
const CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/graphql',
  'application/octet-stream', 'application/json; charset=utf-16', 'a/b/c', '']
const ODD_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PROPFIND', 'FOO', 'PURGE']

interface Route { method: string; path: string; body?: unknown }
interface Family { name: string; base: () => string; headers: () => Record<string, string>; routes: () => Route[] }

const UUID = '00000000-0000-0000-0000-000000000000'
const owner = () => ({ authorization: `Bearer ${token}` })
const browser = () => ({ cookie, origin: t.platform.url })

const FAMILIES: Family[] = [
  { name: 'rest', base: () => `${project.url}/rest/v1`, headers: keys, routes: () => [
    { method: 'GET', path: '/fuzz_items?select=*' }, { method: 'POST', path: '/fuzz_items', body: { name: 'x', n: 1 } },
    { method: 'PATCH', path: '/fuzz_items?id=eq.1', body: { name: 'y' } }, { method: 'DELETE', path: '/fuzz_items?id=eq.999' },
    { method: 'POST', path: '/rpc/fuzz_echo', body: { t: 'x' } }, { method: 'GET', path: '/' }, { method: 'HEAD', path: '/fuzz_items' }] },
  { name: 'graphql', base: () => `${project.url}/graphql/v1`, headers: keys, routes: () => [
    { method: 'POST', path: '', body: { query: '{ __typename }' } },
    { method: 'POST', path: '', body: { query: 'query Q($n: Int) { fuzz_itemsCollection(first: $n) { edges { node { name } } } }', variables: { n: 1 }, operationName: 'Q' } },
    { method: 'GET', path: '?query=%7B__typename%7D' }] },
  { name: 'auth', base: () => `${project.url}/auth/v1`, headers: keys, routes: () => {
    const user = { email: 'fuzz-user@example.com', password: 'fuzz-password-1' }
    return [{ method: 'POST', path: '/signup', body: user }, { method: 'POST', path: '/token?grant_type=password', body: user },
      { method: 'POST', path: '/token?grant_type=refresh_token', body: { refresh_token: 'x' } }, { method: 'GET', path: '/user' },
      { method: 'PUT', path: '/user', body: { data: { a: 1 } } }, { method: 'POST', path: '/logout' }, { method: 'POST', path: '/recover', body: { email: user.email } },
      { method: 'POST', path: '/otp', body: { email: user.email } }, { method: 'POST', path: '/verify', body: { type: 'signup', token: '123456', email: user.email } },
      { method: 'GET', path: '/verify?type=signup&token=x&redirect_to=http://localhost' }, { method: 'GET', path: '/admin/users?page=1&per_page=10' },
      { method: 'POST', path: '/admin/users', body: { ...user, email_confirm: true, user_metadata: { a: 1 } } }, { method: 'GET', path: `/admin/users/${UUID}` },
      { method: 'PUT', path: `/admin/users/${UUID}`, body: { user_metadata: {} } }, { method: 'POST', path: '/admin/generate_link', body: { type: 'magiclink', email: user.email } },
      { method: 'POST', path: '/invite', body: { email: user.email } }, { method: 'GET', path: '/settings' }, { method: 'GET', path: '/health' }]
  } },
  { name: 'storage', base: () => `${project.url}/storage/v1`, headers: keys, routes: () => [
    { method: 'GET', path: '/bucket' }, { method: 'POST', path: '/bucket', body: { name: 'fuzz2', public: false } }, { method: 'GET', path: '/bucket/fuzz' },
    { method: 'PUT', path: '/bucket/fuzz2', body: { public: true } }, { method: 'POST', path: '/bucket/fuzz2/empty' }, { method: 'POST', path: '/object/fuzz/a.txt', body: { a: 1 } },
    { method: 'PUT', path: '/object/fuzz/a.txt', body: { a: 2 } }, { method: 'GET', path: '/object/public/fuzz/seed.txt' }, { method: 'GET', path: '/object/authenticated/fuzz/seed.txt' },
    { method: 'GET', path: '/object/sign/fuzz/seed.txt?token=x' }, { method: 'POST', path: '/object/sign/fuzz/seed.txt', body: { expiresIn: 60 } },
    { method: 'POST', path: '/object/sign/fuzz', body: { expiresIn: 60, paths: ['seed.txt'] } }, { method: 'POST', path: '/object/list/fuzz', body: { prefix: '', limit: 10 } },
    { method: 'POST', path: '/object/move', body: { bucketId: 'fuzz', sourceKey: 'a.txt', destinationKey: 'b.txt' } },
    { method: 'POST', path: '/object/copy', body: { bucketId: 'fuzz', sourceKey: 'seed.txt', destinationKey: 'c.txt' } }, { method: 'GET', path: '/object/info/fuzz/seed.txt' },
    { method: 'POST', path: '/object/upload/sign/fuzz/d.txt' }, { method: 'PUT', path: '/object/upload/sign/fuzz/d.txt?token=x', body: { a: 1 } },
    { method: 'DELETE', path: '/object/fuzz', body: { prefixes: ['b.txt'] } }] },
  { name: 'realtime', base: () => `${project.url}/realtime/v1`, headers: keys, routes: () => [
    { method: 'POST', path: '/api/broadcast', body: { messages: [{ topic: 'fuzz', event: 'e', payload: { a: 1 }, private: false }] } },
    { method: 'POST', path: '/api/broadcast', body: { messages: [{ topic: 'fuzz', event: 'e', payload: { a: 1 }, private: true }] } },
    { method: 'POST', path: '/api/broadcast/fuzz/events/e', body: { a: 1 } }, { method: 'POST', path: '/api/broadcast/fuzz/events/e?private=true', body: { a: 1 } },
    { method: 'GET', path: '/websocket?vsn=2.0.0' }, { method: 'GET', path: '/api/broadcast' }] },
  { name: 'functions', base: () => project.url, headers: keys, routes: () => [
    { method: 'POST', path: '/functions/v1/echo', body: { hello: 'world' } }, { method: 'GET', path: '/functions/v1/echo' },
    { method: 'PUT', path: '/functions/v1/echo/sub/path', body: { a: 1 } }, { method: 'GET', path: '/functions/v1/missing' }] },
  { name: 'v1', base: () => t.platform.url, headers: owner, routes: () => [
    { method: 'GET', path: '/v1/projects' }, { method: 'GET', path: `/v1/projects/${ref}` }, { method: 'GET', path: `/v1/projects/${ref}/api-keys?reveal=false` },
    { method: 'POST', path: `/v1/projects/${ref}/database/query`, body: { query: 'select 1' } }, { method: 'POST', path: `/v1/projects/${ref}/database/query/read-only`, body: { query: 'select 1' } },
    { method: 'GET', path: '/v1/organizations' }, { method: 'GET', path: `/v1/organizations/${orgSlug}` }, { method: 'GET', path: `/v1/projects/${ref}/config/auth` },
    { method: 'GET', path: `/v1/projects/${ref}/health?services=auth,rest,storage` }, { method: 'GET', path: `/v1/projects/${ref}/postgrest` },
    { method: 'GET', path: `/v1/projects/${ref}/types/typescript?included_schemas=public` }, { method: 'GET', path: `/v1/projects/${ref}/database/migrations` },
    { method: 'POST', path: `/v1/projects/${ref}/database/migrations`, body: { query: 'select 1', name: 'fuzz' } }, { method: 'GET', path: '/v1/snippets' },
    { method: 'GET', path: `/v1/projects/${ref}/functions` }, { method: 'GET', path: `/v1/projects/${ref}/functions/echo` }, { method: 'GET', path: `/v1/projects/${ref}/functions/echo/body` },
    { method: 'POST', path: `/v1/projects/${ref}/functions/deploy?slug=other`, body: { metadata: {} } }, { method: 'PATCH', path: `/v1/projects/${ref}/functions/other`, body: { name: 'x' } },
    { method: 'GET', path: `/v1/projects/${ref}/secrets` }, { method: 'GET', path: `/v1/projects/${ref}/storage/buckets` }, { method: 'GET', path: `/v1/projects/${ref}/advisors/security` },
    { method: 'GET', path: `/v1/projects/${ref}/analytics/endpoints/logs.all?sql=select%201` }, { method: 'POST', path: '/v1/projects', body: { name: 'x', organization_id: 'nope' } }] },
  { name: 'mcp', base: () => t.platform.url, headers: () => ({ ...owner(), accept: 'application/json, text/event-stream' }), routes: () => {
    const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
    return [{ method: 'POST', path: '/mcp?read_only=true', body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } } },
      { method: 'POST', path: '/mcp?read_only=true', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
      { method: 'POST', path: '/mcp?read_only=true', body: call('execute_sql', { project_id: ref, query: 'select 1' }) },
      { method: 'POST', path: '/mcp?read_only=true', body: call('list_tables', { project_id: ref, schemas: ['public'] }) },
      { method: 'POST', path: '/mcp?read_only=true', body: call('get_logs', { project_id: ref, service: 'api' }) },
      { method: 'POST', path: '/mcp?read_only=true', body: call('get_project_url', { project_id: ref }) }, { method: 'GET', path: '/mcp' }, { method: 'DELETE', path: '/mcp' }]
  } },
  { name: 'platform', base: () => t.platform.url, headers: browser, routes: () => [
    { method: 'GET', path: '/platform/profile' }, { method: 'GET', path: '/platform/organizations' }, { method: 'GET', path: `/platform/organizations/${orgSlug}/members` },
    { method: 'GET', path: '/platform/projects' }, { method: 'GET', path: `/platform/projects/${ref}` }, { method: 'GET', path: `/platform/projects/${ref}/settings` },
    { method: 'GET', path: `/platform/projects/${ref}/status` }, { method: 'POST', path: `/platform/pg-meta/${ref}/query`, body: { query: 'select 1' } },
    { method: 'GET', path: `/platform/pg-meta/${ref}/tables?included_schemas=public` }, { method: 'GET', path: `/platform/auth/${ref}/users?keywords=a` },
    { method: 'POST', path: `/platform/auth/${ref}/users`, body: { email: 'fuzz-admin@example.com', password: 'fuzz-password-1' } }, { method: 'GET', path: `/platform/auth/${ref}/config` },
    { method: 'GET', path: `/platform/storage/${ref}/buckets` }, { method: 'POST', path: `/platform/storage/${ref}/buckets`, body: { name: 'fuzz3', public: false } },
    { method: 'POST', path: `/platform/storage/${ref}/objects/list/fuzz`, body: { prefix: '', limit: 10 } }, { method: 'GET', path: `/platform/storage/${ref}/objects/public/fuzz/seed.txt` },
    { method: 'GET', path: `/platform/projects/${ref}/api/rest` }, { method: 'GET', path: `/platform/projects/${ref}/sql/history?limit=5` },
    { method: 'GET', path: `/platform/projects/${ref}/analytics/endpoints/logs.all?sql=select%201` }, { method: 'POST', path: '/api/auth/login', body: { email: 'nobody@example.com', password: 'x' } },
    { method: 'GET', path: '/api/health' }] },
]

interface FuzzRequest { method: string; url: string; headers: Record<string, string>; body?: string }

/** One request derived from a route: its method, path, query, body, content type or credentials made hostile, some of them at a time. */
function mutate(random: () => number, family: Family, route: Route): FuzzRequest {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const method = random() < 0.85 ? route.method : pick(ODD_METHODS)
  let [path, query] = route.path.split('?') as [string, string | undefined]
  const roll = random()
  if (roll < 0.5) {
    const segments = path.split('/')
    const at = segments.length > 1 && random() < 0.6 ? 1 + Math.floor(random() * (segments.length - 1)) : segments.length
    segments.splice(at, at < segments.length ? 1 : 0, pick(SEGMENTS))
    path = segments.join('/')
  }
  if (random() < 0.5) query = [query, pick(QUERIES)].filter(Boolean).join('&')
  const headers: Record<string, string> = { ...family.headers() }
  const credentials = random()
  if (credentials < 0.05) delete headers.authorization
  else if (credentials < 0.1) headers.authorization = 'Bearer x.y.z'
  else if (credentials < 0.13 && family.base().startsWith(project.url)) Object.assign(headers, { apikey: project.anonKey, authorization: `Bearer ${project.anonKey}` })
  let body: string | undefined
  if (method !== 'GET' && method !== 'HEAD') {
    const shape = random()
    if (shape < 0.35 && route.body && typeof route.body === 'object') {
      const fields = Object.keys(route.body)
      const copy: Record<string, unknown> = { ...(route.body as Record<string, unknown>) }
      copy[fields.length && random() < 0.8 ? pick(fields) : pick(['\u0000', 'extra', '__proto__', 'constructor'])] = pick(VALUES)
      body = JSON.stringify(copy)
    } else if (shape < 0.65) body = pick(RAW_BODIES)
    else if (shape < 0.8) body = JSON.stringify(pick(VALUES))
    else body = route.body === undefined ? undefined : JSON.stringify(route.body)
    headers['content-type'] = random() < 0.75 ? 'application/json' : pick(CONTENT_TYPES)
    if (!headers['content-type']) delete headers['content-type']
  }
  return { method, url: `${family.base()}${path}${query ? `?${query}` : ''}`, headers, body }
}

const REQUESTS_PER_FAMILY = 400
const CONCURRENCY = 4
const counts: Record<string, { requests: number; serverErrors: number }> = {}

async function fuzz(family: Family, seed: number) {
  const random = prng(seed)
  const routes = family.routes()
  const requests = Array.from({ length: REQUESTS_PER_FAMILY }, () => mutate(random, family, routes[Math.floor(random() * routes.length)]!))
  const failures: string[] = []
  const classes: Record<string, number> = {}
  let next = 0
  const worker = async () => {
    while (next < requests.length) {
      const item = requests[next++]!
      let status: number
      let text = ''
      try {
        ;({ status, text } = await rawRequest(item.method, item.url, item.headers, item.body))
      } catch (error) {
        // No answer at all (a reset or a hang) is as bad as a 5xx.
        status = 599
        text = (error as Error).message
      }
      classes[`${Math.floor(status / 100)}xx`] = (classes[`${Math.floor(status / 100)}xx`] ?? 0) + 1
      // A checkout whose dashboard is not built (CI runs the server tests before `npm run build`)
      // answers its client-side routes with this one 503: a state of the install, not of the input.
      const dashboardNotBuilt = status === 503 && text.startsWith('The dashboard is not built')
      if (status >= 500 && !dashboardNotBuilt) failures.push(`${status} ${item.method} ${item.url.slice(0, 160)} ${JSON.stringify(item.body ?? '').slice(0, 120)} -> ${text}`)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  counts[family.name] = { requests: requests.length, serverErrors: failures.length }
  console.log(`fuzz ${family.name}: ${requests.length} requests, ${failures.length} 5xx (answers by class: ${JSON.stringify(classes)})`)
  return failures
}

describe('fuzz per route family', () => {
  FAMILIES.forEach((family, index) => {
    it(`${family.name}: no 5xx`, async () => {
      const failures = await fuzz(family, 0x5eed + index * 7919)
      expect(failures.slice(0, 10)).toEqual([])
    })
  })
  afterAll(() => console.log(`fuzz totals: ${JSON.stringify(counts)}`))
})
