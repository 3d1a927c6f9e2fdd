import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { healthyProject, replaceEditorText, signIn } from './helpers'

/**
 * Issue 15 point 5: the whole result exported by the server (not only the rows the editor loaded),
 * and copying a range of cells from the results grid.
 */
test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

async function shot(page: Page, name: string) {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/sql-export-${name}.png` })
}

const editor = (page: Page) => page.getByTestId('sql-editor')
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())
const md5 = (text: string) => createHash('md5').update(text).digest('hex')

function typeSql(page: Page, sql: string) {
  return replaceEditorText(editor(page).locator('.monaco-editor'), sql)
}

/** Runs the editor's SQL, confirming the warning gate (these queries call functions). */
async function run(page: Page) {
  await page.keyboard.press('ControlOrMeta+Enter')
  const gate = page.getByRole('dialog', { name: 'Potential issue detected with your query' })
  await gate.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(gate).toBeHidden()
  await expect(page.getByText('Running…')).toHaveCount(0)
}

/** A cell of the grid: `row` counts data rows from 1; `column` counts the grid's columns from 1 (the row number is 1). */
const cell = (page: Page, row: number, column: number) =>
  page.getByRole('grid', { name: 'Query results' }).locator(`[role="row"][aria-rowindex="${row + 1}"] > [role="gridcell"][aria-colindex="${column}"]`)

const BIG = 'select g as id, md5(g::text) as hash from generate_series(1,200000) g'

test('full export of a 200k-row result as CSV and JSON, streamed by the server', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page)
  const project = await healthyProject(page, 'SQL export')
  await page.goto(`/project/${project.ref}/sql`)
  await typeSql(page, BIG)
  await run(page)
  const grid = page.getByRole('grid', { name: 'Query results' })
  await expect(grid.getByRole('columnheader', { name: /^id/ })).toBeVisible()
  // The editor loads the first 100 rows; the export has them all.
  await expect(page.getByText('limited to 100 rows')).toBeVisible()

  await page.getByRole('button', { name: 'Export' }).click()
  await expect(page.getByRole('menuitem', { name: 'Export all rows as CSV' })).toBeVisible()
  await expect(page.getByText('The 100 rows shown here')).toBeVisible()
  await shot(page, 'menu')
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Export all rows as CSV' }).click()])
  expect(csvDownload.suggestedFilename()).toMatch(/\.csv$/)
  const csv = (await readFile((await csvDownload.path())!, 'utf8')).trimEnd().split('\n')
  expect(csv[0]).toBe('id,hash')
  expect(csv.length - 1).toBe(200_000)
  expect(csv[1]).toBe(`1,${md5('1')}`)
  expect(csv.at(-1)).toBe(`200000,${md5('200000')}`)

  await page.getByRole('button', { name: 'Export' }).click()
  const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Export all rows as JSON' }).click()])
  expect(jsonDownload.suggestedFilename()).toMatch(/\.json$/)
  const json = JSON.parse(await readFile((await jsonDownload.path())!, 'utf8')) as Array<{ id: number; hash: string }>
  expect(json).toHaveLength(200_000)
  expect(json[0]).toEqual({ id: 1, hash: md5('1') })
  expect(json.at(-1)).toEqual({ id: 200_000, hash: md5('200000') })

  // The editor loaded 100 rows without trouble; the whole result fails at row 150, before the file
  // starts: the export says why, with Postgres's message, and nothing is downloaded.
  await typeSql(page, 'select 1 / (g - 150) as x from generate_series(1, 200) g')
  await run(page)
  await expect(page.getByText('limited to 100 rows')).toBeVisible()
  await expect(cell(page, 1, 2)).toHaveText('0')
  let downloads = 0
  page.on('download', () => downloads++)
  await page.getByRole('button', { name: 'Export' }).click()
  await page.getByRole('menuitem', { name: 'Export all rows as CSV' }).click()
  await expect(page.getByText('Failed to export results: division by zero')).toBeVisible()
  expect(downloads).toBe(0)
})

test('a range of cells is selected with the mouse or the keyboard and copied as TSV, CSV or JSON', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'SQL export')
  await page.goto(`/project/${project.ref}/sql`)
  await typeSql(page, BIG)
  await run(page)
  await expect(cell(page, 1, 2)).toHaveText('1')

  // Drag from row 1's id to row 3's hash.
  await cell(page, 1, 2).hover()
  await page.mouse.down()
  await cell(page, 2, 3).hover()
  await cell(page, 3, 3).hover()
  await page.mouse.up()
  await expect(page.getByText('3 × 2 cells selected')).toBeVisible()
  await shot(page, 'range')
  await page.keyboard.press('ControlOrMeta+C')
  await expect.poll(() => clipboard(page)).toBe(`1\t${md5('1')}\n2\t${md5('2')}\n3\t${md5('3')}`)

  // Shift+click extends from where the selection started; Shift+arrows move its far corner.
  await cell(page, 2, 2).click()
  await cell(page, 4, 2).click({ modifiers: ['Shift'] })
  await expect(page.getByText('3 × 1 cells selected')).toBeVisible()
  await page.keyboard.press('Shift+ArrowRight')
  await page.keyboard.press('Shift+ArrowDown')
  await expect(page.getByText('4 × 2 cells selected')).toBeVisible()
  await page.keyboard.press('ControlOrMeta+C')
  await expect.poll(() => clipboard(page)).toBe([2, 3, 4, 5].map((n) => `${n}\t${md5(String(n))}`).join('\n'))

  // The same range as CSV (with a header) and as JSON.
  await page.getByRole('button', { name: 'Copy cells' }).click()
  await page.getByRole('menuitem', { name: 'Copy as CSV' }).click()
  await expect.poll(() => clipboard(page)).toBe(['id,hash', ...[2, 3, 4, 5].map((n) => `${n},${md5(String(n))}`)].join('\r\n'))
  await page.getByRole('button', { name: 'Copy cells' }).click()
  await page.getByRole('menuitem', { name: 'Copy as JSON' }).click()
  await expect.poll(async () => JSON.parse(await clipboard(page))).toEqual([2, 3, 4, 5].map((n) => ({ id: n, hash: md5(String(n)) })))

  // A click on a row number selects the row.
  await cell(page, 7, 1).click()
  await expect(page.getByText('1 × 2 cells selected')).toBeVisible()
  await page.keyboard.press('ControlOrMeta+C')
  await expect.poll(() => clipboard(page)).toBe(`7\t${md5('7')}`)
  // A plain click is one cell again, copied as before.
  await cell(page, 9, 3).click()
  await expect(page.getByText(/cells selected/)).toHaveCount(0)
  await page.keyboard.press('ControlOrMeta+C')
  await expect.poll(() => clipboard(page)).toBe(md5('9'))
})
