import os from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { freePortBlock } from './free-ports'

// Ports asked of the machine, not fixed (another run or service may hold any fixed one). Chosen once, in the
// main process: workers re-read this file and inherit the environment set here, so they see the same ports.
if (!process.env.E2E_PORT) {
  const block = freePortBlock(100)
  process.env.E2E_PORT = String(block)
  // block + 1: the project listener (the platform's default, PORT + 1).
  process.env.STRATUM_PLATFORM_DB_PORT ??= String(block + 2)
  process.env.STRATUM_PROJECT_PORT_START ??= String(block + 3)
}
const port = Number(process.env.E2E_PORT)
// The platform's data directory, known to the tests (workers re-read this file: keep it stable).
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `stratum-e2e-${port}`)

/**
 * Real browser (Debian's Chromium), real server, real Postgres. Playwright cannot download its own
 * browsers here, so it drives the system Chromium (CHROMIUM_PATH on other machines).
 */
export default defineConfig({
  testDir: './tests',
  // Tests tagged @soak (volumes, the longest lifecycle paths) run in `npm run test:soak`, not in `npm test`.
  grepInvert: process.env.STRATUM_SOAK ? undefined : /@soak/,
  timeout: 60_000,
  // Waits, not durations: a busy 2-core machine (CI runs everything on one) needs more than Playwright's 5 s.
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // One worker: on these 2-core machines two (measured: 60 tests in 12.7 min against 57 in 12 min for one) only
  // share the same CPU, and files that change what every other spec sees (the installation's AI provider, the first
  // organization's pending invitations) would need to run alone anyway.
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Recording a trace for every test costs about 30% of the run (measured: 10 tests in 123 s against 87 s), kept
    // or not: off by default, `STRATUM_E2E_TRACE=retain-on-failure` to record one. A failure still leaves its
    // screenshot and the page's accessibility snapshot (error-context.md) in test-results.
    trace: process.env.STRATUM_E2E_TRACE === 'retain-on-failure' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: {
    command: 'node server.mjs',
    url: `http://127.0.0.1:${port}/api/health`,
    env: {
      PORT: String(port),
      E2E_DATA_DIR: process.env.E2E_DATA_DIR,
      STRATUM_PLATFORM_DB_PORT: process.env.STRATUM_PLATFORM_DB_PORT ?? '',
      STRATUM_PROJECT_PORT_START: process.env.STRATUM_PROJECT_PORT_START ?? '',
    },
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
  },
})
