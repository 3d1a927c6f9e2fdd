import { CONTENT_TEXTS } from '@stratum/contracts'
import { FUNCTION_CALL_WARNING, RUN_CONFIRMATION_QUESTION, WRITE_OPERATION_WARNING } from '@stratum/sql'
import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { healthyProject, replaceEditorText, signIn } from './helpers'

function typeSql(page: Page, sql: string) {
  return replaceEditorText(page.getByTestId('sql-editor').locator('.monaco-editor'), sql)
}

const editorText = (page: Page) => page.getByTestId('sql-editor').locator('.view-lines')

test('the SQL editor creates a query, runs it, gates writes and shows errors; the query survives a reload', async ({ page }) => {
  // About 31 s on a machine like CI's: room for one twice as slow.
  test.setTimeout(120_000)
  await signIn(page)
  const project = await healthyProject(page, 'SQL editor')
  await page.goto(`/project/${project.ref}/sql`)
  // A new query is a draft at /sql: stored, and the URL moved to it, once something is typed.
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/sql$`))
  await expect(page.getByRole('heading', { name: CONTENT_TEXTS.defaultSnippetName })).toBeVisible()
  await expect(page.getByLabel('Row limit').locator('option')).toHaveText(['No limit', 'Limit 100', 'Limit 500', 'Limit 1,000'])

  // A select runs straight away (Ctrl+Enter) and shows its rows.
  await typeSql(page, "select 1 as one, 'hello-grid' as greeting")
  await page.keyboard.press('ControlOrMeta+Enter')
  const grid = page.getByRole('grid', { name: 'Query results' })
  await expect(grid.getByRole('gridcell', { name: 'hello-grid' })).toBeVisible()
  await expect(grid.getByRole('columnheader', { name: 'greeting' })).toBeVisible()

  // The cell viewer.
  await grid.getByRole('gridcell', { name: 'hello-grid' }).dblclick()
  await expect(page.getByRole('dialog', { name: 'Viewing cell details on column: greeting' })).toBeVisible()
  await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click()

  // Saved after the debounce, and there after a reload.
  await expect(page.locator('[data-save-state]')).toHaveText('Saved')
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/sql/[0-9a-f-]{36}$`))
  const url = page.url()
  await page.reload()
  await expect(page).toHaveURL(url)
  await expect(editorText(page)).toContainText('hello-grid')

  // CREATE TABLE: the warning gate; confirmed there, it runs with the full connection (one confirmation).
  const table = `e2e_items_${Date.now()}`
  await typeSql(page, `create table ${table} (id int primary key, name text);`)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  const gate = page.getByRole('dialog', { name: 'Potential issue detected with your query' })
  await expect(gate).toContainText(`${WRITE_OPERATION_WARNING} ${RUN_CONFIRMATION_QUESTION}`)
  await gate.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByText('Success. No rows returned')).toBeVisible()
  const write = page.getByRole('dialog', { name: 'Run this query with write access?' })
  await expect(write).toHaveCount(0)

  // A destructive statement shows its own, stronger gate; Cancel does not run it.
  const destructive = page.getByRole('dialog', { name: 'This query permanently removes or changes data' })
  await typeSql(page, `drop table ${table};`)
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(destructive).toContainText(WRITE_OPERATION_WARNING)
  await expect(destructive).toContainText(`DROP TABLE on ${table}`)
  await destructive.getByRole('button', { name: 'Cancel' }).click()
  await expect(destructive).toBeHidden()

  // A function call outside the allowed list is gated too.
  await typeSql(page, 'select pg_sleep(0)')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(gate).toContainText(FUNCTION_CALL_WARNING)
  await gate.getByRole('button', { name: 'Cancel' }).click()

  // The table is still there: two statements give two result tabs (and Messages).
  await typeSql(page, `insert into ${table} values (1, 'one');\nselect * from ${table};`)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await gate.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('tab')).toHaveCount(3)
  await expect(page.getByRole('tab', { selected: true })).toHaveText('2. SELECT')
  await expect(grid.getByRole('gridcell', { name: 'one', exact: true })).toBeVisible()

  // An SQL error: 'ERROR: ...' and the position marked in the editor.
  await typeSql(page, 'select * from no_such_table_here')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(page.getByRole('alert').filter({ hasText: 'ERROR: relation "no_such_table_here" does not exist' })).toBeVisible()
  await expect(page.getByTestId('sql-editor').locator('.squiggly-error')).toHaveCount(1)
})

test('folders: a new folder starts in editing, saves, and a duplicate name removes it with the spec text', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'SQL editor')
  await page.goto(`/project/${project.ref}/sql`)
  // A query of the user's own to move later: typing stores the draft.
  await typeSql(page, 'select 1')
  await expect(page).toHaveURL(/\/sql\/[0-9a-f-]{36}$/)
  const explorer = page.getByRole('navigation', { name: 'Queries' })
  const name = `Reports ${Date.now()}`

  await explorer.getByRole('button', { name: 'New folder' }).click()
  await explorer.getByLabel('Folder name').fill(name)
  await explorer.getByLabel('Folder name').press('Enter')
  await expect(page.getByText('Successfully created folder')).toBeVisible()
  await expect(explorer.getByRole('button', { name, exact: true })).toBeVisible()

  await explorer.getByRole('button', { name: 'New folder' }).click()
  await explorer.getByLabel('Folder name').fill(name)
  await explorer.getByLabel('Folder name').press('Enter')
  await expect(page.getByText('Unable to create new folder: This folder name already exists')).toBeVisible()
  await expect(explorer.getByLabel('Folder name')).toHaveCount(0)
  await expect(explorer.getByRole('button', { name, exact: true })).toHaveCount(1)

  // Move the current (private) query into the folder.
  const current = explorer.locator('.explorer-link.active')
  const queryName = (await current.innerText()).trim()
  await explorer.getByRole('button', { name: `Actions for ${queryName}` }).first().click()
  await page.getByRole('menuitem', { name: 'Move query' }).click()
  await page.getByRole('dialog').getByLabel('Folder').selectOption({ label: name })
  await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click()
  await expect(page.getByText('Query moved')).toBeVisible()
})

