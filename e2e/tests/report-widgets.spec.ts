import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'

// Report widgets keep their table/chart choice and chart settings with the report, and draw line and area charts
// beside the bar (issue 15 point 8).

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string) {
  if (!process.env.AI_SCREENSHOTS_DIR) return
  // The page scrolls inside the shell, not the document: a taller window shows the charts whole.
  const size = page.viewportSize()
  await page.setViewportSize({ width: 1280, height: 1400 })
  await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/report-widgets-${name}.png` })
  if (size) await page.setViewportSize(size)
}

async function snippet(page: Page, ref: string, name: string, sql: string): Promise<string> {
  const id = crypto.randomUUID()
  const created = await page.request.post(`/platform/projects/${ref}/content`, {
    headers: { Version: '2', origin: new URL(page.url()).origin },
    data: { id, name, type: 'sql', visibility: 'user', content: { schema_version: '1.0', sql } },
  })
  expect(created.status(), await created.text()).toBeLessThan(300)
  return id
}

test('a widget switched to a line chart with chosen axes, and an area chart, are kept across a reload; other widgets keep the table', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Report widgets')
  const suffix = Date.now().toString(36)
  const totals = `Daily totals ${suffix}`
  const signups = `Sign-ups ${suffix}`
  await snippet(page, project.ref, totals, 'select * from (values (1, 10), (2, 25), (3, 15), (4, 40)) as t(day, total)')
  await snippet(page, project.ref, signups, "select * from (values ('2026-01-01', 5), ('2026-01-02', 9), ('2026-01-03', 7), ('2026-01-04', 12), ('2026-01-05', 10)) as t(d, n)")

  await page.goto(`/project/${project.ref}/reports`)
  await page.getByLabel('Report name').fill(`Growth ${suffix}`)
  await page.getByRole('button', { name: 'Create report' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/reports/[0-9a-f-]{36}$`))
  const reportId = page.url().split('/').pop()!
  const widgets = page.getByTestId('query-result-widget')
  // The same snippet twice: its two widgets keep settings of their own.
  for (const [name, count] of [[totals, 1], [signups, 2], [totals, 3]] as const) {
    await page.getByLabel('Snippet to pin').selectOption({ label: name })
    await page.getByRole('button', { name: 'Pin snippet' }).click()
    await expect(widgets).toHaveCount(count)
  }
  const [line, area, table] = [widgets.nth(0), widgets.nth(1), widgets.nth(2)]
  for (const widget of [line, area, table]) await expect(widget.getByRole('grid')).toBeVisible()

  // A line chart of total by day.
  await line.getByRole('radio', { name: 'Chart' }).click()
  await expect(line.getByText('Select columns for the X and Y axes')).toBeVisible()
  await line.getByLabel('Chart type').selectOption('line')
  await line.getByLabel('X axis').selectOption('day')
  await line.getByLabel('Y axis').selectOption('total')
  const lineChart = line.getByTestId('result-chart')
  await expect(lineChart).toHaveAttribute('data-chart-type', 'line')
  await expect(lineChart.locator('path.recharts-line-curve')).toHaveCount(1)
  await expect(lineChart.locator('.recharts-line-dots circle')).toHaveCount(4)
  await expect(lineChart.locator('rect.qw-bar')).toHaveCount(0)

  // An area chart of sign-ups by date, cumulative.
  await area.getByRole('radio', { name: 'Chart' }).click()
  await area.getByLabel('Chart type').selectOption('area')
  await area.getByLabel('X axis').selectOption('d')
  await area.getByLabel('Y axis').selectOption('n')
  await area.getByLabel('Cumulative').check()
  const areaChart = area.getByTestId('result-chart')
  await expect(areaChart).toHaveAttribute('data-chart-type', 'area')
  await expect(areaChart).toHaveAttribute('data-x-type', 'date')
  await expect(areaChart.locator('path.recharts-area-area')).toHaveCount(1)
  await area.getByLabel('Labels').check()
  // Cumulative: the last point is the running total, 43.
  await expect(areaChart.locator('.recharts-label-list').getByText('43', { exact: true })).toHaveCount(1)

  // Stored with the report on the server.
  await expect
    .poll(async () => (await apiCall(page, 'GET', `/platform/projects/${project.ref}/content/item/${reportId}`)).content.layout)
    .toMatchObject([
      { chart: { view: 'chart', type: 'line', xKey: 'day', yKey: 'total' } },
      { chart: { view: 'chart', type: 'area', xKey: 'd', yKey: 'n', cumulative: true, showLabels: true } },
      {},
    ])
  await shot(page, 'before-reload')

  await page.reload()
  await expect(widgets).toHaveCount(3)
  await expect(line.getByRole('radio', { name: 'Chart' })).toHaveAttribute('aria-checked', 'true')
  await expect(line.getByLabel('Chart type')).toHaveValue('line')
  await expect(line.getByLabel('X axis')).toHaveValue('day')
  await expect(line.getByLabel('Y axis')).toHaveValue('total')
  await expect(line.getByTestId('result-chart').locator('.recharts-line-dots circle')).toHaveCount(4)
  await expect(area.getByLabel('Chart type')).toHaveValue('area')
  await expect(area.getByLabel('Cumulative')).toBeChecked()
  await expect(area.getByTestId('result-chart').locator('path.recharts-area-area')).toHaveCount(1)
  await expect(area.getByTestId('result-chart').locator('.recharts-label-list').getByText('43', { exact: true })).toHaveCount(1)
  // The other widget of the same snippet kept the table.
  await expect(table.getByRole('radio', { name: 'Table' })).toHaveAttribute('aria-checked', 'true')
  await expect(table.getByRole('gridcell', { name: '40' })).toBeVisible()
  await shot(page, 'after-reload')

  // Back to the table, and to a bar: kept too.
  await line.getByLabel('Chart type').selectOption('bar')
  await expect(line.getByTestId('result-chart').locator('rect.qw-bar')).toHaveCount(4)
  await area.getByRole('radio', { name: 'Table' }).click()
  await expect(area.getByRole('gridcell', { name: '2026-01-05' })).toBeVisible()
  await expect
    .poll(async () => (await apiCall(page, 'GET', `/platform/projects/${project.ref}/content/item/${reportId}`)).content.layout)
    .toMatchObject([{ chart: { view: 'chart', type: 'bar' } }, { chart: { view: 'table', type: 'area' } }, {}])
  await page.reload()
  await expect(line.getByTestId('result-chart').locator('rect.qw-bar')).toHaveCount(4)
  await expect(area.getByRole('gridcell', { name: '2026-01-05' })).toBeVisible()
})
