/**
 * `tsx sql-editor-schema-browser.ts` (from bench/): typing latency in the SQL editor with the schema browser open, in a
 * project of 1,000 tables against one without any (issue 15 point 4; goal: unchanged, ratio ~ 1.0).
 *
 * 100 keys typed one at a time into Monaco, keydown to the painted frame showing the text (the probes of
 * sql-editor-browser.ts), the schema browser open beside the editor and listing the project's tables (public
 * expanded: its first rows drawn), completion answering from the same catalog. Rounds alternate between the two
 * projects on fresh pages, so that the machine's state falls on both alike. A third series, 1,000 tables with the
 * browser closed, tells the browser's share from completion's (which offers the 1,000 tables either way).
 */
import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test'
import { ensureDashboardBuilt, percentile, quiet, signedInBrowser, sleep } from './browser-helpers.js'
import { FRAME_TRACKER, TYPING_PROBE } from './browser-probes.js'
import { recordFigures, ratioOf } from './figures.js'
import { healthyProject, runSql, startBenchPlatform, type BenchPlatform } from './platform.js'

const PORT = 8797
const PORT_BASE = 29_400
const TABLES = 1_000
const ROUNDS = Number(process.env.SCHEMA_BROWSER_BENCH_ROUNDS ?? 3)
const KEY_INTERVAL_MS = 80
/** 100 characters without quotes or brackets (Monaco closes those itself and then types over them). */
const TYPED = 'select id, label from public.orders where weekday = 3 and bucket > 500 order by id desc limit 25 --x'

let platform: BenchPlatform
let context: BrowserContext
let browserCdp: CDPSession

const ms = (value: number) => `${value.toFixed(1)} ms`

/**
 * A fresh editor page on /sql, Monaco and the catalog ready; the schema browser open and listing the tables, or
 * closed (the browser remembers the choice per browser: set before the page loads).
 */
async function openEditor(ref: string, tables: number, browserOpen = true): Promise<Page> {
  const page = await context.newPage()
  await page.addInitScript(FRAME_TRACKER)
  await page.addInitScript(`localStorage.setItem('stratum.sql-editor.schema-browser', '${browserOpen ? 'open' : 'closed'}')`)
  // The catalog read (completion's and the browser's): a POST /query outside the history.
  const catalogRead = page.waitForResponse((r) => r.url().endsWith('/query') && r.request().method() === 'POST' && r.request().postDataJSON()?.history === false, {
    timeout: 60_000,
  })
  await page.goto(`/project/${ref}/sql`)
  await page.getByTestId('sql-editor').locator('.monaco-editor .view-lines').waitFor({ timeout: 60_000 })
  await catalogRead
  if (!browserOpen) return page
  const browser = page.getByRole('complementary', { name: 'Schema browser' })
  await browser.waitFor({ timeout: 30_000 })
  // The browser has read the catalog: public's count says how many tables it lists.
  const publicSchema = browser.getByRole('button', { name: /^public\s*\d+$/ })
  await publicSchema.waitFor({ timeout: 60_000 })
  const count = Number((await publicSchema.innerText()).replace(/\D+/g, ''))
  if (count !== tables) throw new Error(`the schema browser lists ${count} relations in public, expected ${tables}`)
  return page
}

interface TypingRun {
  painted: number[]
  dom: number[]
  rowsDrawn: number
}

async function typingRun(ref: string, tables: number, browserOpen = true): Promise<TypingRun> {
  const page = await openEditor(ref, tables, browserOpen)
  const rowsDrawn = await page.locator('.schema-browser-row').count()
  // /sql reopens the query typed in the round before: emptied first, and its save over before measuring.
  await page.getByTestId('sql-editor').locator('.view-lines').click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Delete')
  await page.locator('[data-save-state]').filter({ hasText: /^(Saved|New query: saved once you type)$/ }).waitFor({ timeout: 30_000 })
  await quiet(browserCdp)
  await page.evaluate(`(${TYPING_PROBE})()`)
  for (const char of TYPED) {
    await page.keyboard.type(char)
    await sleep(KEY_INTERVAL_MS)
  }
  await page.waitForTimeout(500)
  const s = (await page.evaluate('window.__typeBench')) as { painted: number[]; dom: number[] }
  const text = (await page.evaluate(`document.querySelector('[data-testid="sql-editor"] .view-lines').innerText`)) as string
  if (text.replace(/\s+/g, ' ').trim() !== TYPED.replace(/\s+/g, ' ').trim()) throw new Error(`the editor reads '${text}' after typing`)
  if (s.painted.length < TYPED.length * 0.9) throw new Error(`only ${s.painted.length} of ${TYPED.length} keys were seen rendered`)
  await page.close()
  return { ...s, rowsDrawn }
}

function report(none: TypingRun[], many: TypingRun[], closed: TypingRun[]): void {
  const all = (set: TypingRun[], key: 'painted' | 'dom') => set.flatMap((run) => run[key])
  const [p50a, p95a, p50b, p95b] = [percentile(all(none, 'painted'), 50), percentile(all(none, 'painted'), 95), percentile(all(many, 'painted'), 50), percentile(all(many, 'painted'), 95)]
  console.log('\nStratum benchmarks (this machine, this session): typing in the SQL editor with the schema browser open')
  console.log(`typing latency (${TYPED.length} keys x ${ROUNDS} rounds, keydown -> text painted), ${TABLES.toLocaleString('en-US')} tables: median ${ms(p50b)}, p95 ${ms(p95b)}`)
  console.log(`  baseline without tables: median ${ms(p50a)}, p95 ${ms(p95a)}; ratio median = ${(p50b / p50a).toFixed(2)}, p95 = ${(p95b / p95a).toFixed(2)} (goal ~ 1.0)`)
  console.log(`  keydown -> DOM changed: median ${ms(percentile(all(many, 'dom'), 50))} vs ${ms(percentile(all(none, 'dom'), 50))} without`)
  console.log(`  per round median with: ${many.map((r) => percentile(r.painted, 50).toFixed(1)).join(', ')}; without: ${none.map((r) => percentile(r.painted, 50).toFixed(1)).join(', ')}`)
  const [p50c, p95c] = [percentile(all(closed, 'painted'), 50), percentile(all(closed, 'painted'), 95)]
  console.log(`  ${TABLES.toLocaleString('en-US')} tables with the schema browser closed (completion alone): median ${ms(p50c)}, p95 ${ms(p95c)}; browser open / closed: median ${(p50b / p50c).toFixed(2)}, p95 ${(p95b / p95c).toFixed(2)}`)
  console.log(`  schema browser rows drawn: ${many[0]!.rowsDrawn} with ${TABLES} tables (the rest behind 'Show all'), ${none[0]!.rowsDrawn} without`)

  const tables = TABLES.toLocaleString('en-US')
  const withoutTables = (p: number) => `the same typing in a project without tables ${ms(p)}`
  // "Unchanged" is not a threshold this run can judge (no tolerance was set): the ratio says it.
  recordFigures('sql-editor-schema-browser', [
    { name: `typing latency, schema browser open, ${tables} tables (p50)`, now: ms(p50b), floor: withoutTables(p50a), ratio: ratioOf(p50b, p50a), goal: 'ratio ~ 1.0 (unchanged vs none)' },
    { name: `typing latency, schema browser open, ${tables} tables (p95)`, now: ms(p95b), floor: withoutTables(p95a), ratio: ratioOf(p95b, p95a), goal: 'ratio ~ 1.0 (unchanged vs none)' },
    {
      name: `typing latency, schema browser closed, ${tables} tables (completion alone, p50)`,
      now: `${ms(p50c)} (browser open / closed ${(p50b / p50c).toFixed(2)})`,
      floor: withoutTables(p50a),
      ratio: ratioOf(p50c, p50a),
      goal: "none set (tells the browser's share from completion's)",
    },
  ])
}

async function main() {
  ensureDashboardBuilt()
  platform = await startBenchPlatform(PORT, PORT_BASE)
  let browser: Browser | undefined
  try {
    const signedIn = await signedInBrowser(platform)
    browser = signedIn.browser
    browserCdp = signedIn.browserCdp
    context = signedIn.context

    const [noneRef, manyRef] = [await healthyProject(platform, 'bench-schema-none'), await healthyProject(platform, 'bench-schema-1000')]
    // 1,000 tables of 6 columns each (a primary key, text, numbers, a time), one statement.
    await runSql(platform, 
      manyRef,
      `do $$ begin for i in 1..${TABLES} loop
        execute format('create table public.%I (id bigint primary key, label text, weekday int, bucket int, amount numeric(10,2), created_at timestamptz default now())', 'table_' || lpad(i::text, 4, '0'));
      end loop; end $$`,
    )

    const none: TypingRun[] = []
    const many: TypingRun[] = []
    const closed: TypingRun[] = []
    for (let i = 0; i < ROUNDS; i++) {
      none.push(await typingRun(noneRef, 0))
      many.push(await typingRun(manyRef, TABLES))
      closed.push(await typingRun(manyRef, TABLES, false))
    }
    report(none, many, closed)
  } finally {
    await browser?.close()
    await platform.stop()
  }
}

await main()
