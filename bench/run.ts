/**
 * `npm run bench`: the figures issue 2 asks for, each with a baseline measured in the same session.
 *
 * - Project create time (POST /platform/projects until ACTIVE_HEALTHY), goal < 3 s; baseline: a bare
 *   initdb + start of the same Postgres binaries, i.e. the floor any create must pay.
 * - Throughput and latency of GET /platform/projects/{ref}/status under a loopback load generator
 *   (autocannon), goal >= 3,000 req/s with p99 < 20 ms; baseline: GET /api/health (no auth, no
 *   database) on the same server.
 *
 * The platform runs as its own process (as `npm start` runs it) so that the load generator does not
 * share its event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { PostgresServer } from '../apps/platform/src/control/postgres-server.js'

const root = path.resolve(import.meta.dirname, '..')
const PORT = 8790
const BASE = `http://127.0.0.1:${PORT}`
const EMAIL = 'bench@example.com'
const PASSWORD = 'bench-password-1'

function startPlatform(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(root, 'apps/platform/bin/stratum.mjs'), 'start'], {
    env: { ...process.env, PORT: String(PORT), STRATUM_DATA_DIR: dataDir, STRATUM_ADMIN_EMAIL: EMAIL, STRATUM_ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn', STRATUM_PROJECT_PORT_START: '31001', STRATUM_PLATFORM_DB_PORT: '31000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Stratum is running')) resolve(child)
    })
    child.once('exit', (code) => reject(new Error(`platform exited with ${code}`)))
  })
}

async function call(method: string, url: string, token: string, body?: unknown) {
  const response = await fetch(BASE + url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return response.json() as Promise<any>
}

async function createProject(token: string, slug: string, name: string): Promise<{ ref: string; ms: number }> {
  const started = performance.now()
  const project = await call('POST', '/platform/projects', token, { name, organization_slug: slug, db_pass: 'bench-db-password' })
  for (;;) {
    const { status } = await call('GET', `/platform/projects/${project.ref}/status`, token)
    if (status === 'ACTIVE_HEALTHY') return { ref: project.ref, ms: performance.now() - started }
    if (status === 'INIT_FAILED') throw new Error('project failed to initialize')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function bareInitdbAndStart(dir: string, port: number): Promise<number> {
  const server = new PostgresServer(dir, '17')
  const started = performance.now()
  await server.init('postgres', 'baseline-password')
  server.writeSettings({ port, listen_addresses: 'localhost', unix_socket_directories: '' }, false)
  await server.start()
  const ms = performance.now() - started
  await server.stop()
  return ms
}

function load(url: string, token?: string): Promise<autocannon.Result> {
  return autocannon({
    url: BASE + url,
    connections: 32,
    duration: 10,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-bench-'))
  fs.chmodSync(dataDir, 0o755)
  const platform = await startPlatform(dataDir)
  try {
    const token = (await new Promise<string>((resolve, reject) => {
      const cli = spawn(process.execPath, [path.join(root, 'apps/platform/bin/stratum.mjs'), 'token', 'create', '--email', EMAIL], {
        env: { ...process.env, STRATUM_DATA_DIR: dataDir },
      })
      let out = ''
      cli.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
      cli.once('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error('token create failed'))))
    }))
    const slug = (await call('GET', '/v1/organizations', token))[0].slug as string

    const creates: number[] = []
    const baselines: number[] = []
    let ref = ''
    for (let i = 0; i < 5; i++) {
      baselines.push(await bareInitdbAndStart(path.join(dataDir, `baseline-${i}`), 30_900 + i))
      const created = await createProject(token, slug, `bench-${i}`)
      creates.push(created.ms)
      ref = created.ref
    }
    const create = median(creates)
    const floor = median(baselines)

    const health = await load('/api/health')
    const status = await load(`/platform/projects/${ref}/status`, token)
    if (status.non2xx > 0) throw new Error(`status endpoint answered ${status.non2xx} non-2xx responses`)

    console.log('\nStratum benchmarks (this machine, this session)')
    console.log(`project create -> ACTIVE_HEALTHY: median ${create.toFixed(0)} ms of ${creates.map((m) => m.toFixed(0)).join(', ')} (goal < 3000 ms)`)
    console.log(`  baseline bare initdb + start: median ${floor.toFixed(0)} ms; ratio create / baseline = ${(create / floor).toFixed(2)}`)
    console.log(`GET /platform/projects/{ref}/status: ${status.requests.average.toFixed(0)} req/s, p50 ${status.latency.p50} ms, p99 ${status.latency.p99} ms (goal >= 3000 req/s, p99 < 20 ms)`)
    console.log(`  baseline GET /api/health: ${health.requests.average.toFixed(0)} req/s, p99 ${health.latency.p99} ms; ratio status / health throughput = ${(status.requests.average / health.requests.average).toFixed(2)}`)
  } finally {
    platform.kill('SIGTERM')
    await new Promise((resolve) => platform.once('exit', resolve))
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
