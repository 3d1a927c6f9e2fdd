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
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startProxy } from './loopback-proxy.mjs'
import { api, CLI_ANON, cliKey, prepareCliProject, projectKeys, sh, startPlatform, step, extractSuiteTree } from './suite-harness.mjs'

const args = new Set(process.argv.slice(2))
const MIRROR = process.env.SUITE_MIRROR ?? '/work/.mirror/supabase+supabase-js/repo'
const WORK = process.env.SUITE_WORK ?? path.join(os.tmpdir(), 'stratum-client-suites')
const PORT = Number(process.env.SUITE_PORT ?? 54321)
const STRATUM_ROOT = process.env.STRATUM_ROOT ?? '/work/main'

// Keys the suite hard-codes beside the CLI's anon key (suite-harness.mjs).
const CLI_ANON_IAT = cliKey({ iss: 'supabase-demo', role: 'anon', iat: 1641769200, exp: 1983812996 }) // integration.browser.test.ts
const CLI_SERVICE = cliKey({ iss: 'supabase-demo', role: 'service_role', exp: 1983812996 })

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
  // packages/core whole: supabase-js/tsconfig.json references ../{storage,realtime,postgrest,functions,auth}-js.
  extractSuiteTree(MIRROR, commit, tag, tree, ['packages/core', 'packages/shared', 'tsconfig.base.json'])

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

async function prepareProject(call, tree) {
  // 1. The project, with the CLI's JWT secret (suite-harness.mjs).
  const { ref, sql } = await prepareCliProject(call, 'supabase-js suite')

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

  return { ref, ...(await projectKeys(call, ref)) }
}

// ---------------------------------------------------------------- main
const { tree, commit, sdkVersion } = prepareSuite()
let platform = null
let proxy = null
let code = 1
try {
  platform = args.has('--start-platform')
    ? await startPlatform(STRATUM_ROOT)
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
