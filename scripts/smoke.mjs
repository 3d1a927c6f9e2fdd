// A user's first minutes, on whatever Node runs this script (CI runs it on Node 24, fetched from the npm registry
// by scripts/registry-node.sh): start the platform on a fresh data directory, make a token, create a project
// through the Management API, make a table and read it back through the project's REST URL.
// Usage: node scripts/smoke.mjs   (exits non-zero, saying which step failed)
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const BIN = path.join(root, 'apps/platform/bin/stratum.mjs')
const EMAIL = 'smoke@example.com'
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-smoke-'))

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

async function waitFor(what, check, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check().catch(() => undefined)
    if (value) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const [port, projectPort] = [await freePort(), await freePort()]
const env = {
  ...process.env,
  STRATUM_DATA_DIR: dataDir,
  STRATUM_TEMPLATE_DIR: path.join(dataDir, 'templates'),
  PORT: String(port),
  STRATUM_PROJECT_PORT: String(projectPort),
  STRATUM_ADMIN_EMAIL: EMAIL,
  STRATUM_ADMIN_PASSWORD: 'smoke-test-password-1',
  LOG_LEVEL: 'warn',
}
const platform = spawn(process.execPath, [BIN, 'start'], { env, stdio: ['ignore', 'inherit', 'inherit'] })
const exited = new Promise((resolve) => platform.on('exit', resolve))
const origin = `http://127.0.0.1:${port}`

try {
  console.log(`Smoke test on Node ${process.version}`)
  await waitFor('the platform to answer /api/health', async () => (await fetch(`${origin}/api/health`)).ok)
  const token = execFileSync(process.execPath, [BIN, 'token', 'create', '--email', EMAIL], { env, encoding: 'utf8' }).trim()
  const api = async (method, route, body) => {
    const response = await fetch(`${origin}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`)
    return text ? JSON.parse(text) : null
  }
  const [organization] = await api('GET', '/v1/organizations')
  const project = await api('POST', '/v1/projects', { name: 'smoke', organization_slug: organization.id, db_pass: 'smoke-database-password-1' })
  await waitFor('the project to be ACTIVE_HEALTHY', async () => (await api('GET', `/v1/projects/${project.id}`)).status === 'ACTIVE_HEALTHY')
  await api('POST', `/v1/projects/${project.id}/database/query`, {
    query: "create table public.todos (id int primary key, title text); insert into public.todos values (1, 'works');",
  })
  const keys = await api('GET', `/v1/projects/${project.id}/api-keys`)
  const anon = keys.find((key) => key.name === 'anon').api_key
  const rows = await waitFor('the table at the project URL', async () => {
    const response = await fetch(`http://127.0.0.1:${projectPort}/projects/${project.id}/rest/v1/todos?select=title`, { headers: { apikey: anon } })
    return response.ok ? response.json() : undefined
  })
  if (JSON.stringify(rows) !== '[{"title":"works"}]') throw new Error(`REST answered ${JSON.stringify(rows)}`)
  console.log('Smoke test passed: platform started, token made, project created, one REST call answered.')
} catch (error) {
  console.error(`Smoke test failed: ${error.message}`)
  process.exitCode = 1
} finally {
  platform.kill('SIGTERM')
  await exited
  fs.rmSync(dataDir, { recursive: true, force: true })
}
