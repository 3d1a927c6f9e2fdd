/** Chromium helpers for the browser benchmarks (sql-editor-browser.ts). */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test'
import { EMAIL, PASSWORD, type BenchPlatform } from './platform.js'

/** e2e/playwright.config.ts's: Debian's Chromium, no sandbox as root, no GPU. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']

const root = path.resolve(import.meta.dirname, '..')

export const sleep = (msecs: number) => new Promise((resolve) => setTimeout(resolve, msecs))

export const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!

/** The platform serves apps/dashboard/dist: built here when missing. */
export function ensureDashboardBuilt(): void {
  if (fs.existsSync(path.join(root, 'apps/dashboard/dist/index.html'))) return
  console.log('apps/dashboard/dist is missing: running `npm run build`...')
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
  if (built.status !== 0) throw new Error('The dashboard is not built and `npm run build` failed: the benchmark needs apps/dashboard/dist')
}

/** The page's JS heap (CDP JSHeapUsedSize), before and after a forced garbage collection. */
export async function heap(context: BrowserContext, page: Page): Promise<{ before: number; after: number }> {
  const cdp = await context.newCDPSession(page)
  await cdp.send('Performance.enable')
  const used = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize')!.value
  const before = await used()
  await cdp.send('HeapProfiler.enable')
  await cdp.send('HeapProfiler.collectGarbage')
  const after = await used()
  await cdp.detach()
  return { before, after }
}

/** CPU seconds used so far by Chromium's processes (browser, renderers, GPU, network...). */
export async function chromiumCpu(browserCdp: CDPSession): Promise<number> {
  const { processInfo } = await browserCdp.send('SystemInfo.getProcessInfo')
  return processInfo.reduce((sum, process) => sum + process.cpuTime, 0)
}

/** Until Chromium (one tab open) uses under 10% of a core over half a second: page load work done. */
export async function quiet(browserCdp: CDPSession): Promise<void> {
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    const before = await chromiumCpu(browserCdp)
    await sleep(500)
    if ((await chromiumCpu(browserCdp)) - before < 0.05) return
  }
}

/** Chromium with a context signed in to the bench platform as its administrator, and a CDP session for CPU figures. */
export async function signedInBrowser(platform: BenchPlatform): Promise<{ browser: Browser; browserCdp: CDPSession; context: BrowserContext }> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
  try {
    const browserCdp = await browser.newBrowserCDPSession()
    const context = await browser.newContext({ baseURL: platform.base, viewport: { width: 1440, height: 900 } })
    const login = await context.request.post('/api/auth/login', { data: { email: EMAIL, password: PASSWORD }, headers: { origin: platform.base } })
    if (!login.ok()) throw new Error(`sign-in failed: ${login.status()} ${await login.text()}`)
    return { browser, browserCdp, context }
  } catch (error) {
    await browser.close()
    throw error
  }
}
