// The real platform for the end-to-end tests: a fresh data directory, real Postgres, the built dashboard.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

// The config names the directory so that tests can reach into it (e.g. to make an operation fail
// for real); otherwise a fresh temporary one.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-e2e-'))
fs.rmSync(dataDir, { recursive: true, force: true })
fs.mkdirSync(dataDir, { recursive: true })
fs.chmodSync(dataDir, 0o755)
process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }))

Object.assign(process.env, {
  STRATUM_DATA_DIR: dataDir,
  STRATUM_ADMIN_EMAIL: 'owner@example.com',
  STRATUM_ADMIN_PASSWORD: 'owner-password-1',
  STRATUM_PLATFORM_DB_PORT: process.env.STRATUM_PLATFORM_DB_PORT ?? '31500',
  STRATUM_PROJECT_PORT_START: process.env.STRATUM_PROJECT_PORT_START ?? '31501',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'fatal',
  // Every spec signs in as the owner: more than the default 10 a minute from one address.
  STRATUM_LOGIN_RATE_LIMIT: '200',
})
process.argv = [process.argv[0], 'stratum', 'start']
await import('../apps/platform/bin/stratum.mjs')
