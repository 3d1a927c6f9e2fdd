import { LOG_QUERY_ILIKE_ERROR, LOG_QUERY_WITH_OR_SUBQUERY_ERROR } from '@stratum/contracts'
import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/${name}.png`, fullPage: true })
}

test('the Logs Explorer finds a line written by raise log with a template, draws the histogram, shows the line, and refuses WITH and ILIKE', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Logs')
  const marker = `marker-${Date.now()}`
  await apiCall(page, 'POST', `/v1/projects/${project.ref}/database/query`, { query: `do $$ begin raise log '${marker}'; end $$` })

  await page.goto(`/project/${project.ref}`)
  await page.getByRole('navigation', { name: 'Product menu' }).getByRole('link', { name: 'Logs' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/logs/explorer`))
  await expect(page.getByRole('heading', { name: 'Logs Explorer', level: 1 })).toBeVisible()

  await page.getByLabel('Templates').selectOption({ label: 'Search messages (regexp)' })
  const editor = page.getByLabel('Log query')
  await expect(editor).toHaveValue(/regexp_contains\(event_message, 'error\|warning'\)/)
  await editor.fill((await editor.inputValue()).replace('error|warning', marker))
  const grid = page.getByRole('grid', { name: 'Query results' })
  // The collector reads the instance's log every few seconds: run until the line is there. The histogram is a second
  // query over the same window, and the collector may store the project's first lines between the two: it counts
  // them too once a run finds them both (Recharts draws no rectangle for an empty bucket).
  const histogramCard = page.getByTestId('logs-histogram-card')
  await expect(async () => {
    await page.getByRole('button', { name: 'Run' }).click()
    await expect(grid.getByText(marker)).toBeVisible({ timeout: 2000 })
    await expect(histogramCard).toHaveAttribute('aria-busy', 'false', { timeout: 5000 })
    await expect(histogramCard).toContainText(/[1-9]\d* lines? in the window/, { timeout: 1000 })
  }).toPass({ timeout: 45_000 })
  await expect(page).toHaveURL(new RegExp(`q=[^&]*${marker}`))
  await expect(page.getByTestId('logs-histogram').locator('.recharts-bar-rectangle').first()).toBeVisible()

  await grid.getByText(marker).click()
  const viewer = page.getByTestId('log-line-viewer')
  await expect(viewer).toContainText(`"event_message": "${marker}"`)
  await expect(viewer).toContainText('"source": "postgres_logs"')
  await expect(viewer).toContainText('"error_severity": "LOG"')
  await shot(page, 'logs-explorer-line')

  // The URL keeps the source, range and query: a reload runs the same query.
  await page.reload()
  await expect(page.getByLabel('Log query')).toHaveValue(new RegExp(marker))
  await expect(page.getByRole('grid', { name: 'Query results' }).getByText(marker)).toBeVisible()

  await page.getByLabel('Log query').fill(`select id from postgres_logs where event_message ilike '%${marker}%'`)
  await page.getByRole('button', { name: 'Run' }).click()
  await expect(page.getByTestId('logs-error')).toHaveText(LOG_QUERY_ILIKE_ERROR)
  await page.getByLabel('Log query').fill('with recent as (select id from postgres_logs) select id from recent')
  await page.getByRole('button', { name: 'Run' }).click()
  await expect(page.getByTestId('logs-error')).toHaveText(LOG_QUERY_WITH_OR_SUBQUERY_ERROR)
  // Nothing ran, so nothing is counted: no count kept from the run before (issue 33, item 9).
  await expect(page.getByTestId('logs-histogram-card')).toContainText('The query did not run: nothing to count')
  await expect(page.getByTestId('logs-histogram-card')).not.toContainText('lines in the window')
  await shot(page, 'logs-explorer-refused')

  // A template over another source, with the time range moved. Both changes are made in one task, before the
  // router renders the first (as a busy machine does it): the template must keep the range.
  await page.evaluate(() => {
    const choose = (label: string, value: string) => {
      const select = document.querySelector<HTMLSelectElement>(`select[aria-label="${label}"]`)
      if (!select) throw new Error(`no ${label} picker`)
      select.value = value
      select.dispatchEvent(new Event('change', { bubbles: true }))
    }
    choose('Time range', '24h')
    choose('Templates', 'requests-by-status')
  })
  await expect(page.getByLabel('Time range')).toHaveValue('24h')
  await expect(page.getByLabel('Source')).toHaveValue('edge_logs')
  await expect(page.getByTestId('logs-error')).toBeHidden()
  await expect(page).toHaveURL(/range=24h/)
  await shot(page, 'logs-explorer-edge')
  await page.setViewportSize({ width: 800, height: 1000 })
  await page.getByTestId('logs-histogram').scrollIntoViewIfNeeded()
  await shot(page, 'logs-explorer-narrow')
})
