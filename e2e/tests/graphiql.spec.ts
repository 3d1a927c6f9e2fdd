import type { Locator, Page, Request } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, EDITOR_LOAD, healthyProject, replaceEditorText, signIn } from './helpers'

/**
 * The GraphiQL page as a user sees it: it fills the main panel in the dashboard's theme, runs a query
 * against the project's /graphql/v1 with the key "Run as" chooses, and has its docs explorer and history.
 * The queries are `__typename` and introspection only, which every GraphQL engine answers alike (the
 * table-shaped ones belong to the engine's own tests).
 */

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/graphiql-${name}.png` })
}

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  await expect(locator).toBeVisible()
  const found = await locator.boundingBox()
  expect(found).not.toBeNull()
  return found!
}

/**
 * GraphiQL's container covers the main panel below the page's header row, edge to edge, and nothing scrolls. Read
 * again until it holds: after a resize the project layout follows in a later render (useIsSmallScreen's media query),
 * and the boxes read in between belong to both layouts.
 */
async function expectFillsMain(page: Page): Promise<void> {
  await expect(() => fillsMain(page)).toPass()
}

async function fillsMain(page: Page): Promise<void> {
  const main = await box(page.locator('#main-content'))
  const header = await box(page.locator('.graphiql-header'))
  const graphiql = await box(page.locator('.graphiql-container'))
  expect(Math.abs(graphiql.x - main.x)).toBeLessThanOrEqual(1)
  expect(Math.abs(graphiql.x + graphiql.width - (main.x + main.width))).toBeLessThanOrEqual(1)
  expect(Math.abs(graphiql.y - (header.y + header.height))).toBeLessThanOrEqual(1)
  expect(Math.abs(graphiql.y + graphiql.height - (main.y + main.height))).toBeLessThanOrEqual(1)
  expect(graphiql.height).toBeGreaterThan(main.height * 0.75)
  // The query editor and the results share the width: each a real pane, not a corner box.
  const editor = await box(page.locator('.graphiql-query-editor'))
  const response = await box(page.locator('.graphiql-response'))
  expect(editor.width).toBeGreaterThan(main.width * 0.3)
  expect(response.width).toBeGreaterThan(main.width * 0.3)
  expect(editor.height).toBeGreaterThan(main.height * 0.4)
  // Neither the document nor the main panel's scroller scrolls, in either direction.
  const overflow = await page.evaluate(() => {
    const scroller = document.querySelector('#main-content')!.parentElement!
    const root = document.scrollingElement!
    return {
      page: root.scrollWidth - root.clientWidth + (root.scrollHeight - root.clientHeight),
      panel: scroller.scrollWidth - scroller.clientWidth + (scroller.scrollHeight - scroller.clientHeight),
    }
  })
  expect(overflow).toEqual({ page: 0, panel: 0 })
}

/** The next query GraphiQL sends that is not its schema introspection. */
function nextRun(page: Page): Promise<Request> {
  return page.waitForRequest(
    (request) => request.method() === 'POST' && request.url().endsWith('/graphql/v1') && !(request.postData() ?? '').includes('IntrospectionQuery'),
  )
}

async function run(page: Page): Promise<Request> {
  const sent = nextRun(page)
  await page.getByRole('button', { name: /^Execute query/ }).click()
  return sent
}

test('GraphiQL fills the page, runs a query as the chosen role, and has its docs explorer and history', async ({ page }) => {
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.emulateMedia({ colorScheme: 'light' })
  await signIn(page)
  const project = await healthyProject(page, 'GraphiQL page')
  const settings = await apiCall(page, 'GET', `/platform/projects/${project.ref}/settings`)
  const keyOf = (tag: string) => (settings.service_api_keys as { tags: string; api_key: string }[]).find((key) => key.tags === tag)!.api_key
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  // Nothing from another origin than the dashboard's and the project's (no CDN for Monaco or its workers).
  const origins = new Set<string>()
  page.on('request', (request) => origins.add(new URL(request.url()).origin))

  await page.goto(`/project/${project.ref}/api/graphiql`)
  await expect(page.getByRole('heading', { name: 'GraphiQL', level: 1 })).toBeVisible()
  const editor = page.locator('.graphiql-query-editor .monaco-editor').first()
  await expect(editor).toBeVisible(EDITOR_LOAD)
  await expectFillsMain(page)

  // "Run as" is the dashboard's select, anon first.
  const runAs = page.getByLabel('Run as')
  await expect(runAs).toHaveValue('anon')
  await expect(runAs).toHaveClass(/(^|\s)select(\s|$)/)
  await expect(page.getByText('Row level security applies')).toBeVisible()

  await replaceEditorText(editor, '{ __typename }')
  const asAnon = await run(page)
  await expect(page.locator('.graphiql-response')).toContainText('"__typename": "Query"', { timeout: 20_000 })
  expect(asAnon.headers()['apikey']).toBe(keyOf('anon'))
  expect(asAnon.headers()['authorization']).toBe(`Bearer ${keyOf('anon')}`)
  await shot(page, '1440-light')

  await runAs.selectOption('service_role')
  await expect(page.getByText('Bypasses row level security')).toBeVisible()
  // The query stays in the editor (no remount) and now goes with the service_role key.
  await expect(editor).toContainText('__typename')
  const asService = await run(page)
  expect(asService.headers()['apikey']).toBe(keyOf('service_role'))
  expect(asService.headers()['authorization']).toBe(`Bearer ${keyOf('service_role')}`)
  await expect(page.locator('.graphiql-response')).toContainText('"__typename": "Query"')

  // A header typed in the headers editor goes on top of the key's (one Authorization, not two).
  await page.getByRole('button', { name: 'Headers' }).click()
  const headers = page.getByRole('region', { name: 'Headers' }).locator('.graphiql-editor:not(.hidden) .monaco-editor')
  await replaceEditorText(headers, `{ "Authorization": "Bearer ${keyOf('anon')}", "x-stratum-test": "1" }`)
  const withHeaders = await run(page)
  expect(withHeaders.headers()['authorization']).toBe(`Bearer ${keyOf('anon')}`)
  expect(withHeaders.headers()['x-stratum-test']).toBe('1')
  expect(withHeaders.headers()['apikey']).toBe(keyOf('service_role'))

  // The docs explorer shows the schema's root types; the history lists what ran.
  await page.getByRole('button', { name: 'Show Documentation Explorer' }).click()
  const plugin = page.locator('.graphiql-plugin')
  await expect(plugin).toContainText('Root Types')
  await expect(plugin.getByRole('link', { name: 'Query' }).or(plugin.getByText('Query', { exact: true })).first()).toBeVisible()
  await expectFillsMain(page)
  await page.getByRole('button', { name: 'Show History' }).click()
  await expect(plugin).toContainText('History')
  await expect(plugin.locator('li').first()).toBeVisible()

  // Dark, as the dashboard: GraphiQL's background is the dashboard's own.
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.getByRole('button', { name: 'Show Documentation Explorer' }).click()
  await expect(plugin).toContainText('Root Types')
  const colours = await page.evaluate(() => ({
    graphiql: getComputedStyle(document.querySelector('.graphiql-container')!).backgroundColor,
    page: getComputedStyle(document.body).backgroundColor,
  }))
  expect(colours.graphiql).toBe(colours.page)
  await shot(page, '1440-dark')

  await page.setViewportSize({ width: 1024, height: 768 })
  await expectFillsMain(page)
  await shot(page, '1024-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.getByRole('button', { name: 'Hide Documentation Explorer' }).click()
  await expectFillsMain(page)
  await shot(page, '1024-light')

  const own = new Set([new URL(page.url()).origin, new URL(`${settings.app_config.protocol}://${settings.app_config.endpoint}`).origin])
  expect([...origins].filter((origin) => !own.has(origin) && !origin.startsWith('blob:') && origin !== 'null')).toEqual([])
  expect(problems).toEqual([])
})

test('the API docs show a table’s GraphQL calls in pg_graphql’s shapes', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'GraphiQL page')
  await apiCall(page, 'POST', `/v1/projects/${project.ref}/database/query`, {
    query: 'create table if not exists public.todos (id bigint generated always as identity primary key, title text);',
  })
  await page.goto(`/project/${project.ref}`)
  await page.getByRole('button', { name: 'API Docs' }).click()
  const drawer = page.getByRole('dialog', { name: 'API Docs' })
  const menu = drawer.getByRole('navigation', { name: 'API docs sections' })
  await menu.getByRole('button', { name: 'Tables & Views' }).click()
  await menu.getByRole('button', { name: 'todos' }).click()
  const read = drawer.getByRole('region', { name: 'GraphQL: read a page' })
  await expect(read).toContainText('todosCollection(filter: $filter, orderBy: [{ id: DescNullsLast }], first: 10)')
  await expect(read).toContainText('edges {')
  await expect(read).toContainText('pageInfo { hasNextPage endCursor }')
  await expect(read).toContainText('/graphql/v1')
  const insert = drawer.getByRole('region', { name: 'GraphQL: insert' })
  await expect(insert).toContainText('insertIntotodosCollection(objects: $objects)')
  await expect(insert).toContainText('affectedCount')
  await expect(drawer.getByRole('region', { name: 'GraphQL: update' })).toContainText('updatetodosCollection(set: $set, filter: $filter, atMost: 1)')
  await expect(drawer.getByRole('region', { name: 'GraphQL: delete' })).toContainText('deleteFromtodosCollection(filter: $filter, atMost: 1)')
  await drawer.getByRole('radio', { name: 'Bash' }).click()
  await expect(read).toContainText(`/graphql/v1'`)
  await expect(read).toContainText('"variables":{"filter":{"id":{"eq":"1"}}}')
  await drawer.getByRole('region', { name: 'GraphQL', exact: true }).scrollIntoViewIfNeeded()
  await shot(page, 'docs-drawer')
})
