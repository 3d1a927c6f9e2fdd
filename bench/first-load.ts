/**
 * First-load JavaScript per route: what a first visit (cold cache) downloads before the page's own
 * lazy feature chunks, as the platform sends it over the wire (compressed, with the encoding
 * Chromium asks for), measured in a real Chromium against a real platform. Budget: 250 KB a route,
 * both as sent and as a gzip-only client would receive it.
 *
 * Run by `npm run bench` (run.ts calls measureFirstLoad with its platform and project; a route over
 * budget fails the bench), or alone: `tsx first-load.ts` from bench/ (starts its own platform).
 * FIRST_LOAD_FILES=1 lists each route's files (they are listed anyway for a route over budget).
 *
 * Routes: sign-in, organizations, a project's home, the SQL editor, the table editor. The editor's Monaco chunks
 * (Monaco itself, its pgsql language, its worker) are its own lazy feature chunks: they are
 * reported beside the first load, not in it.
 */
import http from 'node:http'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { CHROMIUM_ARGS, ensureDashboardBuilt } from './browser-helpers.js'
import { startBenchPlatform, untilStatus, call, type BenchPlatform } from './platform.js'

export const FIRST_LOAD_BUDGET_BYTES = 250 * 1024
/** The account startBenchPlatform creates. */
const EMAIL = 'bench@example.com'
const PASSWORD = 'bench-password-1'
/** Monaco's chunks: the SQL editor imports them on demand once its page is shown. */
const MONACO_CHUNK = /\/assets\/(monaco|pgsql|editor\.worker)-[\w-]+\.js$/
/** The results grid's chunks (react-data-grid): loaded ahead while a page waits for rows to show (lib/lazyComponent.tsx). */
const GRID_CHUNK = /\/assets\/(ResultsGrid|RowsGrid|results-grid|styles)-[\w-]+\.(js|css)$/

interface Route {
  name: string
  path: (ref: string) => string
  signedIn: boolean
  /** Until the page shows what a user came for. */
  ready: (page: Page) => Promise<void>
  /** The page's own lazy feature chunks, reported apart from its first load. */
  featureChunk?: RegExp
}

const ROUTES: Route[] = [
  {
    name: 'sign-in',
    path: () => '/sign-in',
    signedIn: false,
    ready: (page) => page.getByRole('button', { name: 'Sign in' }).waitFor(),
  },
  {
    name: 'organizations',
    path: () => '/organizations',
    signedIn: true,
    ready: (page) => page.locator('.org-list a').first().waitFor(),
  },
  {
    name: 'project home',
    path: (ref) => `/project/${ref}`,
    signedIn: true,
    ready: (page) => page.getByTestId('postgres-version').waitFor(),
  },
  {
    name: 'SQL editor',
    path: (ref) => `/project/${ref}/sql`,
    signedIn: true,
    ready: (page) => page.getByTestId('sql-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: 60_000 }),
    featureChunk: new RegExp(`${MONACO_CHUNK.source}|${GRID_CHUNK.source}`),
  },
  {
    name: 'table editor',
    path: (ref) => `/project/${ref}/editor`,
    signedIn: true,
    ready: (page) => page.getByText('Select a table').waitFor(),
    // The grid's chunks, which the page loads ahead while the list of tables is shown (TableEditorPage.tsx).
    featureChunk: GRID_CHUNK,
  },
]

export interface FirstLoad {
  route: string
  /** Bytes of the first-load JS as the platform sent them to Chromium (its Content-Encoding). */
  sent: number
  /** The same files as a client that only accepts gzip receives them (the budget's unit). */
  gzip: number
  /** Uncompressed bytes of the same files (what the browser parses). */
  decoded: number
  /** How the largest file came (br, gzip, or none when sent uncompressed). */
  encoding: string
  /** Bytes sent for the page's own lazy feature chunks, which are not in the first load. */
  features: number
  /** The first load's files, largest first. */
  files: Array<{ path: string; sent: number; gzip: number }>
}

interface Script {
  url: string
  sent: number
  decoded: number
  encoding: string
}

/** One cold visit: a fresh context, so nothing comes from the HTTP cache. */
async function visit(browser: Browser, baseURL: string, storageState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined, route: Route, ref: string): Promise<Script[]> {
  const context = await browser.newContext({ baseURL, storageState, viewport: { width: 1440, height: 900 } })
  try {
    const page = await context.newPage()
    const measured: Array<Promise<Script>> = []
    page.on('response', (response) => {
      const url = response.url()
      if (!new URL(url).pathname.endsWith('.js')) return
      measured.push(
        (async () => {
          // sizes() waits for the body: responseBodySize is the body as it came over the wire.
          const [sizes, encoding, body] = await Promise.all([response.request().sizes(), response.headerValue('content-encoding'), response.body()])
          return { url, sent: sizes.responseBodySize, decoded: body.length, encoding: encoding ?? 'none' }
        })(),
      )
    })
    await page.goto(route.path(ref))
    await route.ready(page)
    await page.waitForLoadState('networkidle')
    return await Promise.all(measured)
  } finally {
    await context.close()
  }
}

/** Body bytes on the wire for a client that accepts gzip only (raw http: fetch would decode them). */
function gzipBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        let bytes = 0
        response.on('data', (chunk: Buffer) => (bytes += chunk.length))
        response.on('end', () => (response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url}: ${response.statusCode}`))))
        response.on('error', reject)
      })
      .on('error', reject)
  })
}

async function firstLoad(route: Route, scripts: Script[]): Promise<FirstLoad> {
  const own = scripts.filter((script) => !route.featureChunk?.test(script.url))
  const files = await Promise.all(own.map(async (script) => ({ path: new URL(script.url).pathname, sent: script.sent, gzip: await gzipBytes(script.url) })))
  files.sort((a, b) => b.sent - a.sent)
  const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0)
  const largest = own.reduce<Script | undefined>((max, script) => (!max || script.sent > max.sent ? script : max), undefined)
  return {
    route: route.name,
    sent: total(own.map((script) => script.sent)),
    gzip: total(files.map((file) => file.gzip)),
    decoded: total(own.map((script) => script.decoded)),
    encoding: largest?.encoding ?? 'none',
    features: total(scripts.map((script) => script.sent)) - total(own.map((script) => script.sent)),
    files,
  }
}

/** Every route's first load, each from a cold cache; `ref` is a healthy project. */
export async function measureFirstLoad(platform: BenchPlatform, ref: string): Promise<FirstLoad[]> {
  ensureDashboardBuilt()
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
  try {
    const signIn = await browser.newContext({ baseURL: platform.base })
    const login = await signIn.request.post('/api/auth/login', { data: { email: EMAIL, password: PASSWORD }, headers: { origin: platform.base } })
    if (!login.ok()) throw new Error(`sign-in failed: ${login.status()} ${await login.text()}`)
    const session = await signIn.storageState()
    await signIn.close()
    const results: FirstLoad[] = []
    for (const route of ROUTES) results.push(await firstLoad(route, await visit(browser, platform.base, route.signedIn ? session : undefined, route, ref)))
    return results
  } finally {
    await browser.close()
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/**
 * Prints one line per route; returns false when a route's first load is over budget, as sent or
 * as gzip (a server that sends files uncompressed fails, and so does a build that only fits
 * thanks to brotli).
 */
export function reportFirstLoad(results: FirstLoad[]): boolean {
  console.log(`first-load JS per route, cold cache, before the page's own lazy chunks (budget <= ${kb(FIRST_LOAD_BUDGET_BYTES)} as sent and as gzip):`)
  let withinBudget = true
  for (const result of results) {
    const over = Math.max(result.sent, result.gzip) > FIRST_LOAD_BUDGET_BYTES
    if (over) withinBudget = false
    const features = result.features ? `; then its own lazy chunks: ${kb(result.features)}` : ''
    console.log(
      `  ${result.route.padEnd(14)} ${kb(result.sent).padStart(9)} as sent (${result.encoding}), ${kb(result.gzip)} gzip, ${kb(result.decoded)} uncompressed, ${result.files.length} files${features}${over ? '  OVER BUDGET' : ''}`,
    )
    if (over || process.env.FIRST_LOAD_FILES) {
      for (const file of result.files) console.log(`    ${kb(file.sent).padStart(9)} sent, ${kb(file.gzip).padStart(9)} gzip  ${file.path}`)
    }
  }
  return withinBudget
}

async function main() {
  const platform = await startBenchPlatform(8797, 28_500)
  try {
    const project = await call(platform, 'POST', '/platform/projects', { name: 'bench-first-load', organization_slug: platform.slug, db_pass: 'bench-db-password' })
    if (!project.ref) throw new Error(`project create failed: ${JSON.stringify(project)}`)
    await untilStatus(platform, project.ref, 'ACTIVE_HEALTHY')
    const withinBudget = reportFirstLoad(await measureFirstLoad(platform, project.ref))
    if (!withinBudget) {
      console.error('A route loads more JavaScript before its own feature chunks than the budget allows.')
      process.exitCode = 1
    }
  } finally {
    await platform.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
