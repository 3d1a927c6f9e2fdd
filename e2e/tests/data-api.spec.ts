import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, focusEditor, healthyProject, replaceEditorText, signIn } from './helpers'
import { otherOrigin } from './other-origin'

/*
 * The project URL as a web app on another origin uses it: a table made in the SQL editor, the API docs
 * drawer's snippet copied and run by supabase-js (its browser bundle from node_modules, served by a
 * second local server, so the call crosses origins and needs CORS), and the API keys page showing when
 * the key was last used.
 */

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

function typeSql(page: Page, sql: string) {
  return replaceEditorText(page.getByTestId('sql-editor').locator('.monaco-editor').first(), sql)
}

test('a table made in the SQL editor is served at the project URL: a docs snippet runs from another origin, and the keys page shows the key was used', async ({ page, context }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Data API')
  const table = 'shelf_books'

  // The table, made in the SQL editor (a write: confirmed once at the warning gate, it runs with write access).
  await page.goto(`/project/${project.ref}/sql`)
  await typeSql(page, `create table public.${table} (id int primary key, title text); insert into public.${table} values (1, 'Dune'), (2, 'Solaris');`)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page.getByRole('dialog', { name: 'Potential issue detected with your query' }).getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByText('Success. No rows returned')).toBeVisible()

  // The docs drawer's read snippet for it, copied.
  await page.getByRole('button', { name: 'API Docs' }).click()
  const drawer = page.getByRole('dialog', { name: 'API Docs' })
  const menu = drawer.getByRole('navigation', { name: 'API docs sections' })
  await menu.getByRole('button', { name: /^Tables (&|and) Views$/ }).click()
  await menu.getByRole('button', { name: table }).click()
  await expect(drawer.getByText('The REST API is not served yet')).toHaveCount(0)
  const read = drawer.getByRole('region', { name: 'Read all rows' })
  await expect(read).toContainText(`.from('${table}')`)
  await read.getByRole('button', { name: /Copy/ }).click()
  // The copy is asynchronous: the clipboard is read until it has the snippet.
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain(`.from('${table}')`)
  const snippet = await page.evaluate(() => navigator.clipboard.readText())

  // Run from another origin with the project URL and anon key, as the Connect page gives them.
  const settings = await apiCall(page, 'GET', `/platform/projects/${project.ref}/settings`)
  const url = `${settings.app_config.protocol}://${settings.app_config.endpoint}`
  const anonKey: string = settings.service_api_keys.find((key: { tags: string }) => key.tags === 'anon').api_key
  const elsewhere = await otherOrigin()
  const app = await context.newPage()
  try {
    const failures: string[] = []
    app.on('console', (message) => {
      if (message.type() === 'error') failures.push(message.text())
    })
    await app.goto(elsewhere.origin)
    await expect(app.getByText('Another app')).toBeVisible()
    const result = await app.evaluate(
      async ({ url, anonKey, snippet, table }) => {
        const { createClient } = (window as unknown as { supabase: { createClient: (url: string, key: string) => unknown } }).supabase
        const supabase = createClient(url, anonKey)
        const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (client: unknown) => Promise<unknown>
        const run = new AsyncFunction('supabase', `${snippet}\nreturn { data: ${table}, error }`)
        return run(supabase)
      },
      { url, anonKey, snippet, table },
    )
    expect(result).toEqual({ data: [{ id: 1, title: 'Dune' }, { id: 2, title: 'Solaris' }], error: null })
    expect(failures.filter((text) => /cors|blocked/i.test(text))).toEqual([])
  } finally {
    await app.close()
    await elsewhere.close()
  }

  // The API keys page: the anon key was used just now.
  await page.goto(`/project/${project.ref}/settings/api`)
  await expect(page.getByText(/anon last used (?!not in the last 24 hours)/)).toBeVisible({ timeout: 20_000 })

  // The data API settings: max rows changed, kept after a reload, and served.
  await expect(page.getByLabel('Max rows')).toHaveValue('1000')
  await page.getByLabel('Max rows').fill('1')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Data API settings saved')).toBeVisible()
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/api-settings.png`, fullPage: true })
  await page.reload()
  await expect(page.getByLabel('Max rows')).toHaveValue('1')
  await expect
    .poll(async () => {
      const response = await page.request.get(`${url}/rest/v1/${table}?select=id`, { headers: { apikey: anonKey } })
      return response.ok() ? ((await response.json()) as unknown[]).length : -1
    }, { timeout: 30_000 })
    .toBe(1)
})

test('GraphiQL runs a query on the project with its keys', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'GraphiQL')
  await apiCall(page, 'POST', `/v1/projects/${project.ref}/database/query`, {
    query: "create table public.planets (id int primary key, name text); insert into public.planets values (1, 'Arrakis');",
  })
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  await page.goto(`/project/${project.ref}/api/graphiql`)
  await focusEditor(page.locator('.graphiql-query-editor .monaco-editor').first())
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Delete')
  await page.keyboard.type('{ planetsCollection { edges { node { name } } } }')
  await page.getByRole('button', { name: /Execute query/ }).click()
  await expect(page.locator('.graphiql-response')).toContainText('Arrakis', { timeout: 20_000 })
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/graphiql.png` })
  expect(problems).toEqual([])
})
