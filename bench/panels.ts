/**
 * Bench: what the top bar opens, from the click to the thing shown, in Chromium: the AI assistant panel, the SQL
 * editor panel and the API docs drawer. Each loads its code on first use (lib/lazyComponent.tsx), so each sample is
 * a fresh browser context (cold cache) on the project's home page, quiet before the click.
 *
 * Floor, in the same tab: from the click to the last script the click requested having arrived (resource timing),
 * i.e. the panel's own code fetched. What the ratio adds on top is rendering, and any hold: React's Suspense
 * boundaries hold content back for up to 300 ms after their fallback showed, which made all three 326-338 ms before
 * lazyComponent stopped using them.
 *
 * Run: `npx tsx panels.ts` (bench/); recorded for bench/README.md.
 */
import { chromium, type Browser } from '@playwright/test'
import { CHROMIUM_ARGS, ensureDashboardBuilt, sleep } from './browser-helpers.js'
import { recordFigures, ratioOf, type Figure } from './figures.js'
import { EMAIL, PASSWORD, healthyProject, median, startBenchPlatform } from './platform.js'

const PORT = 8803
const PORT_BLOCK = 32_000
const RUNS = Number(process.env.PANELS_BENCH_RUNS ?? 7)

interface Opener {
  name: string
  /** The top bar button's accessible name. */
  button: string
  /** Present once the thing is shown with its content. */
  shown: string
}

const OPENERS: Opener[] = [
  { name: 'AI assistant panel', button: 'Toggle AI assistant', shown: '[data-testid="assistant-panel"]' },
  { name: 'SQL editor panel', button: 'Toggle editor panel', shown: '.sql-panel-toolbar' },
  { name: 'API docs drawer', button: 'API Docs', shown: '[role="dialog"] h2' },
]

/**
 * Clicks the button and resolves when the selector matches, checked every frame; `code` is when the last script
 * requested after the click arrived (0 when it needed none). A string, so that no bundler helper leaks into the page.
 */
const CLICK_PROBE = `({ button, shown }) => new Promise((resolve) => {
  const clicked = performance.now()
  ;[...document.querySelectorAll('button')].find((element) => element.textContent === button).click()
  const check = () => {
    if (!document.querySelector(shown)) return requestAnimationFrame(check)
    const at = performance.now()
    const scripts = performance.getEntriesByType('resource').filter((entry) => entry.initiatorType === 'script' || entry.name.endsWith('.js'))
    const after = scripts.filter((entry) => entry.startTime >= clicked)
    resolve({ shown: at - clicked, code: after.length ? Math.max(...after.map((entry) => entry.responseEnd)) - clicked : 0 })
  }
  check()
})`

async function sample(browser: Browser, base: string, storageState: any, ref: string, opener: Opener): Promise<{ shown: number; code: number }> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 }, storageState })
  try {
    const page = await context.newPage()
    await page.goto(`/project/${ref}`)
    await page.getByRole('button', { name: opener.button, exact: true }).waitFor()
    await page.getByText('Project API').waitFor()
    // Let the page's own requests settle, so that the click's work is all that runs.
    await page.waitForLoadState('networkidle')
    await sleep(300)
    return (await page.evaluate(`(${CLICK_PROBE})(${JSON.stringify({ button: opener.button, shown: opener.shown })})`)) as { shown: number; code: number }
  } finally {
    await context.close()
  }
}

async function main() {
  ensureDashboardBuilt()
  const platform = await startBenchPlatform(PORT, PORT_BLOCK)
  let browser: Browser | undefined
  try {
    const ref = await healthyProject(platform, 'bench-panels')
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
    const signIn = await browser.newContext({ baseURL: platform.base })
    const login = await signIn.request.post('/api/auth/login', { data: { email: EMAIL, password: PASSWORD }, headers: { origin: platform.base } })
    if (!login.ok()) throw new Error(`sign-in failed: ${login.status()} ${await login.text()}`)
    const session = await signIn.storageState()
    await signIn.close()

    console.log(`Top bar openers, click to shown, a fresh context (cold cache) each time, median of ${RUNS}:`)
    const figures: Figure[] = []
    for (const opener of OPENERS) {
      const samples: Array<{ shown: number; code: number }> = []
      for (let i = 0; i < RUNS; i++) samples.push(await sample(browser, platform.base, session, ref, opener))
      const shown = median(samples.map((s) => s.shown))
      const code = median(samples.map((s) => s.code))
      console.log(`  ${opener.name.padEnd(20)} shown ${shown.toFixed(0)} ms (${samples.map((s) => s.shown.toFixed(0)).join(', ')}); its code arrived ${code.toFixed(0)} ms`)
      figures.push({
        name: `${opener.name} opened from the top bar, first time in a tab (median)`,
        now: `${shown.toFixed(0)} ms`,
        floor: `its code (the scripts the click requested) arrived ${code.toFixed(0)} ms`,
        ratio: code > 0 ? ratioOf(shown, code) : undefined,
        goal: 'none set (326-338 ms with React.lazy)',
      })
    }
    recordFigures('panels', figures)
  } finally {
    await browser?.close()
    await platform.stop()
  }
}

await main()
