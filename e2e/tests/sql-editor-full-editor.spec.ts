import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, focusEditor, healthyProject, signIn } from './helpers'

/**
 * The SQL editor as a full editor (issue 15 point 4): Monaco's find/replace, comment toggle, multi-cursor and command
 * palette; the statement under the cursor run alone; Format; the per-run statement timeout; the schema browser.
 */

async function shot(page: Page, name: string) {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/sql-full-editor-${name}.png` })
}

const editor = (page: Page) => page.getByTestId('sql-editor')
const grid = (page: Page) => page.getByRole('grid', { name: 'Query results' })

/** Replaces the editor's text by typing (Monaco has no form value to fill); Escape closes a completion list left open. */
async function typeSql(page: Page, sql: string) {
  await focusEditor(editor(page).locator('.monaco-editor'))
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Delete')
  for (const [index, line] of sql.split('\n').entries()) {
    if (index > 0) {
      await page.keyboard.press('Escape')
      await page.keyboard.press('Enter')
      // Monaco indents the new line like the one before: start it from the margin.
      await page.keyboard.press('Shift+Home')
      await page.keyboard.press('Delete')
    }
    await page.keyboard.type(line)
  }
  await page.keyboard.press('Escape')
}

/** The editor's lines as rendered (Monaco draws spaces as no-break spaces). */
async function lines(page: Page): Promise<string[]> {
  const texts = await editor(page).locator('.view-line').evaluateAll((nodes) =>
    nodes.map((node) => ({ top: parseFloat((node as HTMLElement).style.top) || 0, text: node.textContent ?? '' })),
  )
  return texts.sort((a, b) => a.top - b.top).map((line) => line.text.replace(/\u00a0/g, ' '))
}

test('find and replace, comment toggle, multi-cursor, the command palette and Format', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'SQL full editor')
  await page.goto(`/project/${project.ref}/sql`)

  // Find and replace (Ctrl+H): every match replaced.
  await typeSql(page, "select 'alpha' as first_word, 'alpha' as second_word")
  await page.keyboard.press('Control+H')
  const find = editor(page).getByRole('textbox', { name: 'Find' })
  const replace = editor(page).getByRole('textbox', { name: 'Replace' })
  await expect(find).toBeVisible()
  await find.fill('alpha')
  await replace.fill('omega')
  await shot(page, 'find-replace')
  await replace.press('Control+Alt+Enter')
  await expect.poll(() => lines(page)).toEqual(["select 'omega' as first_word, 'omega' as second_word"])
  await replace.press('Escape')

  // Comment toggle (Ctrl+/): on and off again, also while the completion list is open (it has its own use of the key).
  await typeSql(page, 'select 1 as one')
  await page.keyboard.press('Control+Space')
  await expect(editor(page).locator('.suggest-widget')).toBeVisible()
  await page.keyboard.press('ControlOrMeta+Slash')
  await expect.poll(() => lines(page)).toEqual(['-- select 1 as one'])
  await page.keyboard.press('ControlOrMeta+Slash')
  await expect.poll(() => lines(page)).toEqual(['select 1 as one'])

  // Multi-cursor: Ctrl+D twice selects both x1, typing changes both.
  await typeSql(page, 'select x1, x1 from t')
  await page.keyboard.press('Home')
  for (let i = 0; i < 'select '.length; i++) await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ControlOrMeta+D')
  await page.keyboard.press('ControlOrMeta+D')
  await page.keyboard.type('y2')
  await page.keyboard.press('Escape')
  await expect.poll(() => lines(page)).toEqual(['select y2, y2 from t'])

  // The command palette (F1) lists the editor's own actions.
  await page.keyboard.press('F1')
  const palette = page.locator('.quick-input-widget')
  await expect(palette).toBeVisible()
  await page.keyboard.type('run statement')
  await expect(palette.getByText('Run statement at cursor')).toBeVisible()
  await shot(page, 'command-palette')
  await page.keyboard.press('Escape')
  await expect(palette).toBeHidden()

  // Format: the text changes, and one undo takes the whole formatting back.
  await typeSql(page, 'select a, b from t where x = 1')
  await page.getByRole('button', { name: 'Format', exact: true }).click()
  await expect.poll(() => lines(page)).toEqual(['select', '  a,', '  b', 'from', '  t', 'where', '  x = 1'])
  await shot(page, 'formatted')
  // Back in the editor from the Format button: the undo goes to the editor once it has the focus again.
  await focusEditor(editor(page).locator('.monaco-editor'))
  await page.keyboard.press('ControlOrMeta+Z')
  await expect.poll(() => lines(page)).toEqual(['select a, b from t where x = 1'])
  // Shift+Alt+F formats too.
  await page.keyboard.press('Shift+Alt+F')
  await expect.poll(() => lines(page)).toHaveLength(7)
})

test('the statement under the cursor runs alone; Ctrl+Enter still runs everything', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'SQL full editor')
  await page.goto(`/project/${project.ref}/sql`)
  // A semicolon inside a string, a dollar quote and a comment does not end a statement.
  await typeSql(page, "select 'a;b' as first_one;\n-- not here; really\nselect $$x;y$$ as second_one;\nselect 3 as third_one;")
  // The cursor on the middle statement (line 3).
  await focusEditor(editor(page).locator('.monaco-editor'))
  await page.keyboard.press('ControlOrMeta+Home')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('End')
  // The statement it will run is marked beside its lines, and only that one (the comment before it is sent with it).
  await expect.poll(() => markedLines(page)).toEqual(['-- not here; really', 'select $$x;y$$ as second_one;'])
  await page.keyboard.press('ControlOrMeta+Shift+Enter')
  await expect(grid(page).getByRole('gridcell', { name: 'x;y' })).toBeVisible()
  await expect(grid(page).getByRole('columnheader', { name: /second_one/ })).toBeVisible()
  // One statement's result (its Results tab and Messages), none of the others.
  await expect(page.getByRole('tablist', { name: 'Statements' }).getByRole('tab')).toHaveText(['Results', 'Messages'])
  await expect(grid(page).getByRole('columnheader', { name: /first_one|third_one/ })).toHaveCount(0)
  await shot(page, 'statement-at-cursor')

  // An error in a statement run from the middle is marked where it is in the editor.
  await typeSql(page, 'select 1 as fine;\nselect nope_column from pg_class;')
  await page.keyboard.press('ControlOrMeta+End')
  await page.getByRole('button', { name: 'More ways to run' }).click()
  await page.getByRole('menuitem', { name: /Run statement at cursor/ }).click()
  await expect(page.getByText('column "nope_column" does not exist').first()).toBeVisible()
  const marked = editor(page).locator('.squiggly-error')
  await expect(marked).toHaveCount(1)
  const markedBox = (await marked.boundingBox())!
  const secondLine = (await editor(page).locator('.view-line').filter({ hasText: 'nope_column' }).boundingBox())!
  expect(Math.abs(markedBox.y + markedBox.height / 2 - (secondLine.y + secondLine.height / 2))).toBeLessThan(secondLine.height)

  // Ctrl+Enter runs all of it (selection or all, as before).
  await typeSql(page, 'select 1 as first_one;\nselect 2 as second_one;')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(page.getByRole('tablist', { name: 'Statements' }).getByRole('tab')).toHaveCount(3)
})

test('the statement timeout setting cancels a long statement and is remembered', async ({ page }) => {
  test.setTimeout(90_000)
  await signIn(page)
  const project = await healthyProject(page, 'SQL full editor')
  await page.goto(`/project/${project.ref}/sql`)
  const timeout = page.getByLabel('Statement timeout')
  await expect(timeout).toHaveValue('60000')
  await timeout.selectOption('10000')
  await typeSql(page, 'select pg_sleep(60)')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  // pg_sleep is a function call: the gate asks first.
  await page.getByRole('dialog', { name: 'Potential issue detected with your query' }).getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByText('canceling statement due to statement timeout').first()).toBeVisible({ timeout: 40_000 })
  await shot(page, 'timeout')
  await page.reload()
  await expect(page.getByLabel('Statement timeout')).toHaveValue('10000')
})

/** The lines beside which the statement under the cursor is marked (matched to the text lines by their height on screen). */
async function markedLines(page: Page): Promise<string[]> {
  const bars = await editor(page).locator('.sql-current-statement-bar').evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().top))
  const shown = await editor(page).locator('.view-line').evaluateAll((nodes) =>
    nodes.map((node) => ({ top: node.getBoundingClientRect().top, text: (node.textContent ?? '').replace(/\u00a0/g, ' ') })),
  )
  return shown
    .filter((line) => bars.some((top) => Math.abs(top - line.top) < 2))
    .sort((a, b) => a.top - b.top)
    .map((line) => line.text)
}

test('the schema browser lists tables, views and functions; a click inserts the name; a table opens in the table editor', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'SQL full editor')
  const suffix = Date.now().toString(36)
  const table = `browse_${suffix}`
  await page.goto(`/project/${project.ref}/sql`)
  await apiCall(page, 'POST', `/platform/pg-meta/${project.ref}/query`, {
    query: `create table ${table} (id int primary key, note text);
create table "Mixed ${suffix}" (id int);
create view ${table}_view as select id from ${table};
create function ${table}_fn(a int) returns int language sql as $$ select a $$;`,
    read_only: false,
  })

  // Closed until opened; the choice is remembered per browser.
  await page.getByRole('button', { name: 'Show schema browser' }).click()
  const browser = page.getByRole('complementary', { name: 'Schema browser' })
  await browser.getByRole('button', { name: 'Refresh schema' }).click()
  await browser.getByRole('searchbox', { name: 'Search tables, views and functions' }).fill(suffix)
  await expect(browser.getByRole('list', { name: 'Tables' }).getByRole('button', { name: table, exact: true })).toBeVisible()
  await expect(browser.getByRole('list', { name: 'Views' }).getByRole('button', { name: `${table}_view` })).toBeVisible()
  await expect(browser.getByRole('list', { name: 'Functions' }).getByRole('button', { name: new RegExp(`${table}_fn`) })).toBeVisible()
  await shot(page, 'schema-browser')

  // A click types the name at the cursor, quoted when Postgres needs it.
  await typeSql(page, 'select * from ')
  await browser.getByRole('button', { name: table, exact: true }).click()
  await expect.poll(() => lines(page)).toEqual([`select * from ${table}`])
  // The name inserted, the editor has the keyboard again (keys pressed before that would go to the browser's button).
  await expect(editor(page).locator('.monaco-editor')).toHaveClass(/(^|\s)focused(\s|$)/)
  await page.keyboard.type(' join ')
  await browser.getByRole('button', { name: `Mixed ${suffix}` }).click()
  await expect.poll(() => lines(page)).toEqual([`select * from ${table} join "Mixed ${suffix}"`])

  // Completion knows the new table's columns.
  await typeSql(page, `select ${table}.`)
  await page.keyboard.press('Control+Space')
  await expect(editor(page).locator('.suggest-widget')).toContainText('note')
  await page.keyboard.press('Escape')

  // Nothing matching: said so.
  await browser.getByRole('searchbox', { name: 'Search tables, views and functions' }).fill('no_such_thing_zz')
  await expect(browser).toContainText("Nothing matches 'no_such_thing_zz'")
  await browser.getByRole('searchbox', { name: 'Search tables, views and functions' }).fill(table)

  // Too narrow beside the editor (a smaller window, a side panel): it steps aside and its button says why.
  await page.setViewportSize({ width: 900, height: 720 })
  await expect(browser).toBeHidden()
  await expect(page.getByRole('button', { name: 'Schema browser', exact: true })).toBeDisabled()
  await page.setViewportSize({ width: 1280, height: 720 })
  await expect(browser).toBeVisible()
  await expect(page.getByRole('button', { name: 'Hide schema browser' })).toHaveAttribute('aria-pressed', 'true')

  // Open in table editor.
  await browser.getByRole('link', { name: `Open ${table} in table editor` }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/editor/\\d+`))
  await expect(page.getByRole('heading', { name: table }).first()).toBeVisible()
})
