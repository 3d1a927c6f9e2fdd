// What the client-suite runners share (supabase-js-integration.mjs, realtime-js-suite.mjs): the Supabase CLI's JWT
// secret and keys the suites hard-code, a platform of their own, its Management API, and a project made ready the way
// `supabase start` would have it (the CLI's JWT secret, so the suites' own keys and tokens verify).
import { createHmac } from 'node:crypto'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export const CLI_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'

/** A key signed as the CLI signs its own (HS256 with its default secret). */
export function cliKey(claims) {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`
  return `${signed}.${createHmac('sha256', CLI_JWT_SECRET).update(signed).digest('base64url')}`
}
export const CLI_ANON = cliKey({ iss: 'supabase-demo', role: 'anon', exp: 1983812996 })

export const step = (text) => console.log(`\n== ${text}`)

/** Runs a command to its end; its standard output, or an error when it fails. */
export function sh(cmd, cmdArgs, options = {}) {
  const run = spawnSync(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 1 << 28, ...options })
  if (run.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} exited ${run.status}`)
  return run.stdout ?? ''
}

/**
 * The suite's files at `commit` (the given paths of the supabase-js mirror) extracted into `tree`, unless the tree
 * already holds that commit (a stamp file says which). Shared by the runners.
 */
export function extractSuiteTree(mirror, commit, tag, tree, paths) {
  const stamp = path.join(tree, '.suite-commit')
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === commit) return
  step(`suite tree ${commit.slice(0, 10)} (${tag}) -> ${tree}`)
  fs.rmSync(tree, { recursive: true, force: true })
  fs.mkdirSync(tree, { recursive: true })
  const archive = spawnSync('git', [`--git-dir=${mirror}`, 'archive', '--format=tar', commit, ...paths], { maxBuffer: 1 << 30 })
  if (archive.status !== 0) throw new Error('git archive failed')
  sh('tar', ['-x', '-C', tree], { input: archive.stdout, stdio: ['pipe', 'pipe', 'inherit'] })
  fs.writeFileSync(stamp, commit)
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** A platform of the runner's own (the repository at root, a temporary data directory), with an owner's token. */
export async function startPlatform(root) {
  const port = Number(process.env.SUITE_PLATFORM_PORT ?? 8810)
  const block = Number(process.env.SUITE_PORT_BLOCK ?? 32_600)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-suite-'))
  fs.chmodSync(dataDir, 0o755)
  const bin = path.join(root, 'apps/platform/bin/stratum.mjs')
  const email = 'suite@example.com'
  const env = {
    ...process.env, PORT: String(port), STRATUM_DATA_DIR: dataDir, STRATUM_ADMIN_EMAIL: email, STRATUM_ADMIN_PASSWORD: 'suite-password-1',
    LOG_LEVEL: 'warn', STRATUM_PLATFORM_DB_PORT: String(block), STRATUM_PROJECT_PORT_START: String(block + 1), STRATUM_PROJECT_PORT: String(block + 99),
  }
  step(`start the platform on ${port} (data ${dataDir})`)
  const child = spawn(process.execPath, [bin, 'start'], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => chunk.toString().includes('Stratum is running') && resolve())
    child.once('exit', (code) => reject(new Error(`platform exited with ${code}`)))
  })
  const token = sh(process.execPath, [bin, 'token', 'create', '--email', email], { env }).trim()
  return {
    url: `http://127.0.0.1:${port}`, token,
    async stop() {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
      try {
        // OS users made for the data dir when run as root (bench/platform.ts does the same); needs tsx for the .ts import.
        const { removeOsUsersOfDataDir } = await import(path.join(root, 'apps/platform/src/control/os-user.ts'))
        removeOsUsersOfDataDir(dataDir)
      } catch (error) {
        console.warn(`note: OS users of ${dataDir} not removed (${error.message}); run under tsx to remove them`)
      }
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The platform's API as the token's owner: call(method, url, body) answers the parsed body, or throws. */
export function api(platform) {
  return async (method, url, body) => {
    const response = await fetch(platform.url + url, {
      method,
      headers: { authorization: `Bearer ${platform.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    const text = await response.text()
    let data
    try { data = text ? JSON.parse(text) : null } catch { data = text }
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 300)}`)
    return data
  }
}

export async function untilHealthy(call, ref) {
  for (let i = 0; i < 600; i++) {
    const { status } = await call('GET', `/platform/projects/${ref}/status`)
    if (status === 'ACTIVE_HEALTHY') return
    if (String(status).endsWith('FAILED')) throw new Error(`project ${ref} is ${status}`)
    await sleep(500)
  }
  throw new Error(`project ${ref} not healthy after 300 s`)
}

/**
 * The project the suite runs against (STRATUM_REF, or a new one named `name`), healthy, with the CLI's JWT secret:
 * the suites' CLI keys, self-signed tokens and user sessions then verify (Stratum re-signs its own anon and service
 * keys with it: keys/rotation-job.ts). Answers its ref and a `sql(query)` through the Management API.
 */
export async function prepareCliProject(call, name) {
  let ref = process.env.STRATUM_REF
  if (!ref) {
    const [org] = await call('GET', '/v1/organizations')
    step(`create a project in ${org.slug}`)
    ;({ ref } = await call('POST', '/platform/projects', { name, organization_slug: org.slug, db_pass: 'suite-db-password-1' }))
  }
  await untilHealthy(call, ref)
  const { jwt_secret: current } = await call('GET', `/v1/projects/${ref}/postgrest`)
  if (current !== CLI_JWT_SECRET) {
    step('set the project JWT secret to the Supabase CLI default')
    await call('PATCH', `/platform/projects/${ref}/config/secrets`, { jwt_secret: CLI_JWT_SECRET })
    for (let i = 0; ; i++) {
      const { update_status: s } = await call('GET', `/platform/projects/${ref}/config/secrets/update-status`)
      if (s?.status === 1) break // Updated
      if (s?.status === 2) throw new Error(`JWT secret update failed: ${JSON.stringify(s)}`)
      if (i > 240) throw new Error('JWT secret update still running after 120 s')
      await sleep(500)
    }
    await untilHealthy(call, ref) // PostgREST, auth, storage and realtime pick the new secret up from the directory
  }
  return { ref, sql: (query) => call('POST', `/v1/projects/${ref}/database/query`, { query }) }
}

/** The project's own anon and service keys and its URL (what the loopback proxy forwards to). */
export async function projectKeys(call, ref) {
  const keys = await call('GET', `/v1/projects/${ref}/api-keys?reveal=true`)
  const anon = keys.find((key) => key.name === 'anon')?.api_key
  if (!anon) throw new Error('no anon key in /v1/projects/{ref}/api-keys')
  const service = keys.find((key) => key.name === 'service_role')?.api_key
  const settings = await call('GET', `/platform/projects/${ref}/settings`)
  return { anon, service, projectUrl: new URL(`${settings.app_config.protocol}://${settings.app_config.endpoint}`) }
}
