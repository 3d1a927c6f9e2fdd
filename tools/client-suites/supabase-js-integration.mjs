#!/usr/bin/env node
// Runs supabase-js's own server-needing integration suite (packages/core/supabase-js/test/integration.test.ts:
// its Realtime blocks for vsn 1.0.0 and 2.0.0, and 'Custom JWT > Realtime', plus the PostgREST/auth/storage
// blocks of the same file) UNCHANGED against a Stratum project, behind a loopback stand-in for the Supabase
// CLI's gateway on 127.0.0.1:54321 (loopback-proxy.mjs). Needs the repository itself: `fetch github:supabase/supabase-js`
// (npm ships no tests), so it is run by hand, not by `npm test`; the last result is in the README (Realtime).
//
// Usage (from anywhere; jest runs on SUITE_NODE, which must be Node 22: supabase-js 2.112 needs its global WebSocket):
//   STRATUM_URL=http://127.0.0.1:8000 STRATUM_TOKEN=sbp_... node run-realtime-suite.mjs [--realtime-only] [--keep]
//   node run-realtime-suite.mjs --start-platform [--realtime-only]     # starts /work/main's platform like bench/platform.ts
// Environment:
//   STRATUM_URL, STRATUM_TOKEN   the platform (dashboard/API origin) and a personal access token (stratum token create)
//   STRATUM_REF                  reuse this project (its SQL set-up is skipped when public.todos exists)
//   STRATUM_PROJECT_LISTENER     host:port of the project listener when project URLs are `{ref}.<domain>` (Host is then set)
//   SUITE_MIRROR                 bare git dir of supabase/supabase-js (default /work/.mirror/supabase+supabase-js/repo)
//   SUITE_COMMIT                 commit to take the suite from (default HEAD)
//   SUITE_SDK_VERSION            npm version of @supabase/{auth,functions,postgrest,realtime,storage}-js to pair with
//                                the suite's supabase-js src (default: the tag `git describe` finds for SUITE_COMMIT)
//   SUITE_WORK                   work dir (default /tmp/realtime-suite/work); SUITE_PORT (default 54321)
//   STRATUM_ROOT                 the Stratum checkout, for --start-platform (default /work/main)
//   SUITE_NODE                   node binary for jest (default: this one); the suite targets Node 22
// Exit code: jest's.
import { spawn, spawnSync } from 'node:child_process'
import { createHmac } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startProxy } from './loopback-proxy.mjs'

const args = new Set(process.argv.slice(2))
const MIRROR = process.env.SUITE_MIRROR ?? '/work/.mirror/supabase+supabase-js/repo'
const WORK = process.env.SUITE_WORK ?? path.join(os.tmpdir(), 'stratum-client-suites')
const PORT = Number(process.env.SUITE_PORT ?? 54321)
const STRATUM_ROOT = process.env.STRATUM_ROOT ?? '/work/main'

// The Supabase CLI's defaults, as the suite hard-codes them.
const CLI_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'
const cliKey = (claims) => {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`
  return `${signed}.${createHmac('sha256', CLI_JWT_SECRET).update(signed).digest('base64url')}`
}
const CLI_ANON = cliKey({ iss: 'supabase-demo', role: 'anon', exp: 1983812996 })
const CLI_ANON_IAT = cliKey({ iss: 'supabase-demo', role: 'anon', iat: 1641769200, exp: 1983812996 }) // integration.browser.test.ts
const CLI_SERVICE = cliKey({ iss: 'supabase-demo', role: 'service_role', exp: 1983812996 })

const step = (text) => console.log(`\n== ${text}`)
const sh = (cmd, cmdArgs, options = {}) => {
  const run = spawnSync(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 1 << 28, ...options })
  if (run.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} exited ${run.status}`)
  return run.stdout ?? ''
}
const git = (...rest) => sh('git', [`--git-dir=${MIRROR}`, ...rest]).trim()

// ---------------------------------------------------------------- the suite's tree and its dependencies
function prepareSuite() {
  const commit = git('rev-parse', `${process.env.SUITE_COMMIT ?? 'HEAD'}^{commit}`)
  const tag = git('describe', '--tags', '--abbrev=0', commit)
  const sdkVersion = process.env.SUITE_SDK_VERSION ?? tag.replace(/^v/, '')
  const sourceDrift = git('diff', '--stat', tag, commit, '--', 'packages/core/auth-js/src', 'packages/core/functions-js/src',
    'packages/core/postgrest-js/src', 'packages/core/realtime-js/src', 'packages/core/storage-js/src')
  if (sourceDrift && !process.env.SUITE_SDK_VERSION) console.warn(`warning: the packages' sources changed since ${tag}:\n${sourceDrift}`)
  const tree = path.join(WORK, 'tree')
  const stamp = path.join(tree, '.suite-commit')
  if (!fs.existsSync(stamp) || fs.readFileSync(stamp, 'utf8') !== commit) {
    step(`suite tree ${commit.slice(0, 10)} (${tag}) -> ${tree}`)
    fs.rmSync(tree, { recursive: true, force: true })
    fs.mkdirSync(tree, { recursive: true })
    // packages/core whole: supabase-js/tsconfig.json references ../{storage,realtime,postgrest,functions,auth}-js.
    const archive = spawnSync('git', [`--git-dir=${MIRROR}`, 'archive', '--format=tar', commit, 'packages/core', 'packages/shared', 'tsconfig.base.json'], { maxBuffer: 1 << 30 })
    if (archive.status !== 0) throw new Error('git archive failed')
    sh('tar', ['-x', '-C', tree], { input: archive.stdout, stdio: ['pipe', 'pipe', 'inherit'] })
    fs.writeFileSync(stamp, commit)
  }

  // The repo installs with pnpm 11 (needs Node >= 22.13) from `workspace:*` / `catalog:` specifiers: here npm installs
  // the same versions into one node_modules above the tree (Node's lookup walks up to it from test/).
  const deps = path.join(WORK, 'deps')
  const manifest = {
    name: 'supabase-js-suite-deps', private: true,
    dependencies: {
      // the suite's runner and its config (pnpm-workspace.yaml catalog; jest.config.ts needs ts-node, as at the repo root)
      jest: '30.4.2', 'ts-jest': '^29.4.9', '@jest/globals': '^30.0.0', '@jest/types': '^30.0.0', '@types/jest': '30.0.0',
      typescript: '~5.8.3', 'ts-node': '^10.9.1', '@types/node': '20.19.9',
      // packages/core/supabase-js devDependencies the test imports
      jsonwebtoken: '^9.0.0', '@types/jsonwebtoken': '^8.5.8', '@opentelemetry/api': '^1.9.0',
      '@opentelemetry/context-async-hooks': '^2.8.0', '@opentelemetry/core': '^2.8.0', '@opentelemetry/sdk-trace-node': '^2.8.0',
      ws: '^8.18.0', tslib: '2.8.1',
      // supabase-js's workspace:* siblings, at the release the suite's commit belongs to
      '@supabase/auth-js': sdkVersion, '@supabase/functions-js': sdkVersion, '@supabase/postgrest-js': sdkVersion,
      '@supabase/realtime-js': sdkVersion, '@supabase/storage-js': sdkVersion,
    },
  }
  const manifestPath = path.join(deps, 'package.json')
  const wanted = JSON.stringify(manifest, null, 2)
  if (!fs.existsSync(path.join(deps, 'node_modules')) || !fs.existsSync(manifestPath) || fs.readFileSync(manifestPath, 'utf8') !== wanted) {
    step(`npm install (sdk ${sdkVersion}) -> ${deps}`)
    fs.mkdirSync(deps, { recursive: true })
    fs.writeFileSync(manifestPath, wanted)
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: deps, stdio: 'inherit' })
  }
  const link = path.join(tree, 'node_modules')
  if (!fs.existsSync(link)) fs.symlinkSync(path.join(deps, 'node_modules'), link)

  // @supabase/tracing is private (never published): built from packages/shared/tracing, as the workspace does.
  const tracing = path.join(tree, 'packages/shared/tracing')
  if (!fs.existsSync(path.join(tracing, 'dist/module/index.d.ts'))) {
    step('build @supabase/tracing (tsc, 6 files)')
    const tsc = path.join(deps, 'node_modules/typescript/bin/tsc')
    sh(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: tracing, stdio: 'inherit' })
    sh(process.execPath, [tsc, '-p', 'tsconfig.module.json'], { cwd: tracing, stdio: 'inherit' })
  }
  const tracingLink = path.join(deps, 'node_modules/@supabase/tracing')
  if (!fs.existsSync(tracingLink)) fs.symlinkSync(tracing, tracingLink)
  return { tree, commit, sdkVersion }
}

// ---------------------------------------------------------------- the platform
async function startPlatform() {
  const port = Number(process.env.SUITE_PLATFORM_PORT ?? 8810)
  const block = Number(process.env.SUITE_PORT_BLOCK ?? 32_600)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-suite-'))
  fs.chmodSync(dataDir, 0o755)
  const bin = path.join(STRATUM_ROOT, 'apps/platform/bin/stratum.mjs')
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
        const { removeOsUsersOfDataDir } = await import(path.join(STRATUM_ROOT, 'apps/platform/src/control/os-user.ts'))
        removeOsUsersOfDataDir(dataDir)
      } catch (error) {
        console.warn(`note: OS users of ${dataDir} not removed (${error.message}); run under tsx to remove them`)
      }
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

function api(platform) {
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
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function untilHealthy(call, ref) {
  for (let i = 0; i < 600; i++) {
    const { status } = await call('GET', `/platform/projects/${ref}/status`)
    if (status === 'ACTIVE_HEALTHY') return
    if (String(status).endsWith('FAILED')) throw new Error(`project ${ref} is ${status}`)
    await sleep(500)
  }
  throw new Error(`project ${ref} not healthy after 300 s`)
}

async function prepareProject(call, tree) {
  let ref = process.env.STRATUM_REF
  if (!ref) {
    const [org] = await call('GET', '/v1/organizations')
    step(`create a project in ${org.slug}`)
    ;({ ref } = await call('POST', '/platform/projects', { name: 'supabase-js suite', organization_slug: org.slug, db_pass: 'suite-db-password-1' }))
  }
  await untilHealthy(call, ref)
  const sql = (query) => call('POST', `/v1/projects/${ref}/database/query`, { query })

  // 1. The project's JWT secret becomes the CLI's, so the suite's CLI anon key, its self-signed 'Custom JWT' token and
  //    the user sessions all verify. Stratum re-signs its own anon/service keys with it (keys/rotation-job.ts).
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
  // 2. Auth as `supabase start` has it: sign-ups confirmed at once (CLI: [auth.email] enable_confirmations = false),
  //    anonymous sign-ins on (supabase/config.toml), and room for the ~40 sign-ups/sign-ins of one run from one IP
  //    (Stratum counts both against rate_limit_otp, 30 per 5 min by default).
  step('auth settings: mailer_autoconfirm, anonymous sign-ins, rate_limit_otp')
  await call('PATCH', `/v1/projects/${ref}/config/auth`, {
    mailer_autoconfirm: true, external_anonymous_users_enabled: true, rate_limit_otp: 100000, rate_limit_anonymous_users: 100000,
  })
  // 3. The suite's SQL: supabase/migrations in order, as `supabase start` applies them (no seed: setup-supabase.sh
  //    truncates public.todos afterwards), plus the realtime-js example's table (CI applies it with psql).
  const [{ exists }] = await sql(`select to_regclass('public.todos') is not null as exists`)
  if (!exists) {
    const dir = path.join(tree, 'packages/core/supabase-js/supabase/migrations')
    const files = fs.readdirSync(dir).filter((name) => name.endsWith('.sql')).sort().map((name) => path.join(dir, name))
    files.push(path.join(tree, 'packages/core/realtime-js/example/supabase/migrations/001_create_messages_table.sql'))
    for (const file of files) {
      step(`SQL ${path.relative(tree, file)}`)
      await sql(fs.readFileSync(file, 'utf8'))
    }
  }
  await sql('truncate public.todos cascade')

  const keys = await call('GET', `/v1/projects/${ref}/api-keys?reveal=true`)
  const anon = keys.find((key) => key.name === 'anon')?.api_key
  const service = keys.find((key) => key.name === 'service_role')?.api_key
  if (!anon) throw new Error('no anon key in /v1/projects/{ref}/api-keys')
  const settings = await call('GET', `/platform/projects/${ref}/settings`)
  const projectUrl = new URL(`${settings.app_config.protocol}://${settings.app_config.endpoint}`)
  return { ref, anon, service, projectUrl }
}

// ---------------------------------------------------------------- main
const { tree, commit, sdkVersion } = prepareSuite()
let platform = null
let proxy = null
let code = 1
try {
  platform = args.has('--start-platform')
    ? await startPlatform()
    : { url: process.env.STRATUM_URL ?? 'http://127.0.0.1:8000', token: process.env.STRATUM_TOKEN, stop: async () => {} }
  if (!platform.token) throw new Error('STRATUM_TOKEN (a personal access token) is required without --start-platform')
  const project = await prepareProject(api(platform), tree)

  // Path-style project URL (http://host:port/projects/{ref}): prefix the path. Host-style ({ref}.<domain>): keep the
  // path, send Host: {ref}.<domain> to the listener named by STRATUM_PROJECT_LISTENER.
  const pathStyle = project.projectUrl.pathname.startsWith('/projects/')
  const listener = process.env.STRATUM_PROJECT_LISTENER ? new URL(`http://${process.env.STRATUM_PROJECT_LISTENER}`) : project.projectUrl
  const keys = new Map([[CLI_ANON, project.anon], [CLI_ANON_IAT, project.anon]])
  if (project.service) keys.set(CLI_SERVICE, project.service)
  proxy = await startProxy({
    listenPort: PORT,
    upstreamHost: listener.hostname,
    upstreamPort: Number(listener.port || 80),
    prefix: pathStyle ? project.projectUrl.pathname.replace(/\/$/, '') : '',
    hostHeader: pathStyle ? undefined : project.projectUrl.host,
    keys,
    log: (line) => console.warn(line),
  })
  step(`proxy 127.0.0.1:${PORT} -> ${project.projectUrl.href} (project ${project.ref}); suite ${commit.slice(0, 10)}, sdk ${sdkVersion}`)

  const jestArgs = ['--runInBand', '--detectOpenHandles', 'test/integration.test.ts']
  if (args.has('--realtime-only')) jestArgs.push('-t', 'Realtime') // 'Realtime with vsn: …' and 'Custom JWT Realtime …'
  // SUITE_NODE: the node that runs jest. The suite's own floor is Node 22 (.nvmrc, engines): on Node 20, createClient
  // throws 'native WebSocket not found'. `$(/work/main/scripts/registry-node.sh 22)/node` gives a 22.
  const jest = spawn(process.env.SUITE_NODE ?? process.execPath, [path.join(tree, 'node_modules/jest/bin/jest.js'), ...jestArgs], {
    cwd: path.join(tree, 'packages/core/supabase-js'),
    stdio: 'inherit',
    env: { ...process.env, CI: 'true' },
  })
  code = await new Promise((resolve) => jest.once('exit', (status) => resolve(status ?? 1)))
} catch (error) {
  console.error(error)
} finally {
  await proxy?.close()
  if (!args.has('--keep')) await platform?.stop?.()
}
process.exit(code)
