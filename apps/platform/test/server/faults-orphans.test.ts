import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isRunning, startTimeOf } from '../../src/control/child-processes.js'
import { PLATFORM_DB_OS_USER } from '../../src/control/os-user.js'
import { PostgresServer } from '../../src/control/postgres-server.js'
import { postgrestBinary } from '../../src/services/rest/postgrest-process.js'
import { ChildPlatform } from './child-platform.js'
import { api, login, projectApi, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/**
 * Faults leave nothing behind (issue 25, item 7): a platform killed with -9 takes its PostgREST with it
 * (parent-death signal), the next boot stops any survivor (pid files; a PostgREST no pid file names, by
 * its socket) and removes partial uploads and interrupted deploys; a start while the previous platform
 * is still stopping waits for it; /api/health says when the platform cannot serve; a SIGTERM leaves no
 * process of the data directory running.
 */
let platform: ChildPlatform
let t: TestPlatform
let cookie: string
let ref: string
let restUrl: string
let anonKey: string
let dbPort: number
const DB_PASSWORD = 'orphans-password-1'
const planted: ChildProcess[] = []

interface Proc {
  pid: number
  argv: string[]
  socket: string | undefined
}

/** Every live process of the machine with its command line and, for PostgREST, its socket (from its environment). */
function processes(): Proc[] {
  const found: Proc[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    const pid = Number(entry)
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0$/, '').split('\0')
      if (!argv[0] || !isRunning(pid)) continue
      const environ = argv[0] === postgrestBinary() ? fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0') : []
      const socket = environ.find((pair) => pair.startsWith('PGRST_SERVER_UNIX_SOCKET='))?.split('=')[1]
      found.push({ pid, argv, socket })
    } catch {
      // Ended while read.
    }
  }
  return found
}

/** The PostgREST processes serving this project of this data directory. */
const postgrests = () => processes().filter((p) => p.argv[0] === postgrestBinary() && p.socket?.startsWith(path.join(platform.dataDir, 'run', ref) + '/'))
/** Anything still running that belongs to the data directory: Postgres servers, PostgREST, Deno, the platform. */
const leftovers = () => processes().filter((p) => p.argv.some((arg) => arg.includes(platform.dataDir)) || p.socket?.startsWith(platform.dataDir))

async function rest(pathname: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${restUrl}${pathname}`, { headers: { apikey: anonKey, authorization: `Bearer ${anonKey}` } })
  return { status: response.status, body: await response.text() }
}

const health = async () => {
  const response = await fetch(`${platform.url}/api/health`)
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** The running platform's process (ChildPlatform keeps it private): to signal it without waiting, or hand it a new one. */
const childOf = (p: ChildPlatform) => (p as unknown as { child: ChildProcess | null }).child
const setChildOf = (p: ChildPlatform, child: ChildProcess | null) => ((p as unknown as { child: ChildProcess | null }).child = child)
const lockRecord = (): { pid: number; state: string } | null => {
  try {
    return JSON.parse(fs.readFileSync(path.join(platform.dataDir, 'platform.pid'), 'utf8'))
  } catch {
    return null
  }
}

/** `stratum start` on the same data directory with other ports (child-platform.ts launch), with its output at hand. */
function spawnPlatform(port: number, projectPort: number, env: Record<string, string> = {}) {
  return platform.launch(port, projectPort, { LOG_LEVEL: 'fatal', ...env })
}

beforeAll(async () => {
  platform = new ChildPlatform()
  await platform.start()
  t = { platform: { url: platform.url } } as unknown as TestPlatform
  cookie = await login(t)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Orphans', organization_slug: slug, db_pass: DB_PASSWORD })
  ref = created.body.ref
  dbPort = created.body.db_port
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  const query = await api(t, 'POST', `/v1/projects/${ref}/database/query`, { cookie }, {
    query: `create table public.moons (name text); insert into public.moons values ('Io'); grant select on public.moons to anon;`,
  })
  expect(query.status, JSON.stringify(query.body)).toBe(201)
  const projectApiInfo = await projectApi(t, ref, { cookie })
  restUrl = `${projectApiInfo.url}/rest/v1`
  anonKey = projectApiInfo.anonKey
})

afterAll(async () => {
  for (const child of planted) if (child.pid && isRunning(child.pid)) child.kill('SIGKILL')
  await platform?.cleanup()
})

describe('a platform killed with -9', () => {
  it('takes its PostgREST with it; the next boot stops survivors, removes partial files, and runs one PostgREST per project', async () => {
    expect(await rest('/moons?select=name')).toEqual({ status: 200, body: '[{"name":"Io"}]' })
    const pidFile = path.join(platform.dataDir, 'run', 'pids', `postgrest.${ref}.pid`)
    const recorded = JSON.parse(fs.readFileSync(pidFile, 'utf8')) as { pid: number; binary: string }
    expect(postgrests().map((p) => p.pid)).toEqual([recorded.pid])
    expect(recorded.binary).toBe(postgrestBinary())

    await platform.crash()
    // The parent-death signal: gone without anyone stopping it.
    await waitFor(() => !isRunning(recorded.pid), { timeoutMs: 10_000, what: 'the PostgREST of the killed platform to die' })
    expect(postgrests()).toEqual([])

    // What a crash can leave: a PostgREST no pid file names (a version before pid files), another child that
    // survived with its pid file (here a stand-in for a Deno process), a partial upload, an interrupted deploy.
    const runDir = path.join(platform.dataDir, 'run')
    const stray = spawn(postgrestBinary(), [], {
      env: { PATH: '/usr/bin:/bin', PGRST_DB_URI: 'postgres://authenticator:x@127.0.0.1:1/postgres', PGRST_DB_ANON_ROLE: 'anon', PGRST_SERVER_UNIX_SOCKET: path.join(runDir, ref, 'stray.sock') },
      stdio: 'ignore',
      detached: true,
    })
    planted.push(stray)
    const survivor = spawn('/bin/sleep', ['3600'], { stdio: 'ignore', detached: true })
    planted.push(survivor)
    await waitFor(() => postgrests().length === 1 && startTimeOf(survivor.pid!) !== null, { what: 'the planted processes to run' })
    fs.writeFileSync(
      path.join(runDir, 'pids', `deno.${ref}-hello.pid`),
      JSON.stringify({ pid: survivor.pid, kind: 'deno', id: `${ref}-hello`, binary: '/bin/sleep', startTime: startTimeOf(survivor.pid!), parent: 1 }),
    )
    const partialUpload = path.join(platform.dataDir, 'storage', ref, 'tmp', randomUUID())
    fs.mkdirSync(path.dirname(partialUpload), { recursive: true })
    fs.writeFileSync(partialUpload, 'half an upload')
    const staging = path.join(platform.dataDir, 'functions', ref, 'hello', `.staging-${randomUUID()}`)
    fs.mkdirSync(staging, { recursive: true })
    fs.writeFileSync(path.join(staging, 'index.ts'), 'Deno.serve(() => new Response("half a deploy"))')

    await platform.start()
    // Reaped at boot, before the platform answered.
    expect(isRunning(survivor.pid!)).toBe(false)
    expect(fs.existsSync(path.join(runDir, 'pids', `deno.${ref}-hello.pid`))).toBe(false)
    expect(fs.existsSync(partialUpload)).toBe(false)
    expect(fs.readdirSync(path.dirname(partialUpload))).toEqual([])
    expect(fs.existsSync(staging)).toBe(false)

    // Requests at once: one PostgREST starts, the stray is stopped before it.
    const answers = await Promise.all(Array.from({ length: 8 }, () => rest('/moons?select=name')))
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200))
    expect(isRunning(stray.pid!)).toBe(false)
    const running = postgrests()
    expect(running).toHaveLength(1)
    expect(running[0]!.socket).toBe(path.join(runDir, ref, 'rest.sock'))
    expect(JSON.parse(fs.readFileSync(pidFile, 'utf8')).pid).toBe(running[0]!.pid)
  })
})

describe('/api/health', () => {
  it('answers 503 while the platform database is unreachable, and ok again once it is back', async () => {
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } })
    const platformDb = new PostgresServer(path.join(platform.dataDir, 'platform-db'), '17', PLATFORM_DB_OS_USER)
    await platformDb.stop()
    try {
      await waitFor(async () => (await health()).status === 503, { timeoutMs: 30_000, what: '/api/health to answer 503' })
      const down = await health()
      expect(down.body).toMatchObject({ status: 'unavailable', platform_database: 'unreachable' })
      expect(String(down.body.message)).toContain('the platform database is unreachable')
    } finally {
      await platformDb.start()
    }
    await waitFor(async () => (await health()).status === 200, { timeoutMs: 30_000, what: '/api/health to answer 200 again' })
    expect((await health()).body).toEqual({ status: 'ok' })
    expect((await rest('/moons?select=name')).status).toBe(200)
  })
})

describe('a start on a data directory another platform holds', () => {
  it('waits for a platform that is still stopping, then serves', async () => {
    // A request the previous platform must answer before it can stop: a query waiting for a lock this test holds.
    const holder = new pg.Client({ host: '127.0.0.1', port: dbPort, user: 'postgres', password: DB_PASSWORD, database: 'postgres' })
    holder.on('error', () => {})
    await holder.connect()
    await holder.query('BEGIN; LOCK TABLE public.moons IN ACCESS EXCLUSIVE MODE')
    const blocked = api(t, 'POST', `/v1/projects/${ref}/database/query`, { cookie }, { query: 'select count(*)::int as n from public.moons' })
    const waiting = async () =>
      (await holder.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'public.moons'::regclass`)).rows[0].n > 0
    await waitFor(waiting, { what: 'the query to wait for the lock' })

    const previous = childOf(platform)!
    const previousExited = new Promise((resolve) => previous.once('exit', resolve))
    setChildOf(platform, null)
    previous.kill('SIGTERM')
    await waitFor(() => lockRecord()?.state === 'stopping', { what: 'the previous platform to say it is stopping' })
    const next = spawnPlatform(platform.port + 99, platform.port + 98, { LOG_LEVEL: 'info' })
    await waitFor(() => next.output().includes('waiting for the platform still stopping on this data directory to exit'), {
      timeoutMs: 60_000,
      what: 'the new platform to wait for the previous one',
    })
    expect(previous.exitCode).toBeNull()
    expect(lockRecord()).toMatchObject({ pid: previous.pid, state: 'stopping' })

    await holder.query('COMMIT')
    await holder.end()
    expect(await blocked).toMatchObject({ status: 201, body: [{ n: 1 }] })
    await previousExited
    await next.running
    setChildOf(platform, next.child)
    expect(lockRecord()).toMatchObject({ pid: next.child.pid, state: 'running' })
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } })
    expect(await rest('/moons?select=name')).toEqual({ status: 200, body: '[{"name":"Io"}]' })
    expect(postgrests()).toHaveLength(1)
  })

  it('says which platform runs there and exits non-zero', async () => {
    const second = spawnPlatform(platform.port + 97, platform.port + 96)
    await expect(second.running).rejects.toThrow(`Another Stratum platform (pid ${platform.pid}) runs on the data directory ${platform.dataDir}`)
    expect(second.child.exitCode).toBe(1)
    // The running platform is untouched.
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } })
    expect(await rest('/moons?select=name')).toEqual({ status: 200, body: '[{"name":"Io"}]' })
  })
})

describe('a platform stopped with SIGTERM', () => {
  it('leaves no process of its data directory running', async () => {
    expect((await rest('/moons?select=name')).status).toBe(200)
    expect(postgrests()).toHaveLength(1)
    expect(leftovers().length).toBeGreaterThan(0)
    await platform.stop()
    await waitFor(() => leftovers().length === 0, { timeoutMs: 10_000, what: 'every process of the data directory to end' })
    expect(fs.readdirSync(path.join(platform.dataDir, 'run', 'pids'))).toEqual([])
    expect(fs.existsSync(path.join(platform.dataDir, 'platform.pid'))).toBe(false)
  })
})
