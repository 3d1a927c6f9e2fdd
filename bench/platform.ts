import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { removeOsUsersOfDataDir } from '../apps/platform/src/control/os-user.js'

/**
 * The platform as its own process (as `npm start` runs it), so that load generators and
 * measurements do not share its event loop. Shared by the benchmarks.
 */
const root = path.resolve(import.meta.dirname, '..')
const BIN = path.join(root, 'apps/platform/bin/stratum.mjs')
/** The bench platform's administrator: the browser benches sign in as them. */
export const EMAIL = 'bench@example.com'
export const PASSWORD = 'bench-password-1'

export interface BenchPlatform {
  base: string
  /** The project listener: project URLs are `${apiBase}/projects/{ref}` (their own origin). */
  apiBase: string
  token: string
  slug: string
  dataDir: string
  /** The platform process (its memory is measured by some benches). */
  pid: number
  stop(): Promise<void>
}

/** `extraEnv` adds to the platform's environment (e.g. the STRATUM_AI_* settings of a bench that needs a model). */
export async function startBenchPlatform(port: number, portBlock: number, extraEnv: Record<string, string> = {}): Promise<BenchPlatform> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-bench-'))
  fs.chmodSync(dataDir, 0o755)
  const env = {
    ...process.env, PORT: String(port), STRATUM_DATA_DIR: dataDir, STRATUM_ADMIN_EMAIL: EMAIL, STRATUM_ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'warn', STRATUM_PLATFORM_DB_PORT: String(portBlock), STRATUM_PROJECT_PORT_START: String(portBlock + 1),
    STRATUM_PROJECT_PORT: String(portBlock + 99),
    ...extraEnv,
  }
  const child: ChildProcess = spawn(process.execPath, [BIN, 'start'], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Stratum is running')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`platform exited with ${code}`)))
  })
  const token = await new Promise<string>((resolve, reject) => {
    const cli = spawn(process.execPath, [BIN, 'token', 'create', '--email', EMAIL], { env })
    let out = ''
    cli.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    cli.once('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error('token create failed'))))
  })
  const base = `http://127.0.0.1:${port}`
  const orgs = (await (await fetch(`${base}/v1/organizations`, { headers: { authorization: `Bearer ${token}` } })).json()) as Array<{ slug: string }>
  // Pro: the free plan's project limit would refuse restores of benchmark projects.
  await fetch(`${base}/platform/organizations/${orgs[0]!.slug}/billing/subscription`, {
    method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ plan: 'pro' }),
  })
  return {
    base, apiBase: `http://127.0.0.1:${portBlock + 99}`, token, slug: orgs[0]!.slug, dataDir, pid: child.pid!,
    async stop() {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
      removeOsUsersOfDataDir(dataDir)
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export async function call(platform: BenchPlatform, method: string, url: string, body?: unknown): Promise<any> {
  const response = await fetch(platform.base + url, {
    method,
    headers: { authorization: `Bearer ${platform.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return response.json()
}

/** Milliseconds until the project reports the status. */
export async function untilStatus(platform: BenchPlatform, ref: string, status: string, started = performance.now()): Promise<number> {
  for (;;) {
    const current = (await call(platform, 'GET', `/platform/projects/${ref}/status`)).status
    if (current === status) return performance.now() - started
    if (current?.endsWith('FAILED')) throw new Error(`${ref} ended ${current}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** A new project of the bench's organization, once ACTIVE_HEALTHY; answers its ref. */
export async function healthyProject(platform: BenchPlatform, name: string): Promise<string> {
  const project = await call(platform, 'POST', '/platform/projects', { name, organization_slug: platform.slug, db_pass: 'bench-db-password' })
  if (!project.ref) throw new Error(`project create failed: ${JSON.stringify(project)}`)
  await untilStatus(platform, project.ref, 'ACTIVE_HEALTHY')
  return project.ref
}

/** Runs SQL through the Management API's query route (setting up a bench's data). */
export async function runSql(platform: BenchPlatform, ref: string, query: string): Promise<void> {
  const response = await fetch(`${platform.base}/v1/projects/${ref}/database/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${platform.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  })
  if (!response.ok) throw new Error(`${query.slice(0, 40)}...: ${response.status} ${await response.text()}`)
}

/**
 * The floor of any Node hop in front of a service's Unix socket: bench/bare-proxy.mjs (node:http + undici, no
 * checks, no log) in its own process, as the platform is. Requests to it carry `prefix` (stripped on the way).
 */
export async function startBareProxy(socketPath: string, prefix: string): Promise<{ port: number; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-proxy.mjs'), socketPath, prefix], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [line] = (await once(readline.createInterface({ input: child.stdout }), 'line')) as [string]
  return { port: Number(line), stop: () => child.kill('SIGTERM') }
}
