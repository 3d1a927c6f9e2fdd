import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, replaceEditorText, signIn } from './helpers'

function typeSql(page: Page, sql: string) {
  return replaceEditorText(page.getByTestId('sql-editor').locator('.monaco-editor'), sql)
}

test('results show as a bar chart in the editor, the chart is saved, and a report runs pinned snippets with parameters', async ({ page }) => {
  // About 34 s on a machine like CI's: room for one twice as slow.
  test.setTimeout(120_000)
  await signIn(page)
  const project = await healthyProject(page, 'Query widget')

  // Editor: run, switch to the chart, pick X and Y, see the bars.
  await page.goto(`/project/${project.ref}/sql`)
  await typeSql(page, 'select * from (values (1, 10), (2, 20), (3, 30), (4, 40)) as t(day, total)')
  // The draft is stored once typed into: the address becomes the snippet's.
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/sql/[0-9a-f-]{36}$`))
  const snippetUrl = page.url()
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(page.getByRole('grid', { name: 'Query results' }).getByRole('gridcell', { name: '40' })).toBeVisible()
  await expect(page.locator('[data-save-state]')).toHaveText('Saved')
  await page.getByRole('radio', { name: 'Chart' }).click()
  await expect(page.getByText('Select columns for the X and Y axes')).toBeVisible()
  await page.getByLabel('X axis').selectOption('day')
  await page.getByLabel('Y axis').selectOption('total')
  const chart = page.getByTestId('result-chart')
  await expect(chart).toHaveAttribute('data-x-type', 'number')
  await expect(chart.locator('svg rect.qw-bar')).toHaveCount(4)
  // Cumulative: the last bar is the tallest, and shows the running total as a label.
  await page.getByLabel('Cumulative').check()
  await page.getByLabel('Labels').check()
  await expect(chart.locator('.recharts-label-list').getByText('100', { exact: true })).toHaveCount(1)

  // The chart settings are kept in the snippet's content.
  await expect
    .poll(async () => {
      const id = snippetUrl.split('/').pop()
      const response = await page.request.get(`/platform/projects/${project.ref}/content/item/${id}`)
      return (await response.json()).content.chart
    })
    .toMatchObject({ view: 'chart', xKey: 'day', yKey: 'total', cumulative: true, showLabels: true })
  await page.reload()
  // Run once the snippet's SQL is back in the editor: a Run clicked while the page is still loading it runs nothing.
  await expect(page.getByTestId('sql-editor').locator('.view-lines')).toContainText('values (1, 10)')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Y axis')).toHaveValue('total')
  await expect(page.getByTestId('result-chart').locator('svg rect.qw-bar')).toHaveCount(4)

  // A snippet with parameters declared by set directives.
  const paramId = crypto.randomUUID()
  const sql = "-- @set n:int = 3\n-- @set kind:alpha|beta = alpha\nselect g as x, g * 2 as y, :kind as kind from generate_series(1, :n) g"
  const created = await page.request.post(`/platform/projects/${project.ref}/content`, {
    headers: { Version: '2', origin: new URL(page.url()).origin },
    data: { id: paramId, name: `Param series ${Date.now()}`, type: 'sql', visibility: 'user', content: { schema_version: '1.0', sql } },
  })
  expect(created.status(), await created.text()).toBeLessThan(300)
  const paramName = (await created.json()).name as string

  // Reports: create one, pin the snippet, see the widget run.
  await page.goto(`/project/${project.ref}/reports`)
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible()
  await expect(page).toHaveTitle(/^Reports \| Query widget \| .+ \| Stratum$/)
  await page.getByLabel('Report name').fill('Weekly numbers')
  await page.getByRole('button', { name: 'Create report' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/reports/[0-9a-f-]{36}$`))
  const reportUrl = page.url()
  await expect(page.getByRole('heading', { level: 1, name: 'Weekly numbers' })).toBeVisible()
  await page.getByLabel('Snippet to pin').selectOption({ label: paramName })
  await page.getByRole('button', { name: 'Pin snippet' }).click()

  const widget = page.getByTestId('query-result-widget')
  await expect(widget).toHaveCount(1)
  // generate_series is a function call: the widget asks once before running it.
  const gate = widget.getByRole('alertdialog', { name: 'Potential issue detected with your query' })
  await expect(gate).toContainText('This query involves running a function. Are you sure you want to execute it?')
  await gate.getByRole('button', { name: 'Run' }).click()
  await expect(widget.getByRole('gridcell', { name: 'alpha' }).first()).toBeVisible()
  await expect(widget.getByRole('link', { name: 'Edit in SQL editor' })).toHaveAttribute('href', `/project/${project.ref}/sql/${paramId}`)
  await widget.getByRole('button', { name: 'Show query' }).click()
  await expect(widget.locator('pre')).toContainText('@set kind:alpha|beta')

  // Parameters: values go through substitution before running.
  await widget.getByRole('button', { name: /Parameters/ }).click()
  const popover = widget.getByRole('dialog', { name: 'Query parameters' })
  await popover.getByLabel('n', { exact: true }).fill('5')
  await popover.getByLabel('kind', { exact: true }).selectOption('beta')
  await popover.getByRole('button', { name: 'Run with parameters' }).click()
  await expect(widget.getByRole('gridcell', { name: 'beta' }).first()).toBeVisible()
  await widget.getByRole('radio', { name: 'Chart' }).click()
  await widget.getByLabel('X axis').selectOption('x')
  await widget.getByLabel('Y axis').selectOption('y')
  await expect(widget.locator('svg rect.qw-bar')).toHaveCount(5)

  // A bad value shows as an error.
  await widget.getByRole('button', { name: /Parameters/ }).click()
  await popover.getByLabel('n', { exact: true }).fill('many')
  await popover.getByRole('button', { name: 'Run with parameters' }).click()
  await expect(widget.getByRole('alert')).toHaveText('ERROR: Parameter n must be a number')

  // The layout is stored: the pinned widget is there after a reload, still a chart of x and y (the widget keeps its view),
  // run with the snippet's own parameter values (n = 3).
  await page.goto(reportUrl)
  await expect(page.getByTestId('query-result-widget')).toHaveCount(1)
  await gate.getByRole('button', { name: 'Run' }).click()
  await expect(widget.getByLabel('X axis')).toHaveValue('x')
  await expect(widget.getByLabel('Y axis')).toHaveValue('y')
  await expect(widget.locator('svg rect.qw-bar')).toHaveCount(3)
  await widget.getByRole('radio', { name: 'Table' }).click()
  await expect(widget.getByRole('gridcell', { name: 'alpha' }).first()).toBeVisible()

  // A second widget beside it: widgets of a row are as tall as each other, and each header is one row of controls
  // (issue 33 item 12: unequal heights, toolbars wrapping to two lines).
  await page.getByLabel('Snippet to pin').selectOption(snippetUrl.split('/').pop()!)
  await page.getByRole('button', { name: 'Pin snippet' }).click()
  const widgets = page.getByTestId('query-result-widget')
  await expect(widgets).toHaveCount(2)
  await expect(widgets.nth(1).getByTestId('result-chart').locator('svg rect.qw-bar')).toHaveCount(4)
  const [left, right] = [(await widgets.nth(0).boundingBox())!, (await widgets.nth(1).boundingBox())!]
  expect(right.y).toBe(left.y)
  expect(right.height).toBe(left.height)
  for (const index of [0, 1]) {
    const header = (await widgets.nth(index).locator('.qw-header').boundingBox())!
    expect(header.height).toBeLessThan(64)
  }
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/report-widgets.png` })
})

test('a pinned snippet that writes waits for Run or Cancel, then asks for write access', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Query widget')
  await apiCall(page, 'POST', `/platform/pg-meta/${project.ref}/query`, { query: 'create table widget_log (id serial primary key, at timestamptz default now())', read_only: false })
  const snippetId = crypto.randomUUID()
  const name = `Log a visit ${Date.now()}`
  const created = await page.request.post(`/platform/projects/${project.ref}/content`, {
    headers: { Version: '2', origin: new URL(page.url()).origin },
    data: { id: snippetId, name, type: 'sql', visibility: 'user', content: { schema_version: '1.0', sql: 'insert into widget_log default values returning id' } },
  })
  expect(created.status(), await created.text()).toBeLessThan(300)

  await page.goto(`/project/${project.ref}/reports`)
  await page.getByLabel('Report name').fill('Writes')
  await page.getByRole('button', { name: 'Create report' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/reports/[0-9a-f-]{36}$`))
  await page.getByLabel('Snippet to pin').selectOption({ label: name })
  await page.getByRole('button', { name: 'Pin snippet' }).click()

  // Opening the report runs nothing that writes: the gate waits with the spec's texts.
  const widget = page.getByTestId('query-result-widget')
  const gate = widget.getByRole('alertdialog', { name: 'Potential issue detected with your query' })
  await expect(gate).toContainText('This query contains write operations. Are you sure you want to execute it?')
  await gate.getByRole('button', { name: 'Cancel' }).click()
  await expect(widget.getByText('Run the query to see its results.')).toBeVisible()
  const count = async () => (await apiCall(page, 'POST', `/platform/pg-meta/${project.ref}/query`, { query: 'select count(*)::int as n from widget_log' })).results[0].rows[0].n
  expect(await count()).toBe(0)

  // Run: the read-only connection refuses the insert, and the owner may go on with write access.
  await widget.getByRole('button', { name: 'Run', exact: true }).click()
  await gate.getByRole('button', { name: 'Run' }).click()
  const escalation = widget.getByRole('alertdialog', { name: 'Run this query with write access?' })
  await expect(escalation).toContainText('ERROR: ')
  expect(await count()).toBe(0)
  await escalation.getByRole('button', { name: 'Run with write access' }).click()
  await expect(widget.getByRole('gridcell', { name: '1' }).first()).toBeVisible()
  expect(await count()).toBe(1)
})
