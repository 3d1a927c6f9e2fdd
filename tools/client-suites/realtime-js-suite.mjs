#!/usr/bin/env node
// Runs realtime-js's own tests (supabase/supabase-js, packages/core/realtime-js) UNCHANGED, in two parts:
//
//   unit   packages/core/realtime-js/test/**  (vitest, jsdom). Every file there builds its client on
//          test/helpers/setup.ts's mock-socket Server (or on mock fetch/WebSocket stubs): none opens a real socket,
//          which is why supabase-js's CI runs them in its Docker-less "test-fast" job. They need no server and say
//          nothing about Stratum; they are run so the counts are known and the copied tree is the one tested.
//   e2e    realtime-js's only server-needing test: its `test:e2e` target (project.json), the chat example's Playwright
//          spec (example/tests/chat.spec.ts: broadcast between two browsers, presence, rows from public.messages)
//          against the Supabase CLI stack at 127.0.0.1:54321 (.env.local.ci). Here that is a Stratum project behind
//          loopback-proxy.mjs, with the example's migration applied as the suite's CI applies it (psql).
//
// Needs the repository itself (npm ships no tests): `fetch github:supabase/supabase-js`. Run by hand, under the lock:
//   flock /tmp/stratum-run.lock node tools/client-suites/realtime-js-suite.mjs --start-platform [--unit-only|--e2e-only] [--keep]
//   node tools/client-suites/realtime-js-suite.mjs --prepare-only     # trees and npm installs only, no lock needed
//   STRATUM_URL=http://127.0.0.1:8000 STRATUM_TOKEN=sbp_... node tools/client-suites/realtime-js-suite.mjs
// Environment (as supabase-js-integration.mjs): STRATUM_URL, STRATUM_TOKEN, STRATUM_REF, STRATUM_PROJECT_LISTENER,
//   SUITE_MIRROR, SUITE_COMMIT, SUITE_WORK (default /tmp/stratum-client-suites/realtime-js), SUITE_PORT (54321),
//   STRATUM_ROOT, SUITE_NODE (node for vitest, next and playwright; the package's engines say >= 22),
//   SUITE_CHROMIUM (browser for Playwright, default /usr/bin/chromium: `playwright install` downloads from a CDN).
// What is adapted, all configuration: the example's `workspace:*` supabase-js becomes the npm release of the suite's
// tag; a wrapper Playwright config takes the example's and sets the browser binary, a list reporter and no video.
// Exit code: non-zero when a part failed.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { startProxy } from './loopback-proxy.mjs'
import { api, CLI_ANON, prepareCliProject, projectKeys, sh, startPlatform, step, extractSuiteTree } from './suite-harness.mjs'

const args = new Set(process.argv.slice(2))
const MIRROR = process.env.SUITE_MIRROR ?? '/work/.mirror/supabase+supabase-js/repo'
const WORK = process.env.SUITE_WORK ?? path.join(os.tmpdir(), 'stratum-client-suites', 'realtime-js')
const PORT = Number(process.env.SUITE_PORT ?? 54321)
const STRATUM_ROOT = process.env.STRATUM_ROOT ?? '/work/main'
const NODE = process.env.SUITE_NODE ?? process.execPath
const CHROMIUM = process.env.SUITE_CHROMIUM ?? '/usr/bin/chromium'
const PKG = 'packages/core/realtime-js'

const git = (...rest) => sh('git', [`--git-dir=${MIRROR}`, ...rest]).trim()
// npm and the tools it installs run on SUITE_NODE, so its PATH comes first (npm's lifecycle scripts use `node`).
const nodeEnv = (extra = {}) => ({ ...process.env, PATH: `${path.dirname(NODE)}:${process.env.PATH}`, ...extra })
const npmInstall = (dir, manifest) => {
  const manifestPath = path.join(dir, 'package.json')
  const wanted = JSON.stringify(manifest, null, 2)
  if (fs.existsSync(path.join(dir, 'node_modules')) && fs.existsSync(manifestPath) && fs.readFileSync(manifestPath, 'utf8') === wanted) return
  step(`npm install -> ${dir}`)
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(manifestPath, wanted)
  sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit', env: nodeEnv() })
}

// Runs a child with its output shown and kept, so the counts can be read from the runner's own summary line.
const run = (cmd, cmdArgs, options) =>
  new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    const keep = (stream, sink) => stream.on('data', (chunk) => { out += chunk; sink.write(chunk) })
    keep(child.stdout, process.stdout)
    keep(child.stderr, process.stderr)
    child.once('exit', (status) => resolve({ code: status ?? 1, out: stripVTControlCharacters(out) }))
  })

// ---------------------------------------------------------------- the suite's tree
function prepareTree() {
  const commit = git('rev-parse', `${process.env.SUITE_COMMIT ?? 'HEAD'}^{commit}`)
  const tag = git('describe', '--tags', '--abbrev=0', commit)
  const tree = path.join(WORK, 'tree')
  extractSuiteTree(MIRROR, commit, tag, tree, [PKG, 'tsconfig.base.json'])
  return { tree, commit, tag, sdkVersion: tag.replace(/^v/, '') }
}

// ---------------------------------------------------------------- part 1: test/ (mock sockets, no server)
function prepareUnit({ tree }) {
  // The package's devDependencies the tests import, at the versions of its package.json / pnpm-workspace.yaml catalog.
  const deps = path.join(WORK, 'unit-deps')
  npmInstall(deps, {
    name: 'realtime-js-suite-deps', private: true,
    dependencies: {
      '@supabase/phoenix': '0.4.5', tslib: '2.8.1', vitest: '4.1.6', jsdom: '^26.0.0', 'mock-socket': '^9.3.1',
      jsonwebtoken: '^9.0.0', '@types/jsonwebtoken': '^8.5.8', 'web-worker': '1.2.0', typescript: '~5.8.3',
    },
  })
  const link = path.join(tree, 'node_modules')
  if (!fs.existsSync(link)) fs.symlinkSync(path.join(deps, 'node_modules'), link)
  return deps
}

async function runUnit(suite) {
  const deps = prepareUnit(suite)
  const { tree } = suite
  step(`vitest run (${PKG}/test, the package's vitest.config.mts)`)
  const { code, out } = await run(NODE, [path.join(deps, 'node_modules/vitest/vitest.mjs'), 'run'], {
    cwd: path.join(tree, PKG), env: nodeEnv({ CI: 'true' }),
  })
  const files = out.match(/Test Files\s+(.*)/)?.[1]?.trim() ?? '?'
  const tests = out.match(/\n\s*Tests\s+(.*)/)?.[1]?.trim() ?? '?'
  return { code, summary: `test files ${files}; tests ${tests}` }
}

async function prepareProject(call, tree) {
  // The CLI's JWT secret, so .env.local.ci's anon key verifies as a JWT (the proxy swaps the apikey TEXT only).
  const { ref, sql } = await prepareCliProject(call, 'realtime-js suite')
  // The example's migration, as integration-tests.yml applies it with psql (a fresh project: no supabase-js migrations).
  const [{ exists }] = await sql(`select to_regclass('public.messages') is not null as exists`)
  if (!exists) {
    step(`SQL ${PKG}/example/supabase/migrations/001_create_messages_table.sql`)
    await sql(fs.readFileSync(path.join(tree, PKG, 'example/supabase/migrations/001_create_messages_table.sql'), 'utf8'))
  }
  return { ref, ...(await projectKeys(call, ref)) }
}

// ---------------------------------------------------------------- part 2: the example's Playwright e2e (a server)
function prepareExample({ tree, sdkVersion }) {
  // A real directory (not a symlinked node_modules): Next's bundler refuses node_modules that point out of its root.
  const example = path.join(WORK, 'example')
  const source = path.join(tree, PKG, 'example')
  for (const entry of fs.readdirSync(source)) {
    if (entry === 'package.json' || entry === 'node_modules') continue
    fs.cpSync(path.join(source, entry), path.join(example, entry), { recursive: true })
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8'))
  manifest.dependencies['@supabase/supabase-js'] = sdkVersion // was workspace:* (the suite's own build)
  delete manifest.overrides
  npmInstall(example, manifest)
  fs.copyFileSync(path.join(example, '.env.local.ci'), path.join(example, '.env.local')) // project.json's first command
  // The example's config, with the browser binary set and a reporter that never opens a server on failure.
  fs.writeFileSync(path.join(example, 'playwright.stratum.config.ts'), [
    "import base from './playwright.config'",
    'export default {',
    '  ...base,',
    "  reporter: 'list',",
    // video needs Playwright's own ffmpeg build (a CDN download); traces and screenshots stay as configured.
    "  use: { ...base.use, video: 'off' },",
    `  projects: base.projects!.map((p) => ({ ...p, use: { ...p.use, launchOptions: { executablePath: ${JSON.stringify(CHROMIUM)} } } })),`,
    '}',
    '',
  ].join('\n'))
  return example
}

async function runE2e(example) {
  step('playwright test (example/tests/chat.spec.ts; webServer: npm run dev on :3000)')
  const { code, out } = await run(NODE, [path.join(example, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'playwright.stratum.config.ts'], {
    cwd: example, env: nodeEnv({ NEXT_TELEMETRY_DISABLED: '1' }),
  })
  const count = (word) => out.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? '0'
  return { code, summary: `passed ${count('passed')}, failed ${count('failed')}, flaky ${count('flaky')}, skipped ${count('skipped')}` }
}

// ---------------------------------------------------------------- main
const suite = prepareTree()
const results = {}
if (args.has('--prepare-only')) {
  // Trees and npm installs only (network, no platform, no test run): may run outside the lock.
  prepareUnit(suite)
  prepareExample(suite)
  process.exit(0)
}
let platform = null
let proxy = null
try {
  if (!args.has('--e2e-only')) results.unit = await runUnit(suite)
  if (!args.has('--unit-only')) {
    const example = prepareExample(suite)
    platform = args.has('--start-platform')
      ? await startPlatform(STRATUM_ROOT)
      : { url: process.env.STRATUM_URL ?? 'http://127.0.0.1:8000', token: process.env.STRATUM_TOKEN, stop: async () => {} }
    if (!platform.token) throw new Error('STRATUM_TOKEN (a personal access token) is required without --start-platform')
    const project = await prepareProject(api(platform), suite.tree)
    const pathStyle = project.projectUrl.pathname.startsWith('/projects/')
    const listener = process.env.STRATUM_PROJECT_LISTENER ? new URL(`http://${process.env.STRATUM_PROJECT_LISTENER}`) : project.projectUrl
    proxy = await startProxy({
      listenPort: PORT,
      upstreamHost: listener.hostname,
      upstreamPort: Number(listener.port || 80),
      prefix: pathStyle ? project.projectUrl.pathname.replace(/\/$/, '') : '',
      hostHeader: pathStyle ? undefined : project.projectUrl.host,
      keys: new Map([[CLI_ANON, project.anon]]),
      log: (line) => console.warn(line),
    })
    step(`proxy 127.0.0.1:${PORT} -> ${project.projectUrl.href} (project ${project.ref})`)
    results.e2e = await runE2e(example)
  }
} catch (error) {
  console.error(error)
  results.error = { code: 1, summary: String(error?.message ?? error) }
} finally {
  await proxy?.close()
  if (!args.has('--keep')) await platform?.stop?.()
}
step(`realtime-js suite ${suite.commit.slice(0, 10)} (${suite.tag}), node ${spawnSync(NODE, ['-v'], { encoding: 'utf8' }).stdout.trim()}`)
for (const [part, { code, summary }] of Object.entries(results)) console.log(`${part}: ${summary}${code ? ` (exit ${code})` : ''}`)
process.exit(Object.values(results).some((r) => r.code) ? 1 : 0)
