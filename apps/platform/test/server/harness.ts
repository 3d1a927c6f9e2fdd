import fs from 'node:fs'
import pg from 'pg'
import os from 'node:os'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { randomInt } from 'node:crypto'
import type { OrgRole } from '@stratum/contracts'
import { loadConfig, type Config } from '../../src/config.js'
import { startPlatform, type Platform } from '../../src/main.js'
import { removeOsUsersOfDataDir } from '../../src/control/os-user.js'
import { listeningPorts } from '../support/listening-ports.mjs'
import { hashToken, newAccessToken, tokenAlias } from '../../src/auth/secrets.js'
import { createUser } from '../../src/auth/users.js'

export const ADMIN_EMAIL = 'owner@example.com'
export const ADMIN_PASSWORD = 'owner-password-1'

export interface TestPlatform {
  platform: Platform
  config: Config
  dataDir: string
  /** Starts the platform again on the same data directory (after close()). */
  restart(): Promise<void>
  cleanup(): Promise<void>
}

/**
 * A block of 100 ports for one platform: its database first, its projects after it (the platform skips ports
 * in use), its HTTP listeners at +98 and +99 (child platforms). Below 32768: ports above are the kernel's
 * ephemeral range, where client sockets come and go. Each vitest worker draws from its own half of the range,
 * and a block whose fixed ports something already listens on (another test run, an e2e platform) is skipped.
 */
export function testPortBlock(): number {
  const worker = Number(process.env.VITEST_POOL_ID ?? '1')
  const half = Number.isInteger(worker) && worker % 2 === 0 ? 1 : 0
  const listening = listeningPorts()
  for (let attempt = 0; ; attempt++) {
    const block = 20_000 + half * 6_000 + randomInt(60) * 100
    // A file may run two platforms at once (a second one with other settings): never the same block twice in a worker.
    if (blocksInUse.has(block) && attempt < 1_000) continue
    if ([block, block + 98, block + 99].some((port) => listening.has(port)) && attempt < 1_000) continue
    blocksInUse.add(block)
    return block
  }
}

/** The blocks of this worker's running platforms (a worker runs its files one after the other). */
const blocksInUse = new Set<number>()


/**
 * Throws a test's data directory away without waiting for the disk: renamed at once (nothing can find it
 * again), then removed by a detached `rm -rf`. On this machine's disk (ext4 mounted with `discard`) unlinking
 * the ~3,700 fsynced files of a platform and two projects takes 3 s, paid by every file; the rm finishes in
 * the background, after the test process if need be.
 */
export function discardDir(dir: string): void {
  if (!fs.existsSync(dir)) return
  const trash = `${dir}.discarded-${randomInt(1e9)}`
  try {
    fs.renameSync(dir, trash)
  } catch {
    fs.rmSync(dir, { recursive: true, force: true })
    return
  }
  spawn('rm', ['-rf', trash], { detached: true, stdio: 'ignore' }).unref()
}

/** Shared by every test platform of every run on this machine: see control/instance-templates.ts. */
export const TEST_TEMPLATE_DIR = path.join(os.tmpdir(), 'stratum-test-templates')

/** Data directories of platforms this process started and has not cleaned up: removed if it exits first. */
const liveDataDirs = new Set<string>()
process.once('exit', () => {
  for (const dir of liveDataDirs) {
    removeOsUsersOfDataDir(dir)
    discardDir(dir)
  }
})

/**
 * A real platform: embedded platform database, real project instances, real HTTP on an ephemeral port.
 * Each test file gets its own data directory and its own block of ports.
 */
export async function startTestPlatform(env: Record<string, string> = {}): Promise<TestPlatform> {
  const portBlock = testPortBlock()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-test-'))
  fs.chmodSync(dataDir, 0o755)
  liveDataDirs.add(dataDir)
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    STRATUM_DATA_DIR: dataDir,
    STRATUM_ADMIN_EMAIL: ADMIN_EMAIL,
    STRATUM_ADMIN_PASSWORD: ADMIN_PASSWORD,
    // Test files run in parallel: each takes its own block of ports.
    STRATUM_PLATFORM_DB_PORT: String(portBlock),
    STRATUM_PROJECT_PORT_START: String(portBlock + 1),
    // Every test platform copies its projects from the same pre-initialised clusters (rebuilt when their recipe changes).
    STRATUM_TEMPLATE_DIR: TEST_TEMPLATE_DIR,
    // No spare copies made in the background after each creation (a disk-heavy copy each): instance-templates.test.ts
    // turns them on and tests them.
    STRATUM_SPARE_INSTANCES: '0',
    // Tests make operations fail on purpose: their error logs are noise unless asked for.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'fatal',
    ...env,
  })
  const handle: TestPlatform = {
    platform: await startPlatform(config),
    config,
    dataDir,
    async restart() {
      handle.platform = await startPlatform(config)
    },
    async cleanup() {
      await handle.platform.close()
      removeOsUsersOfDataDir(dataDir)
      discardDir(dataDir)
      liveDataDirs.delete(dataDir)
      blocksInUse.delete(portBlock)
    },
  }
  return handle
}

export interface ApiResult<T = unknown> {
  status: number
  body: T
  headers: Headers
}

export interface Caller {
  token?: string
  cookie?: string
  origin?: string | null
}

/** Calls the platform over real HTTP, as a browser (cookie + Origin) or a script (token). */
export async function api<T = any>(
  t: TestPlatform,
  method: string,
  urlPath: string,
  caller: Caller = {},
  body?: unknown,
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = {}
  if (caller.token) headers.authorization = `Bearer ${caller.token}`
  if (caller.cookie) headers.cookie = caller.cookie
  const origin = caller.origin === undefined ? t.platform.url : caller.origin
  if (origin && method !== 'GET') headers.origin = origin
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(t.platform.url + urlPath, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    /* not JSON */
  }
  return { status: response.status, body: parsed as T, headers: response.headers }
}

export async function login(t: TestPlatform, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
  const result = await api(t, 'POST', '/api/auth/login', {}, { email, password })
  if (result.status !== 200) throw new Error(`login failed: ${result.status} ${JSON.stringify(result.body)}`)
  const setCookie = result.headers.get('set-cookie') ?? ''
  return setCookie.split(';')[0]!
}

/** An access token for a user, made the way `stratum token create` makes it. */
export async function tokenFor(t: TestPlatform, email: string): Promise<string> {
  const token = newAccessToken()
  await t.platform.ctx.db.query(
    `INSERT INTO access_tokens (user_id, name, token_hash, token_alias)
     SELECT id, 'test', $2, $3 FROM users WHERE email = $1`,
    [email, hashToken(token), tokenAlias(token)],
  )
  return token
}

/** A member of the organization with the given role, with a ready-to-use access token. */
export async function memberWithRole(t: TestPlatform, orgSlug: string, role: OrgRole): Promise<{ email: string; token: string }> {
  const email = `${role}-${randomInt(1e9)}@example.com`
  const db = t.platform.ctx.db
  const user = await createUser(db, email, 'member-password-1')
  await db.query(
    `INSERT INTO members (organization_id, user_id, role) SELECT id, $2, $3 FROM organizations WHERE slug = $1`,
    [orgSlug, user.id, role],
  )
  return { email, token: await tokenFor(t, email) }
}

/**
 * Polls `condition` until it holds. Tests wait on what they need, never a fixed time: on a busy
 * machine any fixed sleep or duration bound is wrong. Throws after `timeoutMs` saying what it waited for.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 15_000, intervalMs = 100, what = 'the condition' }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await condition()) return
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/**
 * Polls a project's status until it is `status` (a failed initialisation throws at once, with its reason). The
 * deadline is for a stuck project, not a slow machine: a creation takes 1 to 10 s, and over 15 s in a CI run that
 * shared both cores with two other test runs (meta.test.ts's set-up missed 15 s there).
 */
export async function waitForStatus(t: TestPlatform, ref: string, caller: Caller, status: string, timeoutMs = 60_000): Promise<number> {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    const result = await api<{ status: string }>(t, 'GET', `/platform/projects/${ref}/status`, caller)
    if (result.body.status === status) return Date.now() - started
    if (result.body.status === 'INIT_FAILED') {
      // The reason the platform recorded, so that a failure in CI says what went wrong.
      const project = await api<{ status_reason: string | null }>(t, 'GET', `/platform/projects/${ref}`, caller)
      throw new Error(`project ${ref} failed to initialize: ${project.body.status_reason ?? '(no reason recorded)'}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`project ${ref} did not reach ${status} within ${timeoutMs} ms`)
}

/** Runs SQL on a project's own instance as its superuser, as any Postgres client would. */
export async function querySuperuser<T = any>(port: number, password: string, text: string): Promise<T[]> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' })
  // A server going away mid-test (a restart, a crash test) must fail the query, not the test run.
  client.on('error', () => {})
  await client.connect()
  try {
    return (await client.query(text)).rows as T[]
  } finally {
    await client.end()
  }
}

/** What an app needs to reach a project: its URL and keys (and the JWT secret, to sign test tokens). */
export interface ProjectApi {
  ref: string
  url: string
  anonKey: string
  serviceKey: string
  jwtSecret: string
}

/** The project's API URL and keys as the API settings page shows them to an owner. */
export async function projectApi(t: TestPlatform, ref: string, caller: Caller): Promise<ProjectApi> {
  const settings = (await api(t, 'GET', `/platform/projects/${ref}/settings`, caller)).body
  const keys = settings.service_api_keys as { api_key: string; tags: string }[]
  return {
    ref,
    url: `${settings.app_config.protocol}://${settings.app_config.endpoint}`,
    anonKey: keys.find((key) => key.tags === 'anon')!.api_key,
    serviceKey: keys.find((key) => key.tags === 'service_role')!.api_key,
    jwtSecret: settings.jwt_secret,
  }
}
