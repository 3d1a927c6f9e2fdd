import { CONTENT_TEXTS } from '@stratum/contracts'
import { FUNCTION_CALL_WARNING, RUN_CONFIRMATION_QUESTION, SQL_PANEL_ROW_LIMIT_NOTICE, WRITE_OPERATION_WARNING } from '@stratum/sql'
import { type Locator, type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { SQL_TEMPLATES } from '../../apps/dashboard/src/features/sql-panel/templates'
import { apiCall, EDITOR_LOAD, healthyProject, memberByInvitation, signIn } from './helpers'

const modifier = process.platform === 'darwin' ? 'Meta' : 'Control'

const panelOf = (page: Page) => page.getByTestId('editor-panel')
const panelText = (panel: Locator) => panel.getByTestId('sql-panel-editor').locator('.view-lines')

/** Replaces the panel editor's text by typing (Monaco has no form value to fill). */
async function typeInPanel(page: Page, sql: string) {
  const editor = panelOf(page).getByTestId('sql-panel-editor').locator('.monaco-editor')
  await expect(editor).toBeVisible(EDITOR_LOAD)
  // Near the top left: the lines element of a long text reaches below the visible editor.
  await editor.click({ position: { x: 80, y: 12 } })
  // Keys go to the editor only once it has the focus (a busy machine may take a moment to give it).
  await expect(editor).toHaveClass(/(^|\s)focused(\s|$)/)
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Delete')
  await page.keyboard.insertText(sql)
}

async function openPanel(page: Page) {
  const panel = panelOf(page)
  // The shortcut listener comes with the project layout: a press during page load would be lost.
  await expect(page.getByRole('button', { name: 'Toggle editor panel' })).toBeVisible()
  // The press is repeated only when the panel is still absent after a long wait: a second press while a slow render
  // of the first is under way would close the panel again.
  await expect(async () => {
    if ((await panel.count()) === 0) await page.keyboard.press(`${modifier}+e`)
    await expect(panel).toBeVisible({ timeout: 10_000 })
  }).toPass()
  await expect(panel.getByTestId('sql-panel-editor').locator('.monaco-editor')).toBeVisible(EDITOR_LOAD)
  return panel
}

async function pickTemplate(page: Page, title: string) {
  await panelOf(page).getByRole('button', { name: 'Templates' }).click()
  await page.getByRole('menuitem', { name: new RegExp(`^${title}`) }).click()
}

/** Runs SQL on the project with the full connection, as the API does; returns the last statement's rows. */
async function query(page: Page, ref: string, sql: string): Promise<any[]> {
  const body = await apiCall(page, 'POST', `/platform/pg-meta/${ref}/query`, { query: sql, read_only: false })
  return body.results.at(-1)?.rows ?? []
}

test('the SQL editor panel: templates, the warning gate, 100 rows, empty results, errors, saving a snippet and the draft', async ({ page }) => {
  // About 35 s on a machine like CI's: room for one twice as slow.
  test.setTimeout(120_000)
  await signIn(page)
  const project = await healthyProject(page, 'SQL panel')
  await query(page, project.ref, 'drop table if exists public.todos cascade')
  await page.goto(`/project/${project.ref}`)
  await expect(page.getByTestId('project-status').first()).toBeVisible()
  const panel = await openPanel(page)
  const results = panel.getByRole('region', { name: 'Results' })
  await expect(results).toContainText('Pick a template or write SQL')
  // Empty SQL is not run: the button says so.
  await expect(panel.getByRole('button', { name: 'Run', exact: true })).toBeDisabled()

  // The table-with-RLS template: the gate asks first (the destructive one: it drops a policy); Cancel runs nothing.
  await pickTemplate(page, 'Create a table with RLS')
  await expect(panelText(panel)).toContainText('create table if not exists public.todos')
  await panel.getByRole('button', { name: 'Run', exact: true }).click()
  // The gate is the panel's own state, not a modal over the page (issue 33 item 12).
  const destructiveGate = panel.getByRole('alertdialog', { name: 'This query permanently removes or changes data' })
  await expect(destructiveGate).toContainText(`${WRITE_OPERATION_WARNING} ${RUN_CONFIRMATION_QUESTION}`)
  await expect(destructiveGate).toContainText('DROP POLICY on "Owners manage their own todos": removes it.')
  await destructiveGate.getByRole('button', { name: 'Cancel' }).click()
  await expect(destructiveGate).toBeHidden()
  await expect(results).toContainText('Pick a template or write SQL')
  expect(await query(page, project.ref, "select to_regclass('public.todos') as t")).toEqual([{ t: null }])

  // Run: confirmed once at the gate, it runs with the full connection (no second dialog); the table exists with RLS.
  await panel.getByRole('button', { name: 'Run', exact: true }).click()
  await destructiveGate.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByRole('alertdialog', { name: 'Run this query with write access?' })).toHaveCount(0)
  await expect(results).toContainText('Success. No rows returned')
  expect(await query(page, project.ref, "select relrowsecurity as rls from pg_class where oid = 'public.todos'::regclass")).toEqual([{ rls: true }])
  expect(await query(page, project.ref, "select policyname from pg_policies where tablename = 'todos'")).toEqual([{ policyname: 'Owners manage their own todos' }])

  // 250 rows asked for, 100 shown, with the notice (Ctrl+Enter runs; a function call asks first).
  const gate = panel.getByRole('alertdialog', { name: 'Potential issue detected with your query' })
  await typeInPanel(page, 'select n from generate_series(1, 250) as n')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(gate).toContainText(`${FUNCTION_CALL_WARNING} ${RUN_CONFIRMATION_QUESTION}`)
  await gate.getByRole('button', { name: 'Run', exact: true }).click()
  const grid = results.getByRole('grid', { name: 'Query results' })
  await expect(grid).toBeVisible()
  await expect(results.locator('.results-grid-count')).toHaveText('100 rows')
  await expect(grid).toHaveAttribute('aria-rowcount', '101')
  await expect(results.getByText(SQL_PANEL_ROW_LIMIT_NOTICE)).toBeVisible()

  // Written text is not replaced by a template without asking.
  await pickTemplate(page, 'List tables with sizes')
  const replace = page.getByRole('dialog', { name: 'Replace your SQL?' })
  await replace.getByRole('button', { name: 'Cancel' }).click()
  await expect(panelText(panel)).toContainText('generate_series')
  await pickTemplate(page, 'List tables with sizes')
  await replace.getByRole('button', { name: 'Replace' }).click()
  await expect(panelText(panel)).toContainText('pg_total_relation_size')
  await page.keyboard.press('ControlOrMeta+Enter')
  await gate.getByRole('button', { name: 'Run', exact: true }).click()
  // Every table is listed (the grid draws only the rows in view, and tables of equal size come in any order: count them).
  const [{ tables }] = await query(
    page,
    project.ref,
    `select count(*)::int as tables from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p', 'm') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`,
  )
  expect(tables).toBeGreaterThan(1)
  await expect(grid).toHaveAttribute('aria-rowcount', String(tables + 1))
  await expect(results.getByRole('columnheader', { name: /table_name/ })).toBeVisible()
  await expect(results.getByText(SQL_PANEL_ROW_LIMIT_NOTICE)).toHaveCount(0)

  // An empty result, then an error.
  await typeInPanel(page, 'select 1 as one where false')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(results).toContainText('Success. No rows returned')
  await typeInPanel(page, 'select * from no_such_table_here')
  await page.keyboard.press('ControlOrMeta+Enter')
  const error = results.getByRole('alert')
  await expect(error).toContainText('Error running SQL query')
  await expect(error).toContainText('ERROR: relation "no_such_table_here" does not exist')

  // Save as snippet: the toast links to the snippet, which opens in the SQL editor with that SQL.
  await typeInPanel(page, "select 'saved_from_panel' as note")
  await panel.getByRole('button', { name: 'Save as snippet' }).click()
  const saveDialog = page.getByRole('dialog', { name: 'Save as snippet' })
  await expect(saveDialog.getByLabel('Name')).toHaveAttribute('placeholder', CONTENT_TEXTS.defaultSnippetName)
  await saveDialog.getByLabel('Name').fill('Panel snippet')
  await saveDialog.getByRole('button', { name: 'Save snippet' }).click()
  const toast = page.getByRole('status').filter({ hasText: 'Saved snippet! View it here.' })
  await expect(toast).toBeVisible()
  // The toast dismisses itself after a while: its link is clicked first, the dialog checked after.
  await toast.getByRole('link', { name: 'View it here' }).click()
  await expect(saveDialog).toBeHidden()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/sql/[0-9a-f-]{36}$`))
  const id = page.url().split('/').at(-1)!
  await expect(page.getByRole('heading', { name: 'Panel snippet' })).toBeVisible()
  await expect(page.getByTestId('sql-editor').locator('.view-lines')).toContainText('saved_from_panel')
  const saved = await apiCall(page, 'GET', `/platform/projects/${project.ref}/content/item/${id}`)
  expect(saved).toMatchObject({ name: 'Panel snippet', type: 'sql', visibility: 'user', content: { sql: "select 'saved_from_panel' as note" } })

  // Without a name it is an 'Untitled query'.
  await expect(panel).toBeVisible()
  await panel.getByRole('button', { name: 'Save as snippet' }).click()
  await saveDialog.getByRole('button', { name: 'Save snippet' }).click()
  await expect(saveDialog).toBeHidden()
  await expect
    .poll(async () => (await apiCall(page, 'GET', `/platform/projects/${project.ref}/content?type=sql&limit=100&sort_by=inserted_at&sort_order=desc`)).data[0])
    .toMatchObject({ name: CONTENT_TEXTS.defaultSnippetName, visibility: 'user', content: { sql: "select 'saved_from_panel' as note" } })

  // Beside the SQL editor page, each editor's Ctrl+Enter runs its own SQL.
  const pageEditor = page.getByTestId('sql-editor').locator('.monaco-editor')
  await pageEditor.click({ position: { x: 80, y: 12 } })
  await expect(pageEditor).toHaveClass(/(^|\s)focused(\s|$)/)
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Delete')
  await page.keyboard.type("select 'from_the_page' as origin")
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(page.locator('#main-content').getByRole('region', { name: 'Results' }).getByRole('gridcell', { name: 'from_the_page' })).toBeVisible()
  await expect(results.getByRole('gridcell', { name: 'from_the_page' })).toHaveCount(0)
  await typeInPanel(page, "select 'from_the_panel' as origin")
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(results.getByRole('gridcell', { name: 'from_the_panel' })).toBeVisible()

  // The draft survives closing and reopening the panel, and a reload.
  await typeInPanel(page, 'select 42 as draft_survives')
  await page.keyboard.press(`${modifier}+e`)
  await expect(panel).toHaveCount(0)
  await openPanel(page)
  await expect(panelText(panel)).toContainText('draft_survives')
  // Written to local storage (debounced): wait for it there rather than for a fixed time.
  await expect.poll(() => page.evaluate((key) => window.localStorage.getItem(key), `stratum.sql-panel.draft.${project.ref}`)).toContain('draft_survives')
  await page.reload()
  await openPanel(page)
  await expect(panelText(panel)).toContainText('draft_survives')

  // The shell's shortcuts still work from inside the panel's editor: Ctrl+I switches to the assistant.
  const panelEditor = panel.getByTestId('sql-panel-editor').locator('.monaco-editor')
  await panelEditor.click({ position: { x: 80, y: 12 } })
  await expect(panelEditor).toHaveClass(/(^|\s)focused(\s|$)/)
  await page.keyboard.press(`${modifier}+i`)
  await expect(page.getByTestId('assistant-panel')).toBeVisible()
  await expect(panel).toHaveCount(0)
})

test('every template runs cleanly, twice, on Postgres 17 and 15', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page)
  const pg17 = await healthyProject(page, 'SQL panel')
  const existing = (await apiCall(page, 'GET', '/platform/projects')).find((p: { name: string }) => p.name === 'SQL panel 15')
  const created =
    existing ?? (await apiCall(page, 'POST', '/platform/projects', { name: 'SQL panel 15', organization_slug: pg17.orgSlug, db_pass: 'e2e-db-password-1', postgres_engine: '15' }))
  const pg15 = await healthyProject(page, 'SQL panel 15')
  expect(pg15.ref).toBe(created.ref)

  for (const [ref, major] of [[pg17.ref, 17], [pg15.ref, 15]] as const) {
    const [{ server_version_num }] = await query(page, ref, 'show server_version_num')
    expect(Math.floor(Number(server_version_num) / 10000)).toBe(major)
    await query(page, ref, 'drop table if exists public.todos cascade')
    for (const round of [1, 2]) {
      for (const template of SQL_TEMPLATES) {
        const response = await page.request.post(`/platform/pg-meta/${ref}/query`, {
          data: { query: template.sql, read_only: false },
          headers: { origin: new URL(page.url()).origin },
        })
        expect(response.status(), `${template.id} (round ${round}) on ${ref}: ${await response.text()}`).toBe(201)
      }
    }
    // What they made is there and works: the trigger, the view, the function, the counts.
    const [row] = await query(page, ref, "update public.todos set is_complete = true where title = 'Add indexes' returning updated_at > inserted_at as touched")
    expect(row.touched).toBe(true)
    expect(await query(page, ref, 'select count(*)::int as n from public.open_todos')).toEqual([{ n: 2 }])
    expect(await query(page, ref, "select public.row_count('public.todos') as n")).toEqual([{ n: 6 }])
    const counts = await query(page, ref, SQL_TEMPLATES.find((t) => t.id === 'table-row-counts')!.sql)
    expect(counts).toContainEqual({ table_schema: 'public', table_name: 'todos', row_count: 6 })
  }
})

test('a Read-only member runs reads in the panel but cannot save a snippet', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'SQL panel')
  const { page: reader } = await memberByInvitation(page, project.orgSlug, 'read_only')
  await reader.goto(`/project/${project.ref}`)
  await expect(reader.getByTestId('project-status').first()).toBeVisible()
  const panel = await openPanel(reader)

  await typeInPanel(reader, "select 'reader_can_read' as note")
  const save = panel.getByRole('button', { name: 'Save as snippet' })
  await expect(save).toBeDisabled()
  await expect(save).toHaveAccessibleDescription(CONTENT_TEXTS.cannotSave)
  await save.hover()
  await expect(reader.getByRole('tooltip')).toHaveText(CONTENT_TEXTS.cannotSave)

  await reader.keyboard.press('ControlOrMeta+Enter')
  const results = panel.getByRole('region', { name: 'Results' })
  await expect(results.getByRole('gridcell', { name: 'reader_can_read' })).toBeVisible()

  // A write is refused on the read-only connection, with no offer of the full one.
  await typeInPanel(reader, 'create table reader_table (id int)')
  await reader.keyboard.press('ControlOrMeta+Enter')
  await panel.getByRole('alertdialog', { name: 'Potential issue detected with your query' }).getByRole('button', { name: 'Run', exact: true }).click()
  await expect(results.getByRole('alert')).toContainText('Error running SQL query')
  await expect(reader.getByRole('alertdialog', { name: 'Run this query with write access?' })).toHaveCount(0)
  await reader.context().close()
})
