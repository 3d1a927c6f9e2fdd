#!/usr/bin/env node
// Runs the official client libraries' own test suites (supabase/supabase-js, packages/core/{postgrest,auth,storage,
// functions}-js) UNCHANGED in every assertion against Stratum projects, and prints passed/failed/skipped per suite.
// Needs the repository itself (npm ships no tests): a bare mirror (`fetch github:supabase/supabase-js`).
//
//   flock /tmp/stratum-run.lock node tools/client-suites/core-suites.mjs --start-platform postgrest   # one suite per lock
//   node tools/client-suites/core-suites.mjs --prepare-only        # tree and npm install only (network, no lock needed)
//   STRATUM_URL=http://127.0.0.1:8000 STRATUM_TOKEN=sbp_... node tools/client-suites/core-suites.mjs auth
// Suites: postgrest, auth (its CLI suite, then its docker-tests), storage, functions; none named: all four.
// Flags: --start-platform (a platform of its own, suite-harness.mjs), --keep (leave it running), --prepare-only.
// Environment: STRATUM_URL, STRATUM_TOKEN, STRATUM_REF (one existing project for every suite), STRATUM_PROJECT_LISTENER,
//   SUITE_MIRROR (default /work/.mirror/supabase+supabase-js/repo), SUITE_COMMIT (HEAD), SUITE_WORK (default
//   /tmp/stratum-client-suites/core), STRATUM_ROOT (/work/main), SUITE_NODE (node for jest; default Node 22 from
//   scripts/registry-node.sh: the packages' engines say >= 22), SUITE_AUTH_CLI_LIMITS=1 (auth's per-IP rate limits
//   as config.toml has them instead of 100000: see authCliSettings). Results: <SUITE_WORK>/results-<suite>.json (jest --json) and
//   <SUITE_WORK>/failures-<suites>.md (every failing test, file > name, first line of its error). Exit: 1 when one failed.
//
// WHAT THE HARNESS ADAPTS (configuration only; no test file, assertion or src file is changed):
// - Where the suites come from: `git archive <SUITE_COMMIT> packages/core/<suite> tsconfig.base.json` of the mirror.
//   Tests import the package's own src (as in the workspace); their devDependencies (the pnpm catalog versions:
//   jest 30.4.2, ts-jest, typescript ~5.8.3, ...) are npm-installed into <SUITE_WORK>/deps, linked as tree/node_modules.
//   jest runs with the package's own jest config, `--runInBand --ci` (snapshots never written), coverage off, `--json`.
// - URLs and ports: the CLI's gateway on 127.0.0.1:54321 is loopback-proxy.mjs in front of the suite's project
//   (path prefix /projects/<ref>); auth-js's docker-tests' bare GoTrues on localhost:9999/9998/9997/9996 are proxies to
//   /projects/<ref>/auth/v1 of projects configured as each GoTrue of infra/docker-compose.yml (see below).
// - Keys: each project gets the CLI's JWT secret (suite-harness.mjs prepareCliProject), so every token a suite signs
//   with it verifies. The proxy swaps apikey TEXTS the suites hard-code (CLI anon and service_role keys; auth-js's
//   RS256 publishable and secret keys) for the project's anon and service_role keys, and adds the project's anon key
//   to a request that has none (the CLI's Kong needs none on REST, storage and bare GoTrue; Stratum's gateway does;
//   for storage only beside an Authorization header: without credentials storage-api itself refuses).
//   Authorization headers pass untouched.
// - postgrest-js: test/supabase/migrations/00000000000000_schema.sql then seed.sql through /v1/projects/{ref}/database/query;
//   its three `alter role authenticator set pgrst.*` lines are sent one by one first (a refusal is printed and the run
//   goes on), the rest as one query (when the project offers no PostGIS: without its `create extension`, the
//   public.shops table and its seed row, which only transforms.test.ts's geojson case reads), then `notify pgrst, 'reload config'` and 'reload schema' (the CLI's db reset
//   restarts PostgREST instead); an empty graphql_public schema when missing (Supabase projects have it; Stratum's
//   PATCH refuses to expose a schema that does not exist). config.toml's [api]: PATCH /v1/projects/{ref}/postgrest db_schema
//   'public,personal,graphql_public', db_extra_search_path 'public,extensions', max_rows 1000. Test files: all but
//   test/v12/ (the package's test:suite target).
// - auth-js (jest.config.cli.js): test/generate-signing-keys.js makes test/supabase/signing_keys.json (its project.json
//   does the same); that RSA key is imported through POST /v1/projects/{ref}/config/auth/signing-keys (RS256, in_use),
//   and since Stratum names an imported key by its own id, the file's `kid` is rewritten to that id before jest starts
//   (the suite signs its publishable, secret and admin tokens with it at load). test/supabase/config.toml's [auth]
//   becomes PATCH /v1/projects/{ref}/config/auth (authCliSettings below; per-IP rate limits roomy, as they never bind
//   in the CLI's stack); keys Stratum does not accept are printed and left out. docker-tests (jest.config.docker.js): 9998 (autoconfirm on, anonymous on) and 9996 (RS256 key in
//   use) are the same project; 9999 (signup on, autoconfirm off, phone on, anonymous off) and 9997 (signup, email and
//   phone off) are projects of their own with those settings (their tokens need no secret of the suite's).
// - storage-js: pgcrypto created in `extensions` when missing (Supabase projects have it; the seed's crypt() needs it),
//   then test/supabase/seed.sql through the query API (users, buckets, objects, RLS policies); config.toml's
//   [storage]: PATCH /v1/projects/{ref}/config/storage fileSizeLimit 50 MiB, image transformation on.
// - functions-js: its specs start each function in a supabase/deno-relay container (test/relay/container.ts, which
//   needs Docker). A jest moduleNameMapper (a wrapper config beside the package's) points `../relay/container` at
//   <SUITE_WORK>/stratum-relay.cjs (written below): the four fixture functions (test/functions/*) are deployed to the
//   project beforehand through POST /v1/projects/{ref}/functions/deploy (verify_jwt on), and runRelay(slug, secret)
//   starts a loopback relay on a free port that forwards `/<slug>` to the project's /functions/v1/<slug>. The spec's
//   per-relay JWT secret is mapped onto the project's: a bearer that verifies with the spec's secret is re-signed
//   (same header and claims) with the project's, any other bearer passes unchanged (Stratum refuses it). The relay's
//   DENO_ORIGIN (runRelay's denoOrigin, http://localhost:8000), the origin the function sees in request.url, is sent
//   as Host (Stratum derives request.url from it; path-style project URLs do not route on Host).
//   deno.land is checked first: when it cannot be reached, each function is deployed with an import map that maps
//   https://deno.land/std/http/server.ts to a local std_http_server.ts whose serve() calls Deno.serve.
import { spawn, spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import dns from 'node:dns/promises'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { startProxy } from './loopback-proxy.mjs'
import { api, CLI_ANON, CLI_JWT_SECRET, cliKey, prepareCliProject, projectKeys, sh, startPlatform, step, untilHealthy, extractSuiteTree } from './suite-harness.mjs'

const argv = process.argv.slice(2)
const flags = new Set(argv.filter((a) => a.startsWith('--')))
const ALL = ['postgrest', 'auth', 'storage', 'functions']
const chosen = argv.filter((a) => !a.startsWith('--'))
for (const name of chosen) if (!ALL.includes(name)) throw new Error(`unknown suite ${name}: choose from ${ALL.join(', ')}`)
const SUITES = chosen.length ? chosen : ALL
const MIRROR = process.env.SUITE_MIRROR ?? '/work/.mirror/supabase+supabase-js/repo'
const WORK = process.env.SUITE_WORK ?? path.join(os.tmpdir(), 'stratum-client-suites', 'core')
const STRATUM_ROOT = process.env.STRATUM_ROOT ?? '/work/main'
const PKG = (suite) => `packages/core/${suite}-js`
const CLI_SERVICE = cliKey({ iss: 'supabase-demo', role: 'service_role', exp: 1983812996 })

const git = (...rest) => sh('git', [`--git-dir=${MIRROR}`, ...rest]).trim()

/** The node that runs jest: SUITE_NODE, else Node 22 from the npm registry (the packages' engines: >= 22). */
function suiteNode() {
  if (process.env.SUITE_NODE) return process.env.SUITE_NODE
  try {
    return path.join(sh('bash', [path.join(STRATUM_ROOT, 'scripts/registry-node.sh'), '22']).trim(), 'node')
  } catch {
    console.warn('warning: no Node 22 (scripts/registry-node.sh failed); jest runs on this node')
    return process.execPath
  }
}
const NODE = flags.has('--prepare-only') ? process.execPath : suiteNode()
const nodeEnv = (extra = {}) => ({ ...process.env, PATH: `${path.dirname(NODE)}:${process.env.PATH}`, ...extra })

// ---------------------------------------------------------------- the suites' tree and their dev dependencies
function prepareTree() {
  const commit = git('rev-parse', `${process.env.SUITE_COMMIT ?? 'HEAD'}^{commit}`)
  const tag = git('describe', '--tags', '--abbrev=0', commit)
  const tree = path.join(WORK, 'tree')
  extractSuiteTree(MIRROR, commit, tag, tree, [...ALL.map(PKG), 'tsconfig.base.json'])
  // The four packages' devDependencies that their tests and jest configs load (pnpm-workspace.yaml catalog versions).
  const deps = path.join(WORK, 'deps')
  const manifest = {
    name: 'core-suites-deps', private: true,
    dependencies: {
      jest: '30.4.2', 'ts-jest': '^29.4.9', '@jest/globals': '^30.0.0', '@jest/types': '^30.0.0', '@types/jest': '30.0.0',
      '@types/node': '20.19.9', typescript: '~5.8.3', 'ts-node': '^10.9.2', prettier: '^3.6.2', tslib: '2.8.1',
      'type-fest': '^4.32.0', zod: '^3.25.76', // postgrest-js
      '@faker-js/faker': '^9.9.0', 'jest-environment-jsdom': '30.4.1', 'jest-mock-server': '^0.1.0', jsonwebtoken: '^9.0.0', '@types/jsonwebtoken': '^8.5.8', // auth-js
      'iceberg-js': '^0.8.1', // storage-js
      nanoid: '^3.3.1', testcontainers: '^8.5.1', // functions-js (testcontainers: only for container.ts's types)
    },
  }
  const manifestPath = path.join(deps, 'package.json')
  const wanted = JSON.stringify(manifest, null, 2)
  if (!fs.existsSync(path.join(deps, 'node_modules')) || !fs.existsSync(manifestPath) || fs.readFileSync(manifestPath, 'utf8') !== wanted) {
    step(`npm install -> ${deps}`)
    fs.mkdirSync(deps, { recursive: true })
    fs.writeFileSync(manifestPath, wanted)
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: deps, stdio: 'inherit', env: nodeEnv() })
  }
  const link = path.join(tree, 'node_modules')
  if (!fs.existsSync(link)) fs.symlinkSync(path.join(deps, 'node_modules'), link)
  return { tree, commit, tag, deps }
}

// ---------------------------------------------------------------- platform helpers
/** A further project (not the CLI secret: nothing of the suite's signs for it), healthy. */
async function newProject(call, name) {
  const [org] = await call('GET', '/v1/organizations')
  step(`create project '${name}'`)
  const { ref } = await call('POST', '/platform/projects', { name, organization_slug: org.slug, db_pass: 'suite-db-password-1' })
  await untilHealthy(call, ref)
  return ref
}

/** PATCHes settings whole; when refused, key by key, printing the keys Stratum does not take. */
async function patchSettings(call, url, settings) {
  try {
    await call('PATCH', url, settings)
    return []
  } catch (error) {
    console.warn(`  whole body refused (${error.message.slice(0, 200)}); key by key`)
  }
  const refused = []
  for (const [key, value] of Object.entries(settings)) {
    try {
      await call('PATCH', url, { [key]: value })
    } catch (error) {
      refused.push(key)
      console.warn(`  not accepted: ${key} = ${JSON.stringify(value)}: ${error.message.replace(/^PATCH \S+: /, '').slice(0, 200)}`)
    }
  }
  return refused
}

/** Runs SQL text; a failure is printed (and answered false), not thrown: the tests then show what it costs. */
async function runSql(sql, label, text) {
  try {
    await sql(text)
    return true
  } catch (error) {
    console.warn(`  SQL refused (${label}): ${error.message.slice(0, 400)}`)
    return false
  }
}

/** A proxy on `port` in front of `project` (below `sub`, e.g. /auth/v1), with the key map and the default key. */
async function proxyFor(project, port, keys, sub = '', defaultKey = project.anon) {
  const pathStyle = project.projectUrl.pathname.startsWith('/projects/')
  const listener = process.env.STRATUM_PROJECT_LISTENER ? new URL(`http://${process.env.STRATUM_PROJECT_LISTENER}`) : project.projectUrl
  return startProxy({
    listenPort: port,
    upstreamHost: listener.hostname,
    upstreamPort: Number(listener.port || 80),
    prefix: (pathStyle ? project.projectUrl.pathname.replace(/\/$/, '') : '') + sub,
    hostHeader: pathStyle ? undefined : project.projectUrl.host,
    keys,
    defaultKey,
    log: (line) => console.warn(line),
  })
}

const cliKeys = (project) => new Map([[CLI_ANON, project.anon], [CLI_SERVICE, project.service]])

// ---------------------------------------------------------------- jest and its results
/** The first lines of a failure that say something (the matcher, expected/received), without the stack. */
const gist = (message = '') =>
  stripVTControlCharacters(message).split('\n').map((l) => l.trim()).filter((l) => l && !/^Error:\s*$/.test(l) && !/^at /.test(l)).slice(0, 3).join(' | ').slice(0, 400)

async function jest(suite, label, jestArgs, env = {}) {
  const cwd = path.join(suite.tree, PKG(label.split(':')[0]))
  const out = path.join(WORK, `results-${label.replace(':', '-')}.json`)
  fs.rmSync(out, { force: true })
  const args = [path.join(suite.tree, 'node_modules/jest/bin/jest.js'), '--runInBand', '--ci', '--coverage=false', '--json', `--outputFile=${out}`, ...jestArgs]
  step(`jest ${label}: ${args.slice(1).join(' ')}`)
  const child = spawn(NODE, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: nodeEnv(env) })
  const code = await new Promise((resolve) => child.once('exit', (status) => resolve(status ?? 1)))
  if (!fs.existsSync(out)) return { label, code, error: 'jest wrote no results' }
  const report = JSON.parse(fs.readFileSync(out, 'utf8'))
  const failures = []
  const brokenFiles = []
  for (const file of report.testResults) {
    const rel = path.relative(cwd, file.name)
    for (const test of file.assertionResults) {
      if (test.status !== 'failed') continue
      failures.push({ file: rel, name: [...test.ancestorTitles, test.title].join(' > '), error: gist(test.failureMessages?.[0]) })
    }
    // A file that could not run (compile error, failing hook at load) has no test results of its own.
    if (file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed')) {
      brokenFiles.push({ file: rel, error: gist(file.message) })
    }
  }
  return {
    label, code, total: report.numTotalTests, passed: report.numPassedTests, failed: report.numFailedTests,
    skipped: report.numPendingTests + (report.numTodoTests ?? 0), failures, brokenFiles,
  }
}

// ---------------------------------------------------------------- postgrest-js
async function runPostgrest(call, suite) {
  const { ref, sql } = await prepareCliProject(call, 'postgrest-js suite')
  const project = { ref, ...(await projectKeys(call, ref)) }
  const dir = path.join(suite.tree, PKG('postgrest'), 'test/supabase')
  const [{ exists }] = await sql(`select to_regclass('public.users') is not null as exists`)
  if (!exists) {
    step('postgrest-js schema: test/supabase/migrations/00000000000000_schema.sql, then seed.sql')
    const schema = fs.readFileSync(path.join(dir, 'migrations/00000000000000_schema.sql'), 'utf8')
    const roleLines = schema.split('\n').filter((line) => /^alter role authenticator set pgrst\./i.test(line.trim()))
    for (const line of roleLines) if (await runSql(sql, line.trim(), line)) console.log(`  ok: ${line.trim()}`)
    let rest = schema.split('\n').filter((line) => !roleLines.includes(line)).join('\n')
    let seed = fs.readFileSync(path.join(dir, 'seed.sql'), 'utf8')
    // PostGIS is not offered by every Stratum installation: without it, its extension, the one table that uses it
    // (public.shops, read by transforms.test.ts's geojson case) and that table's seed row are left out, so that one
    // case fails instead of the whole schema (the query API is not one transaction: asked first, not retried).
    const [{ available }] = await sql(`select exists (select 1 from pg_available_extensions where name = 'postgis') as available`)
    if (!available) {
      console.warn('  postgis is not available: the schema goes without it, public.shops and its seed row')
      rest = rest.replace(/create extension if not exists postgis[^;]*;/i, '').replace(/create table public\.shops \([^;]*\);/i, '')
      seed = seed.replace(/INSERT INTO shops\([\s\S]*?\);[ \t]*\n/i, '') // its value holds a ';' (SRID=4326;POINT(...))
    }
    await runSql(sql, 'schema', rest)
    await runSql(sql, 'seed.sql', seed)
    // `supabase db reset` restarts PostgREST after the migrations: here it is asked to reload its config and schema.
    await runSql(sql, 'reload', `notify pgrst, 'reload config'; notify pgrst, 'reload schema'`)
  }
  // config.toml exposes graphql_public, a schema every Supabase project has (pg_graphql's); Stratum's projects do not.
  await runSql(sql, 'graphql_public', 'create schema if not exists graphql_public')
  step("postgrest settings (config.toml [api]): schemas public,personal,graphql_public; extra_search_path public,extensions; max_rows 1000")
  await patchSettings(call, `/v1/projects/${ref}/postgrest`, { db_schema: 'public,personal,graphql_public', db_extra_search_path: 'public,extensions', max_rows: 1000 })
  await untilHealthy(call, ref)
  const proxy = await proxyFor(project, 54321, cliKeys(project))
  // PostgREST restarts with the new settings: wait until it serves the suite's table through the proxy.
  let status = 0
  for (let i = 0; i < 120 && status !== 200; i++) {
    if (i) await new Promise((resolve) => setTimeout(resolve, 500))
    status = await fetch('http://127.0.0.1:54321/rest/v1/users?select=username&limit=1').then((r) => r.status, () => 0)
  }
  if (status !== 200) console.warn(`  GET /rest/v1/users still answers ${status} after 60 s; running the suite anyway`)
  try {
    return [await jest(suite, 'postgrest', ['--testPathIgnorePatterns=test/v12/'])]
  } finally {
    await proxy.close()
  }
}

// ---------------------------------------------------------------- auth-js
/** test/supabase/config.toml's [auth] as the Management API's auth settings (the CLI's own mapping). */
function authCliSettings() {
  // GoTrue applies its per-IP limits (sign-ups, sign-ins, OTPs, verify, refresh, anonymous) only when
  // GOTRUE_RATE_LIMIT_HEADER names the client's address header, which the CLI's stack leaves unset (apilimiter
  // performRateLimitingWithHeader): in the suite's stack they never bind. Stratum counts per IP always, so they get
  // room here; SUITE_AUTH_CLI_LIMITS=1 sends config.toml's numbers instead. Email and SMS counts are global: as is.
  const limit = (n) => (process.env.SUITE_AUTH_CLI_LIMITS ? n : 100000)
  return {
    site_url: 'http://127.0.0.1:3000', uri_allow_list: 'https://127.0.0.1:3000,http://localhost:5173', jwt_exp: 3600,
    refresh_token_rotation_enabled: true, security_refresh_token_reuse_interval: 10, disable_signup: false,
    external_anonymous_users_enabled: true, security_manual_linking_enabled: false, password_min_length: 6, password_required_characters: '',
    rate_limit_email_sent: 100, rate_limit_sms_sent: 100, rate_limit_anonymous_users: limit(100), rate_limit_token_refresh: limit(300),
    rate_limit_otp: limit(100), rate_limit_verify: limit(100), rate_limit_web3: limit(30),
    external_email_enabled: true, mailer_autoconfirm: true, mailer_secure_email_change_enabled: true, security_update_password_require_reauthentication: false,
    smtp_max_frequency: 1, mailer_otp_length: 6, mailer_otp_exp: 3600,
    external_phone_enabled: true, sms_autoconfirm: true, sms_template: 'Your code is {{ .Code }}', sms_max_frequency: 1, sms_test_otp: '1234567890=123456',
    mfa_max_enrolled_factors: 10, mfa_totp_enroll_enabled: true, mfa_totp_verify_enabled: true,
    mfa_phone_enroll_enabled: true, mfa_phone_verify_enabled: true, mfa_phone_otp_length: 6, mfa_phone_template: 'Your code is {{ .Code }}', mfa_phone_max_frequency: 1,
    mfa_web_authn_enroll_enabled: true, mfa_web_authn_verify_enabled: true,
    passkey_enabled: true, webauthn_rp_display_name: 'auth-js tests', webauthn_rp_id: 'localhost', webauthn_rp_origins: 'http://localhost:5173',
    external_google_enabled: true, external_google_client_id: '53566906701-bmhc1ndue7hild39575gkpimhs06b7ds.apps.googleusercontent.com',
    external_google_secret: '', external_google_skip_nonce_check: true,
    external_web3_solana_enabled: false,
    oauth_server_enabled: true, oauth_server_authorization_path: '/oauth/consent', oauth_server_allow_dynamic_registration: true,
  }
}

async function runAuth(call, suite) {
  const { ref } = await prepareCliProject(call, 'auth-js suite')
  const project = { ref, ...(await projectKeys(call, ref)) }
  const pkg = path.join(suite.tree, PKG('auth'))

  step('auth-js signing key: test/generate-signing-keys.js, imported as the RS256 key in use, kid rewritten to its id')
  const keysPath = path.join(pkg, 'test/supabase/signing_keys.json')
  sh(NODE, ['test/generate-signing-keys.js'], { cwd: pkg, stdio: ['ignore', 'ignore', 'inherit'] })
  const [jwk] = JSON.parse(fs.readFileSync(keysPath, 'utf8'))
  let imported = { id: jwk.kid }
  try {
    imported = await call('POST', `/v1/projects/${ref}/config/auth/signing-keys`, { algorithm: 'RS256', status: 'in_use', private_jwk: jwk })
    fs.writeFileSync(keysPath, JSON.stringify([{ ...jwk, kid: imported.id }], null, 2) + '\n')
  } catch (error) {
    console.warn(`  signing key not imported (${error.message.slice(0, 300)}): the suite's RS256 tokens will not verify`)
  }

  // The suite's RS256 publishable and secret keys (test/lib/clients.ts): RS256 is deterministic, so signing the same
  // claims with the same key and kid gives the very texts the suite sends, which the proxy maps to the project's keys.
  const jwt = createRequire(path.join(suite.deps, 'package.json'))('jsonwebtoken')
  const { createPrivateKey } = await import('node:crypto')
  const pem = createPrivateKey({ key: { ...jwk, kid: imported.id }, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' })
  const suiteKey = (role) => jwt.sign({ iss: 'supabase-demo', role, exp: 1983812996, iat: 1768925145 }, pem, { algorithm: 'RS256', keyid: imported.id })
  const keys = cliKeys(project)
  keys.set(suiteKey('anon'), project.anon)
  keys.set(suiteKey('service_role'), project.service)

  step('auth settings (test/supabase/config.toml [auth])')
  await patchSettings(call, `/v1/projects/${ref}/config/auth`, authCliSettings())

  const results = []
  let proxy = await proxyFor(project, 54321, keys)
  try {
    results.push(await jest(suite, 'auth', ['--config', 'jest.config.cli.js']))
  } finally {
    await proxy.close()
  }

  // docker-tests: infra/docker-compose.yml's four GoTrues.
  const phoneRef = await newProject(call, 'auth-js docker 9999')
  step('9999: signup on, autoconfirm off, phone on (SMS), anonymous off')
  await patchSettings(call, `/v1/projects/${phoneRef}/config/auth`, {
    site_url: 'http://localhost:9999', uri_allow_list: 'https://supabase.io/docs', jwt_exp: 3600, disable_signup: false, mailer_autoconfirm: false,
    external_phone_enabled: true, sms_autoconfirm: false, external_anonymous_users_enabled: false, external_email_enabled: true,
    mfa_web_authn_enroll_enabled: true, mfa_web_authn_verify_enabled: true, external_google_enabled: true,
    external_google_client_id: '53566906701-bmhc1ndue7hild39575gkpimhs06b7ds.apps.googleusercontent.com', external_google_secret: 'Sm3s8RE85rDcS36iMy8YjrpC',
  })
  const disabledRef = await newProject(call, 'auth-js docker 9997')
  step('9997: signup off, email and phone off, autoconfirm off')
  await patchSettings(call, `/v1/projects/${disabledRef}/config/auth`, {
    site_url: 'http://localhost:9997', jwt_exp: 3600, disable_signup: true, mailer_autoconfirm: false, external_phone_enabled: false, external_email_enabled: false,
  })
  const phone = { ref: phoneRef, ...(await projectKeys(call, phoneRef)) }
  const disabled = { ref: disabledRef, ...(await projectKeys(call, disabledRef)) }
  const proxies = [
    await proxyFor(phone, 9999, new Map(), '/auth/v1'),
    await proxyFor(project, 9998, new Map(), '/auth/v1'),
    await proxyFor(disabled, 9997, new Map(), '/auth/v1'),
    await proxyFor(project, 9996, new Map(), '/auth/v1'),
  ]
  try {
    results.push(await jest(suite, 'auth:docker-tests', ['--config', 'jest.config.docker.js']))
  } finally {
    for (const p of proxies) await p.close()
  }
  return results
}

// ---------------------------------------------------------------- storage-js
async function runStorage(call, suite) {
  const { ref, sql } = await prepareCliProject(call, 'storage-js suite')
  const project = { ref, ...(await projectKeys(call, ref)) }
  const [{ exists }] = await sql(`select exists (select 1 from storage.buckets where id = 'bucket2') as exists`)
  if (!exists) {
    step('storage-js seed: test/supabase/seed.sql (pgcrypto in extensions first, as Supabase projects have it: the seed calls crypt())')
    await runSql(sql, 'pgcrypto', 'create extension if not exists pgcrypto with schema extensions')
    await runSql(sql, 'seed.sql', fs.readFileSync(path.join(suite.tree, PKG('storage'), 'test/supabase/seed.sql'), 'utf8'))
  }
  step('storage settings (config.toml [storage]): file_size_limit 50MiB, image_transformation on')
  await patchSettings(call, `/v1/projects/${ref}/config/storage`, { fileSizeLimit: 50 * 1024 * 1024, features: { imageTransformation: { enabled: true } } })
  // Behind the CLI's Kong, a storage request without credentials reaches storage-api, which refuses it (storageBucketApi's
  // 'missing authorization' case): so the anon key is added only beside an Authorization header, and a request with
  // neither gets Stratum's gateway's own refusal.
  const proxy = await proxyFor(project, 54321, cliKeys(project), '', (headers) => (headers.authorization ? project.anon : undefined))
  try {
    return [await jest(suite, 'storage', [])]
  } finally {
    await proxy.close()
  }
}

// ---------------------------------------------------------------- functions-js
const STD_SERVE_SHIM = `// Stand-in for https://deno.land/std/http/server.ts (deno.land cannot be reached here): std's serve(handler) on Deno.serve.
export function serve(handler: (request: Request, info: unknown) => Response | Promise<Response>, _options?: unknown) {
  return Deno.serve((request, info) => handler(request, info))
}
`
const IMPORT_MAP = JSON.stringify({ imports: { 'https://deno.land/std/http/server.ts': './std_http_server.ts' } }, null, 2)

// test/relay/container.ts's runRelay and Relay, backed by the Stratum project (see the top of core-suites.mjs).
const RELAY_MODULE = String.raw`'use strict'
const http = require('node:http')
const crypto = require('node:crypto')
const UPSTREAM = new URL(process.env.STRATUM_RELAY_UPSTREAM)
const HOST = process.env.STRATUM_RELAY_HOST
const PROJECT_SECRET = process.env.STRATUM_RELAY_JWT_SECRET
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade', 'transfer-encoding', 'host'])
const hmac = (secret, text) => crypto.createHmac('sha256', secret).update(text).digest('base64url')

/** True when the token is an HS256 JWT signed with secret (what the deno-relay checks with its JWT_SECRET). */
function signedWith(token, secret) {
  const parts = token.split('.')
  if (parts.length !== 3) return false
  try {
    if (JSON.parse(Buffer.from(parts[0], 'base64url').toString()).alg !== 'HS256') return false
  } catch {
    return false
  }
  const expected = Buffer.from(hmac(secret, parts[0] + '.' + parts[1]))
  const given = Buffer.from(parts[2])
  return expected.length === given.length && crypto.timingSafeEqual(expected, given)
}

class Relay {
  constructor(server, id) {
    this.id = id
    this.server = server
    this.container = { getMappedPort: () => server.address().port, stop: () => this.stop() }
    this.execCache = Promise.resolve({ exitCode: 0, output: '' })
    this.execRun = Promise.resolve({ exitCode: 0, output: '' })
  }
  async stop() {
    await new Promise((resolve) => this.server.close(() => resolve()))
  }
}

async function runRelay(slug, jwtSecret, denoOrigin = 'http://localhost:8000', env) {
  if (env && env.size) console.warn('stratum relay: env for ' + slug + ' ignored: ' + [...env.keys()].join(', '))
  const server = http.createServer((req, res) => {
    const headers = {}
    for (const [name, value] of Object.entries(req.headers)) if (!HOP.has(name)) headers[name] = value
    // The deno-relay tells the function its origin through DENO_ORIGIN; Stratum builds the function's request.url from
    // Host, which a path-style project URL leaves free (host-style: STRATUM_RELAY_HOST routes to the project).
    headers.host = HOST || new URL(denoOrigin).host
    const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization || '')
    if (bearer && signedWith(bearer[1].trim(), jwtSecret)) {
      const [h, p] = bearer[1].trim().split('.')
      headers.authorization = 'Bearer ' + h + '.' + p + '.' + hmac(PROJECT_SECRET, h + '.' + p)
    }
    const upstream = http.request(
      { host: UPSTREAM.hostname, port: UPSTREAM.port, method: req.method, path: UPSTREAM.pathname.replace(/\/$/, '') + req.url, headers },
      (answer) => {
        const out = {}
        for (const [name, value] of Object.entries(answer.headers)) if (!HOP.has(name)) out[name] = value
        res.writeHead(answer.statusCode || 502, out)
        answer.pipe(res)
      },
    )
    upstream.on('upgrade', (answer, socket) => {
      res.writeHead(answer.statusCode || 101, answer.headers)
      res.end()
      socket.destroy()
    })
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ message: 'stratum relay: ' + error.message }))
    })
    req.pipe(upstream)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const relay = new Relay(server, crypto.randomBytes(3).toString('hex'))
  // As container.ts: wait until the function answers a signed health check (its first start happens here).
  const check = 'Bearer ' + (() => {
    const part = (v) => Buffer.from(JSON.stringify(v)).toString('base64url')
    const signed = part({ alg: 'HS256', typ: 'JWT' }) + '.' + part({ name: 'check', iat: Math.floor(Date.now() / 1000) })
    return signed + '.' + hmac(jwtSecret, signed)
  })()
  let last = 'no answer'
  for (let i = 0; i < 60; i++) {
    try {
      const answer = await fetch('http://127.0.0.1:' + server.address().port + '/' + slug, { method: 'POST', headers: { Authorization: check } })
      const body = await answer.text().catch(() => '')
      if (answer.ok || answer.status === 101) return relay
      last = answer.status + ' ' + body.slice(0, 1000)
    } catch (error) {
      if (error instanceof TypeError) return relay
      last = String(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  await relay.stop()
  // container.ts's own words, with what the project answered to the health check.
  throw new Error("function haven'start correctly (Stratum answered the health check: " + last + ')')
}

module.exports = { Relay, runRelay }
`

async function denoLandReachable() {
  try {
    await dns.lookup('deno.land')
    const answer = await fetch('https://deno.land/std/http/server.ts', { signal: AbortSignal.timeout(8000), redirect: 'manual' })
    return answer.status < 500
  } catch {
    return false
  }
}

async function runFunctions(call, platform, suite) {
  const { ref } = await prepareCliProject(call, 'functions-js suite')
  const project = { ref, ...(await projectKeys(call, ref)) }
  const pkg = path.join(suite.tree, PKG('functions'))
  const mapImports = !(await denoLandReachable())
  step(`deploy test/functions/* (verify_jwt on)${mapImports ? '; deno.land unreachable: std/http/server.ts mapped to a local serve() on Deno.serve' : ''}`)
  for (const slug of fs.readdirSync(path.join(pkg, 'test/functions'))) {
    const form = new FormData()
    form.append('metadata', JSON.stringify({ name: slug, entrypoint_path: 'index.ts', verify_jwt: true, ...(mapImports ? { import_map_path: 'import_map.json' } : {}) }))
    form.append('file', new Blob([fs.readFileSync(path.join(pkg, 'test/functions', slug, 'index.ts'))]), 'index.ts')
    if (mapImports) {
      form.append('file', new Blob([STD_SERVE_SHIM]), 'std_http_server.ts')
      form.append('file', new Blob([IMPORT_MAP]), 'import_map.json')
    }
    const answer = await fetch(`${platform.url}/v1/projects/${ref}/functions/deploy?slug=${slug}`, {
      method: 'POST', headers: { authorization: `Bearer ${platform.token}` }, body: form,
    })
    if (!answer.ok) throw new Error(`deploy ${slug}: ${answer.status} ${(await answer.text()).slice(0, 300)}`)
    console.log(`  deployed ${slug}`)
  }
  const relayPath = path.join(WORK, 'stratum-relay.cjs')
  fs.writeFileSync(relayPath, RELAY_MODULE)
  // The package's config with the relay module mapped (ts: jest loads the package's jest.config.ts with ts-node).
  fs.writeFileSync(path.join(pkg, 'jest.stratum.config.ts'), [
    "// Written by tools/client-suites/core-suites.mjs: the package's config, with test/relay/container.ts served by Stratum.",
    "const base = require('./jest.config.ts')",
    `module.exports = { ...base, moduleNameMapper: { '^\\\\.\\\\./relay/container$': ${JSON.stringify(relayPath)} } }`,
    '',
  ].join('\n'))
  const pathStyle = project.projectUrl.pathname.startsWith('/projects/')
  const listener = process.env.STRATUM_PROJECT_LISTENER ? `http://${process.env.STRATUM_PROJECT_LISTENER}` : project.projectUrl.origin
  const upstream = `${listener}${pathStyle ? project.projectUrl.pathname.replace(/\/$/, '') : ''}/functions/v1`
  return [await jest(suite, 'functions', ['--config', 'jest.stratum.config.ts'], {
    STRATUM_RELAY_UPSTREAM: upstream, STRATUM_RELAY_JWT_SECRET: CLI_JWT_SECRET, ...(pathStyle ? {} : { STRATUM_RELAY_HOST: project.projectUrl.host }),
  })]
}

// ---------------------------------------------------------------- main
const suite = prepareTree()
if (flags.has('--prepare-only')) process.exit(0)
const results = []
let platform = null
try {
  platform = flags.has('--start-platform')
    ? await startPlatform(STRATUM_ROOT)
    : { url: process.env.STRATUM_URL ?? 'http://127.0.0.1:8000', token: process.env.STRATUM_TOKEN, stop: async () => {} }
  if (!platform.token) throw new Error('STRATUM_TOKEN (a personal access token) is required without --start-platform')
  const call = api(platform)
  for (const name of SUITES) {
    try {
      if (name === 'postgrest') results.push(...(await runPostgrest(call, suite)))
      if (name === 'auth') results.push(...(await runAuth(call, suite)))
      if (name === 'storage') results.push(...(await runStorage(call, suite)))
      if (name === 'functions') results.push(...(await runFunctions(call, platform, suite)))
    } catch (error) {
      console.error(error)
      results.push({ label: name, code: 1, error: String(error?.message ?? error) })
    }
  }
} catch (error) {
  console.error(error)
  results.push({ label: 'platform', code: 1, error: String(error?.message ?? error) })
} finally {
  if (!flags.has('--keep')) await platform?.stop?.()
}

const lines = [`# core suites ${suite.commit.slice(0, 10)} (${suite.tag}), node ${spawnSync(NODE, ['-v'], { encoding: 'utf8' }).stdout.trim()}, ${new Date().toISOString()}`, '']
step(`results (suite ${suite.commit.slice(0, 10)}, ${suite.tag})`)
for (const r of results) {
  if (r.error) {
    console.log(`${r.label}: ERROR ${r.error}`)
    lines.push(`## ${r.label}: ERROR ${r.error}`, '')
    continue
  }
  const summary = `${r.label}: passed ${r.passed}, failed ${r.failed}, skipped ${r.skipped} of ${r.total}${r.brokenFiles.length ? `; ${r.brokenFiles.length} file(s) failed to run` : ''}`
  console.log(summary)
  lines.push(`## ${summary}`, '')
  for (const f of r.brokenFiles) lines.push(`- ${f.file} (file did not run): ${f.error}`)
  for (const f of r.failures) lines.push(`- ${f.file} > ${f.name}: ${f.error}`)
  lines.push('')
}
const report = path.join(WORK, `failures-${SUITES.join('-')}.md`)
fs.mkdirSync(WORK, { recursive: true })
fs.writeFileSync(report, lines.join('\n'))
console.log(`failures: ${report}`)
process.exit(results.some((r) => r.error || r.failed || r.brokenFiles?.length) ? 1 : 0)
