import { readFile } from 'node:fs/promises'
import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, EDITOR_LOAD, healthyProject, replaceEditorText, signIn } from './helpers'

function typeSql(page: Page, sql: string) {
  return replaceEditorText(page.getByTestId('sql-editor').locator('.monaco-editor'), sql)
}

async function openEditor(page: Page, ref: string, search = '') {
  await page.goto(`/project/${ref}/sql${search}`)
  // A draft (stored once typed into), or the query open last.
  await expect(page).toHaveURL(new RegExp(`/project/${ref}/sql(/[0-9a-f-]{36})?(\\?|$)`))
  await expect(page.getByTestId('sql-editor').locator('.monaco-editor')).toBeVisible(EDITOR_LOAD)
}

test('completion offers the project tables and, after a dot, their columns', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'SQL editor extras')
  const table = `sx_complete_${Date.now()}`
  await apiCall(page, 'POST', `/platform/pg-meta/${project.ref}/query`, { query: `create table ${table} (id int primary key, sx_label_text text)`, read_only: false })
  await openEditor(page, project.ref)

  const suggest = page.getByTestId('sql-editor').locator('.suggest-widget')
  await typeSql(page, 'select * from sx_complete_')
  await page.keyboard.press('Control+Space')
  await expect(suggest).toBeVisible()
  await expect(suggest).toContainText(table)

  await page.keyboard.press('Escape')
  await typeSql(page, `select ${table}.`)
  await expect(suggest).toBeVisible()
  await expect(suggest).toContainText('sx_label_text')
  await page.keyboard.press('Escape')
})

test('the ongoing queries view lists a long query started from another page and cancels it', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'SQL editor extras')
  const seconds = (60 + Math.floor(Math.random() * 1000) / 1000).toFixed(3)
  const other = await page.context().newPage()
  await other.goto('/')
  // Not awaited: the query runs until cancelled.
  const longRun = other.evaluate(
    async ({ ref, query }) => {
      const response = await fetch(`/platform/pg-meta/${ref}/query`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, read_only: true }),
      })
      return { status: response.status, body: await response.text() }
    },
    { ref: project.ref, query: `select pg_sleep(${seconds})` },
  )

  await openEditor(page, project.ref, '?viewOngoingQueries=true')
  await expect(page).toHaveURL(/viewOngoingQueries=true/)
  const dialog = page.getByRole('dialog', { name: 'Ongoing queries' })
  await expect(dialog).toBeVisible()
  const row = dialog.getByRole('row').filter({ hasText: `pg_sleep(${seconds})` })
  await expect(row).toBeVisible({ timeout: 15_000 })
  await expect(dialog.getByRole('columnheader')).toHaveText(['PID', 'Query', 'Started', 'State', 'User', 'Actions'])
  await expect(row).toContainText('active')
  await row.getByRole('button', { name: /^Cancel query/ }).click()
  await expect(row).toHaveCount(0, { timeout: 15_000 })
  const result = await longRun
  expect(result.body).toContain('canceling statement due to user request')
  await other.close()

  // Closing drops the parameter; the toolbar opens it again.
  await dialog.getByRole('button', { name: 'Close dialog' }).click()
  await expect(page).not.toHaveURL(/viewOngoingQueries/)
  await page.getByRole('button', { name: 'Ongoing queries' }).click()
  await expect(page).toHaveURL(/viewOngoingQueries=true/)
  await expect(dialog).toBeVisible()
})

test('EXPLAIN and EXPLAIN ANALYZE show the plan tree', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'SQL editor extras')
  const table = `sx_explain_${Date.now()}`
  await apiCall(page, 'POST', `/platform/pg-meta/${project.ref}/query`, { query: `create table ${table} (id int, name text)`, read_only: false })
  await openEditor(page, project.ref)

  await typeSql(page, `select * from ${table} where name = 'x'`)
  await page.getByRole('button', { name: 'Explain', exact: true }).click()
  const plan = page.getByRole('region', { name: 'Query plan' })
  await expect(plan.getByTestId('plan-node').first()).toContainText('Seq Scan')
  await expect(plan).toContainText(`on ${table}`)
  await expect(plan).toContainText('est. rows')

  await typeSql(page, 'select count(*) from generate_series(1, 5) g')
  await page.getByRole('button', { name: 'Explain analyze' }).click()
  await expect(plan.getByTestId('plan-node').filter({ hasText: 'Function Scan' })).toContainText('actual rows 5')
  await expect(plan).toContainText('Execution')

  // ANALYZE executes the query: not offered for writes.
  await typeSql(page, `insert into ${table} values (1, 'a')`)
  await page.getByRole('button', { name: 'Explain analyze' }).click()
  await expect(page.getByText('EXPLAIN ANALYZE runs the query, so it is only offered for a single SELECT')).toBeVisible()

  // Running a query goes back to the results.
  await typeSql(page, 'select 1 as back')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(page.getByRole('grid', { name: 'Query results' }).getByRole('columnheader', { name: 'back' })).toBeVisible()
  await expect(plan).toHaveCount(0)
})

test('the results grid exports a Markdown table', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'SQL editor extras')
  await openEditor(page, project.ref)
  await typeSql(page, "select 1 as one, 'a|b' as two union all select 2, null")
  await page.keyboard.press('ControlOrMeta+Enter')
  const grid = page.getByRole('grid', { name: 'Query results' })
  await expect(grid.getByRole('gridcell', { name: 'a|b' })).toBeVisible()
  await page.getByRole('button', { name: 'Export' }).click()
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download Markdown' }).click()])
  expect(download.suggestedFilename()).toMatch(/\.md$/)
  const text = await readFile((await download.path())!, 'utf8')
  expect(text).toBe('| one | two |\n| --- | --- |\n| 1 | a\\|b |\n| 2 | NULL |\n')
})

test('earlier runs of a snippet stay viewable from the result history', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'SQL editor extras')
  await openEditor(page, project.ref)
  await typeSql(page, "select 'first run' as label")
  await page.keyboard.press('ControlOrMeta+Enter')
  const grid = page.getByRole('grid', { name: 'Query results' })
  await expect(grid.getByRole('gridcell', { name: 'first run' })).toBeVisible()
  await typeSql(page, "select 'second run' as label")
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(grid.getByRole('gridcell', { name: 'second run' })).toBeVisible()

  // Newest first: picking the older run shows its rows without running anything again.
  const history = page.getByLabel('Result history')
  await expect(history.locator('option')).toHaveCount(2)
  await expect(history.locator('option').first()).toContainText("#2")
  await history.selectOption({ index: 1 })
  await expect(grid.getByRole('gridcell', { name: 'first run' })).toBeVisible()
  await expect(grid.getByRole('gridcell', { name: 'second run' })).toHaveCount(0)

  // A new run shows itself again.
  await typeSql(page, "select 'third run' as label")
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(grid.getByRole('gridcell', { name: 'third run' })).toBeVisible()
  await expect(history.locator('option')).toHaveCount(3)
})
