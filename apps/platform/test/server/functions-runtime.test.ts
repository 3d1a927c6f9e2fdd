import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { createClient, FunctionsHttpError, FunctionsRelayError, type SupabaseClient } from '@supabase/supabase-js'
import { SupabaseManagementAPI } from 'supabase-management-js'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { ADMIN_EMAIL, api, memberWithRole, startTestPlatform, tokenFor, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/**
 * Edge functions run for real: deployed with a published Management API client, invoked with
 * supabase-js `functions.invoke`, each in its own Deno process with least privilege. User code is
 * hostile here: the escape tests try to read, run, connect and look beyond what it was given.
 */
let t: TestPlatform
let token: string
let management: SupabaseManagementAPI
let ref: string
let otherRef: string
let otherPort: number
let anonKey: string
let serviceKey: string
let supabase: SupabaseClient

const TIMEOUT_MS = 6_000

async function sql(projectRef: string, query: string) {
  const result = await api(t, 'POST', `/v1/projects/${projectRef}/database/query`, { token }, { query })
  if (result.status >= 300) throw new Error(`${query}: ${JSON.stringify(result.body)}`)
  return result.body
}

/** Deploys the way the Management API clients do: the source as a Blob part (named 'blob' by FormData). */
async function deploy(slug: string, source: string, metadata: Record<string, unknown> = {}, projectRef = ref) {
  const result = await management.deployAFunction(
    projectRef,
    { metadata: { entrypoint_path: 'index.ts', name: slug, ...metadata }, file: [new Blob([source], { type: 'application/typescript' }) as unknown as string] },
    { slug },
  )
  expect(result.status).toBe(201)
  return result.data
}

/** A function's answer as fetch sees it (for status codes supabase-js turns into errors). */
async function call(slug: string, init: RequestInit & { path?: string } = {}) {
  const response = await fetch(`${t.platform.apiUrl}/projects/${ref}/functions/v1/${slug}${init.path ?? ''}`, init)
  const text = await response.text()
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {
    /* text */
  }
  return { status: response.status, body, headers: response.headers }
}

const withKey = (key = anonKey): Record<string, string> => ({ authorization: `Bearer ${key}`, apikey: key })

beforeAll(async () => {
  t = await startTestPlatform({ STRATUM_FUNCTION_TIMEOUT_MS: String(TIMEOUT_MS) })
  token = await tokenFor(t, ADMIN_EMAIL)
  management = new SupabaseManagementAPI({ accessToken: token, baseUrl: t.platform.url })
  const slug = (await api(t, 'GET', '/platform/organizations', { token })).body[0].slug
  const create = async (name: string) =>
    (await api(t, 'POST', '/platform/projects', { token }, { name, organization_slug: slug, db_pass: 'functions-password-1' })).body
  const [mine, other] = await Promise.all([create('Functions'), create('Neighbour')])
  ref = mine.ref
  otherRef = other.ref
  await waitForStatus(t, ref, { token }, 'ACTIVE_HEALTHY', 60_000)
  await waitForStatus(t, otherRef, { token }, 'ACTIVE_HEALTHY', 60_000)
  otherPort = (await api(t, 'GET', `/platform/projects/${otherRef}`, { token })).body.db_port
  expect(otherPort).toBeGreaterThan(0)
  const keys = (await api(t, 'GET', `/v1/projects/${ref}/api-keys`, { token })).body as { name: string; api_key: string }[]
  anonKey = keys.find((k) => k.name === 'anon')!.api_key
  serviceKey = keys.find((k) => k.name === 'service_role')!.api_key
  supabase = createClient(`${t.platform.apiUrl}/projects/${ref}`, anonKey, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  })
  await sql(ref, `CREATE TABLE notes (id bigint PRIMARY KEY, body text NOT NULL); INSERT INTO notes VALUES (1, 'first'), (2, 'second')`)
}, 180_000)
afterAll(() => t?.cleanup())

const ECHO = `
const instance = crypto.randomUUID()
Deno.serve(async (req) => {
  const url = new URL(req.url)
  const text = await req.text()
  console.log('echo called', req.method, url.pathname)
  return Response.json({
    version: 1,
    instance,
    method: req.method,
    path: url.pathname,
    query: url.search,
    custom: req.headers.get('x-custom'),
    body: text ? JSON.parse(text) : null,
    secret: Deno.env.get('MY_SECRET') ?? null,
    url: Deno.env.get('SUPABASE_URL'),
  }, { headers: { 'x-function': 'echo' } })
})
`

describe('edge functions run in Deno', () => {
  it('invokes a function with supabase-js: JSON in and out, custom headers, its path and query', async () => {
    const deployed = await deploy('echo', ECHO)
    expect(deployed).toMatchObject({ slug: 'echo', version: 1, entrypoint_path: expect.stringMatching(/^file:\/\/\/.+\/echo\/index\.ts$/) })
    expect(new URL(deployed.entrypoint_path!).pathname.endsWith('/echo/index.ts')).toBe(true)

    const { data, error } = await supabase.functions.invoke('echo', { body: { hello: 'world' }, headers: { 'x-custom': 'abc' } })
    expect(error).toBeNull()
    expect(data).toMatchObject({ version: 1, method: 'POST', path: '/echo', custom: 'abc', body: { hello: 'world' }, secret: null })
    expect(data.url).toBe(`http://localhost:${new URL(t.platform.apiUrl).port}/projects/${ref}`)

    const sub = await call('echo/items/7', { method: 'GET', path: '?q=1', headers: withKey() })
    expect(sub.status).toBe(200)
    expect(sub.headers.get('x-function')).toBe('echo')
    expect(sub.body).toMatchObject({ method: 'GET', path: '/echo/items/7', query: '?q=1', instance: data.instance })
  })

  it('asks for a valid JWT unless the function was deployed with verify_jwt false', async () => {
    expect(await call('echo', { method: 'POST' })).toMatchObject({ status: 401, body: { code: 401, message: 'Missing authorization header' } })
    expect(await call('echo', { method: 'POST', headers: { authorization: 'Bearer not-a-jwt', apikey: anonKey } })).toMatchObject({
      status: 401,
      body: { code: 401, message: 'Invalid JWT' },
    })
    expect(await call('missing', { headers: withKey() })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', message: 'Requested function was not found' } })
    // functions-js's suite (hello.spec.ts, 'auth override by setAuth wrong key'): the relay's refusal is a
    // FunctionsRelayError, told apart from the function's own errors by x-relay-error.
    const wrongKey = createClient(`${t.platform.apiUrl}/projects/${ref}`, anonKey, {
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false },
      global: { headers: { authorization: 'Bearer not-a-jwt' } },
    })
    const refused = await wrongKey.functions.invoke('echo', { body: {} })
    expect(refused.error).toBeInstanceOf(FunctionsRelayError)
    expect(refused.error?.message).toBe('Relay Error invoking the Edge Function')

    // Like Supabase's relay, verify_jwt checks the signature and expiry only: functions-js's own suite (hello.spec.ts
    // 'invoke hello with auth header', params.spec.ts, timeout.spec.ts: 28 cases) calls with tokens of the project's
    // secret that carry no role claim. An expired one is refused.
    const jwtSecret = new TextEncoder().encode((await t.platform.ctx.directory.getCurrent(ref))!.jwtSecret)
    const roleless = await new SignJWT({ name: 'anon' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('5m').sign(jwtSecret)
    expect(await call('echo', { method: 'POST', headers: { authorization: `Bearer ${roleless}` } })).toMatchObject({ status: 200 })
    const expired = await new SignJWT({ role: 'anon' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(jwtSecret)
    expect(await call('echo', { method: 'POST', headers: { authorization: `Bearer ${expired}` } })).toMatchObject({ status: 401, body: { message: 'Invalid JWT' } })

    await deploy('open', `Deno.serve((req) => new Response('open to ' + (req.headers.get('authorization') ?? 'anyone')))`, { verify_jwt: false })
    const open = await call('open')
    expect(open).toMatchObject({ status: 200, body: 'open to anyone' })
    // The service key works too, and the request log records the invocations.
    expect((await call('echo', { method: 'POST', headers: withKey(serviceKey) })).status).toBe(200)
    await waitFor(
      async () => {
        const { rows } = await t.platform.ctx.db.query(`SELECT status FROM api_request_log WHERE project_ref = $1 AND service = 'functions'`, [ref])
        return rows.some((row) => row.status === 401) && rows.some((row) => row.status === 200)
      },
      { what: 'the functions requests in the request log' },
    )
  })

  it('gives the function its project secrets through Deno.env, and restarts it when they change', async () => {
    expect((await api(t, 'POST', `/v1/projects/${ref}/secrets`, { token }, [{ name: 'MY_SECRET', value: 's1' }])).status).toBe(201)
    expect((await supabase.functions.invoke('echo', { body: {} })).data.secret).toBe('s1')
    const listed = await api(t, 'GET', `/v1/projects/${ref}/secrets`, { token })
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual([{ name: 'MY_SECRET', value: createHash('sha256').update('s1').digest('hex'), updated_at: expect.any(String) }])

    await api(t, 'POST', `/v1/projects/${ref}/secrets`, { token }, [{ name: 'MY_SECRET', value: 's2' }])
    expect((await supabase.functions.invoke('echo', { body: {} })).data.secret).toBe('s2')
    expect((await api(t, 'DELETE', `/v1/projects/${ref}/secrets`, { token }, ['MY_SECRET'])).status).toBe(200)
    expect((await supabase.functions.invoke('echo', { body: {} })).data.secret).toBeNull()
    expect((await api(t, 'GET', `/v1/projects/${ref}/secrets`, { token })).body).toEqual([])

    for (const bad of [[{ name: 'SUPABASE_URL', value: 'x' }], [{ name: '1BAD', value: 'x' }], [{ name: 'A-B', value: 'x' }], [{ name: 'OK', value: 'x'.repeat(24_577) }], { name: 'X', value: 'y' }]) {
      const refused = await api(t, 'POST', `/v1/projects/${ref}/secrets`, { token }, bad)
      expect(refused.status, JSON.stringify(bad).slice(0, 80)).toBe(400)
      expect(refused.body.message).toEqual(expect.any(String))
    }
    const slug = (await api(t, 'GET', '/platform/organizations', { token })).body[0].slug
    const developer = await memberWithRole(t, slug, 'developer')
    expect((await api(t, 'GET', `/v1/projects/${ref}/secrets`, { token: developer.token })).status).toBe(403)
    expect((await api(t, 'POST', `/v1/projects/${ref}/secrets`, { token: developer.token }, [{ name: 'DEV', value: 'x' }])).status).toBe(201)
    await api(t, 'DELETE', `/v1/projects/${ref}/secrets`, { token }, ['DEV'])
  })

  it('queries the project: supabase-js inside the function, and SUPABASE_DB_URL with npm:postgres', async () => {
    // The data API's first request starts PostgREST: not part of what this test measures.
    expect((await supabase.from('notes').select('id')).error).toBeNull()
    await sql(ref, `ALTER TABLE notes ENABLE ROW LEVEL SECURITY`)
    await deploy(
      'query',
      `import { createClient } from 'npm:@supabase/supabase-js@2'
import postgres from 'npm:postgres@3'
const admin = createClient(Deno.env.get('SUPABASE_URL'), Deno.env.get('SUPABASE_SERVICE_ROLE_KEY'), { auth: { persistSession: false } })
const sql = postgres(Deno.env.get('SUPABASE_DB_URL'), { max: 1 })
Deno.serve(async () => {
  const viaApi = await admin.from('notes').select('body').order('id')
  const viaSql = await sql.begin(async (tx) => {
    await tx\`set local role service_role\`
    return tx\`select body from notes order by id\`
  })
  const [{ current_user }] = await sql\`select current_user\`
  return Response.json({ api: viaApi.data, apiError: viaApi.error, sql: viaSql.map((r) => r.body), user: current_user })
})
`,
    )
    const { data, error } = await supabase.functions.invoke('query')
    expect(error).toBeNull()
    expect(data).toEqual({ api: [{ body: 'first' }, { body: 'second' }], apiError: null, sql: ['first', 'second'], user: 'authenticator' })
  }, 180_000)

  it("serves a new project's npm:@supabase/supabase-js from the installation's shared cache, as links to the platform's read-only files", async () => {
    // The installation downloads the shared packages once, when its first function starts (the test above).
    await t.platform.ctx.functions.sharedNpm.settled()
    expect(t.platform.ctx.functions.sharedNpm.ready).toBe(true)
    const orgSlug = (await api(t, 'GET', '/platform/organizations', { token })).body[0].slug
    const fresh = (await api(t, 'POST', '/platform/projects', { token }, { name: 'Shared npm', organization_slug: orgSlug, db_pass: 'functions-password-1' })).body
    await waitForStatus(t, fresh.ref, { token }, 'ACTIVE_HEALTHY', 60_000)
    await deploy(
      'shared-npm',
      `import { createClient } from 'npm:@supabase/supabase-js@2'
Deno.serve(() => {
  const client = createClient('http://localhost:1', 'key')
  return Response.json({ client: typeof client.from })
})
`,
      { verify_jwt: false },
      fresh.ref,
    )
    const answer = await fetch(`${t.platform.apiUrl}/projects/${fresh.ref}/functions/v1/shared-npm`)
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ client: 'function' })
    // The project's copy of supabase-js's package.json is the shared file itself (a hard link), read-only and not the project's.
    const packageDir = path.join('npm', 'registry.npmjs.org', '@supabase', 'supabase-js')
    const shared = path.join(t.dataDir, 'deno-shared', 'current', packageDir)
    const version = fs.readdirSync(shared).find((name) => /^\d+\.\d+\.\d+/.test(name))!
    const sharedFile = fs.statSync(path.join(shared, version, 'package.json'))
    const projectFile = fs.statSync(path.join(t.dataDir, 'deno', fresh.ref, packageDir, version, 'package.json'))
    expect(projectFile.ino).toBe(sharedFile.ino)
    expect(sharedFile.mode & 0o777).toBe(0o444)
    expect(sharedFile.uid).toBe(process.getuid!())
    // The project's directories are its own (Deno adds packuments and versions there, never in the shared tree).
    const projectDir = fs.statSync(path.join(t.dataDir, 'deno', fresh.ref, packageDir))
    if (process.getuid!() === 0) expect(projectDir.uid).not.toBe(0)
  }, 180_000)

  it('runs the new code on the next request after a redeploy', async () => {
    const before = (await supabase.functions.invoke('echo', { body: {} })).data
    expect(before.version).toBe(1)
    const redeployed = await deploy('echo', ECHO.replace('version: 1', 'version: 2'))
    expect(redeployed.version).toBe(2)
    const after = (await supabase.functions.invoke('echo', { body: {} })).data
    expect(after.version).toBe(2)
    expect(after.instance).not.toBe(before.instance)
  })

  it("serves a function written with std/http/server.ts's serve() like one with Deno.serve (functions-js's fixtures)", async () => {
    // As the functions-js suite's hello/mirror fixtures are written: deno.land's std, unversioned or pinned. Nothing is
    // fetched: the import is mapped to the platform's stand-in.
    await deploy('std-serve', `import { serve } from 'https://deno.land/std/http/server.ts'
      import { serve as pinned } from 'https://deno.land/std@0.177.0/http/server.ts'
      if (serve !== pinned) throw new Error('two std modules')
      serve(async (request: Request) => new Response(JSON.stringify({ method: request.method, url: request.url, body: await request.text() }), { headers: { 'content-type': 'application/json' } }))`)
    const answer = await call('std-serve', { method: 'POST', path: '/deep/path?x=1', headers: withKey(), body: 'hello' })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ method: 'POST', body: 'hello' })
    expect(answer.body.url).toMatch(/\/std-serve\/deep\/path\?x=1$/)
  })

  it('answers a thrown error and a crash with a 5xx carrying the error, then serves again from a fresh process', async () => {
    await deploy(
      'fragile',
      `const instance = crypto.randomUUID()
Deno.serve((req) => {
  const mode = new URL(req.url).searchParams.get('mode')
  if (mode === 'throw') throw new Error('thrown on purpose')
  if (mode === 'exit') {
    console.error('crashing on purpose')
    Deno.exit(3)
  }
  return Response.json({ instance })
})`,
    )
    const first = await call('fragile', { headers: withKey() })
    expect(first.status).toBe(200)

    const thrown = await call('fragile', { headers: withKey(), path: '?mode=throw' })
    expect(thrown.status).toBe(500)
    expect(thrown.body).toMatchObject({ error: expect.any(String), message: 'thrown on purpose' })
    expect((await call('fragile', { headers: withKey() })).body.instance).toBe(first.body.instance)

    const crashed = await call('fragile', { headers: withKey(), path: '?mode=exit' })
    expect(crashed.status).toBeGreaterThanOrEqual(500)
    expect(crashed.body).toMatchObject({ error: expect.any(String), message: expect.stringMatching(/exited with code 3[\s\S]*crashing on purpose/) })
    const again = await call('fragile', { headers: withKey() })
    expect(again.status).toBe(200)
    expect(again.body.instance).not.toBe(first.body.instance)

    // supabase-js sees the 5xx as a FunctionsHttpError with the answer in its context.
    const viaClient = await supabase.functions.invoke('fragile?mode=throw')
    expect(viaClient.error).toBeInstanceOf(FunctionsHttpError)
    expect(await (viaClient.error as FunctionsHttpError).context.json()).toMatchObject({ message: 'thrown on purpose' })
  })

  it('stops a request at the wall-clock limit with a 5xx, and the next request gets a fresh process', async () => {
    await deploy(
      'sleepy',
      `const instance = crypto.randomUUID()
Deno.serve((req) => new URL(req.url).searchParams.has('hang') ? new Promise(() => {}) : Response.json({ instance }))`,
    )
    const first = await call('sleepy', { headers: withKey() })
    expect(first.status).toBe(200)
    const hung = await call('sleepy', { headers: withKey(), path: '?hang' })
    expect(hung.status).toBe(504)
    expect(hung.body).toMatchObject({ error: 'Function timed out', message: expect.stringContaining(`${TIMEOUT_MS} ms`) })
    const again = await call('sleepy', { headers: withKey() })
    expect(again.status).toBe(200)
    expect(again.body.instance).not.toBe(first.body.instance)
  }, 60_000)

  it('keeps the function inside its folder, its network and its environment', async () => {
    const platformDbPort = t.config.platformDbPort
    const echoFile = path.join(t.dataDir, 'functions', ref, 'echo', '2', 'index.ts')
    expect(fs.existsSync(echoFile)).toBe(true)
    await deploy(
      'escape',
      `async function attempt(what) {
  try {
    const value = await what()
    if (value === undefined) return 'UNSET'
    return 'ALLOWED: ' + String(value).slice(0, 60)
  } catch (error) {
    return error.name + ': ' + error.message
  }
}
const connect = (hostname, port) => attempt(async () => { const c = await Deno.connect({ hostname, port }); c.close(); return 'connected' })
Deno.serve(async (req) => {
  const { otherFile, dbPort, otherPort } = await req.json()
  return Response.json({
    passwd: await attempt(() => Deno.readTextFile('/etc/passwd')),
    otherFunction: await attempt(() => Deno.readTextFile(otherFile)),
    dataDir: await attempt(() => Deno.readDir('${t.dataDir}')[Symbol.asyncIterator]().next()),
    importOther: await attempt(() => import('file://' + otherFile)),
    write: await attempt(() => Deno.writeTextFile(new URL('./evil.ts', import.meta.url), 'x')),
    command: await attempt(() => new Deno.Command('id').output()),
    nodeSpawn: await attempt(async () => (await import('node:child_process')).execSync('id').toString()),
    platformDb: await connect('127.0.0.1', dbPort),
    platformDbByName: await connect('localhost', dbPort),
    platformDbOtherLoopback: await connect('127.0.0.2', dbPort),
    otherProject: await connect('127.0.0.1', otherPort),
    otherProjectByName: await connect('localhost', otherPort),
    otherProjectV6: await connect('::1', otherPort),
    metadata: await connect('169.254.169.254', 80),
    fetchPlatformDb: await attempt(() => fetch('http://localhost:' + dbPort + '/')),
    home: await attempt(() => Deno.env.get('HOME')),
    path: await attempt(() => Deno.env.get('PATH')),
    denoDir: await attempt(() => Deno.env.get('DENO_DIR')),
    wholeEnv: await attempt(() => JSON.stringify(Deno.env.toObject())),
    ffi: await attempt(() => Deno.dlopen('/lib/x86_64-linux-gnu/libc.so.6', {})),
    sys: await attempt(() => Deno.hostname()),
  })
})`,
    )
    const { data, error } = await supabase.functions.invoke('escape', { body: { otherFile: echoFile, dbPort: platformDbPort, otherPort } })
    expect(error).toBeNull()
    if (process.env.SHOW_ESCAPES) console.log(data)
    for (const [what, outcome] of Object.entries(data as Record<string, string>)) {
      expect(outcome, what).not.toMatch(/^ALLOWED/)
    }
    for (const what of ['passwd', 'otherFunction', 'dataDir', 'write', 'command', 'platformDb', 'platformDbByName', 'otherProject', 'otherProjectByName', 'wholeEnv']) {
      expect(data[what], what).toMatch(/^NotCapable/)
    }
    // Names it was not given read as unset (the process has them, for Deno itself, but the code may not read them).
    expect([data.home, data.path, data.denoDir]).toEqual(['UNSET', 'UNSET', 'UNSET'])

    // As root, the process is the project's own OS user, and the code is readable by that user's group only.
    const running = t.platform.ctx.functions.processOf(ref, 'escape')
    expect(running?.pid).toBeGreaterThan(0)
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', `stratum-fn-${ref}`], { encoding: 'utf8' }).trim())
      const status = fs.readFileSync(`/proc/${running!.pid}/status`, 'utf8')
      expect(status).toMatch(new RegExp(`^Uid:\\s+${uid}\\s+${uid}`, 'm'))
      const codeDir = fs.statSync(path.join(t.dataDir, 'functions', ref))
      expect(codeDir.mode & 0o777).toBe(0o750)
      expect(codeDir.gid).toBe(Number(execFileSync('id', ['-g', `stratum-fn-${ref}`], { encoding: 'utf8' }).trim()))
    }
  }, 60_000)

  it('denies a project created after the function started: its process restarts with the new port denied', async () => {
    const before = t.platform.ctx.functions.processOf(ref, 'escape')
    expect(before).not.toBeNull()
    const slug = (await api(t, 'GET', '/platform/organizations', { token })).body[0].slug
    const late = (await api(t, 'POST', '/platform/projects', { token }, { name: 'Late', organization_slug: slug, db_pass: 'functions-password-1' })).body
    await waitForStatus(t, late.ref, { token }, 'ACTIVE_HEALTHY', 60_000)
    const latePort = (await api(t, 'GET', `/platform/projects/${late.ref}`, { token })).body.db_port
    await waitFor(() => before!.hasExited, { what: 'the running function to be replaced' })
    const echoFile = path.join(t.dataDir, 'functions', ref, 'echo', '2', 'index.ts')
    const { data, error } = await supabase.functions.invoke('escape', { body: { otherFile: echoFile, dbPort: t.config.platformDbPort, otherPort: latePort } })
    expect(error).toBeNull()
    expect(data.otherProject).toMatch(/^NotCapable/)
    expect(data.otherProjectByName).toMatch(/^NotCapable/)
  }, 120_000)

  it('stops the processes of deleted functions', async () => {
    await call('open')
    const running = t.platform.ctx.functions.processOf(ref, 'open')
    expect(running).not.toBeNull()
    expect((await management.deleteAFunction(ref, 'open')).status).toBe(200)
    expect(t.platform.ctx.functions.processOf(ref, 'open')).toBeNull()
    expect(running!.hasExited).toBe(true)
    expect((await call('open')).status).toBe(404)
  })

  it("stops a project's functions when it is paused, and forgets them when it is deleted", async () => {
    await deploy('neighbour', `Deno.serve(() => new Response('next door'))`, { verify_jwt: false }, otherRef)
    const neighbourUrl = `${t.platform.apiUrl}/projects/${otherRef}/functions/v1/neighbour`
    expect(await (await fetch(neighbourUrl)).text()).toBe('next door')
    const running = t.platform.ctx.functions.processOf(otherRef, 'neighbour')
    expect(running).not.toBeNull()

    expect((await api(t, 'POST', `/v1/projects/${otherRef}/pause`, { token })).status).toBeLessThan(300)
    await waitForStatus(t, otherRef, { token }, 'INACTIVE', 60_000)
    await waitFor(() => running!.hasExited && t.platform.ctx.functions.processOf(otherRef, 'neighbour') === null, { what: "the paused project's function to stop" })
    expect((await fetch(neighbourUrl)).status).toBe(503)

    expect((await api(t, 'DELETE', `/v1/projects/${otherRef}`, { token })).status).toBe(200)
    // Deleting a project is an operation of the job runner: on a busy machine it takes a while.
    await waitFor(() => !fs.existsSync(path.join(t.dataDir, 'deno', otherRef)) && !fs.existsSync(path.join(t.dataDir, 'run', `fn-${otherRef}`)), {
      what: "the deleted project's function files to go",
      timeoutMs: 90_000,
    })
    expect(fs.existsSync(path.join(t.dataDir, 'functions', otherRef))).toBe(false)
  }, 120_000)
})
