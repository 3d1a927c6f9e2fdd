import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string) {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/cron-${name}.png`, fullPage: true })
}

/** The rows of a statement run through the SQL route on the full connection. */
async function sql(page: Page, ref: string, query: string): Promise<Record<string, unknown>[]> {
  const response = await apiCall(page, 'POST', `/platform/pg-meta/${ref}/query`, { query, read_only: false })
  return response.results.at(-1).rows
}

test('a cron job every 5 seconds writing rows, then unscheduled', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page)
  const project = await healthyProject(page, 'Cron')
  await sql(page, project.ref, 'create table if not exists public.cron_e2e (id bigint generated always as identity, run_as text default current_user)')
  const ticks = async () => Number((await sql(page, project.ref, 'select count(*) as n from public.cron_e2e'))[0]!.n)

  await page.goto(`/project/${project.ref}/integrations/cron`)
  await expect(page.getByRole('heading', { name: 'Cron Jobs', level: 1 })).toBeVisible()
  await expect(page.getByText('No cron jobs')).toBeVisible()
  await page.getByRole('button', { name: 'Create job' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create cron job' })
  await dialog.getByLabel('Name').fill('e2e-ticks')
  await dialog.getByLabel('Schedule').fill('5 seconds')
  await expect(dialog.getByLabel('Schedule')).toHaveAccessibleDescription('Every 5 seconds')
  await dialog.getByLabel('SQL command').fill('insert into public.cron_e2e default values')
  await shot(page, 'create')
  await dialog.getByRole('button', { name: 'Review SQL' }).click()

  // The SQL shows before it runs.
  const preview = page.getByRole('dialog', { name: 'Schedule e2e-ticks' })
  await expect(preview.getByLabel('SQL to run')).toContainText("select cron.schedule(\n  'e2e-ticks',\n  '5 seconds',\n  'insert into public.cron_e2e default values'\n);")
  await preview.getByRole('button', { name: 'Run SQL' }).click()
  await expect(preview).toBeHidden()
  await expect(page.getByText('Job e2e-ticks scheduled')).toBeVisible()

  const row = page.getByRole('table', { name: 'Cron jobs' }).getByRole('row').filter({ hasText: 'e2e-ticks' })
  await expect(row).toContainText('Every 5 seconds')
  // Rows written by the job, as postgres; the page's last run follows (it refreshes every few seconds).
  await expect.poll(ticks, { timeout: 30_000 }).toBeGreaterThanOrEqual(2)
  expect(await sql(page, project.ref, 'select distinct run_as from public.cron_e2e')).toEqual([{ run_as: 'postgres' }])
  await expect(row.getByText('succeeded')).toBeVisible({ timeout: 15_000 })
  await row.getByRole('button', { name: 'Runs of e2e-ticks' }).click()
  const runs = page.getByRole('table', { name: 'Runs of e2e-ticks' })
  await expect(runs.getByRole('row').filter({ hasText: 'succeeded' }).first()).toContainText('1 row')
  await shot(page, 'runs')

  await row.getByRole('button', { name: 'Delete e2e-ticks' }).click()
  const unschedule = page.getByRole('dialog', { name: 'Delete e2e-ticks' })
  await expect(unschedule.getByLabel('SQL to run')).toContainText(/select cron\.unschedule\(\d+\);/)
  await unschedule.getByRole('button', { name: 'Run SQL' }).click()
  await expect(page.getByText('Job e2e-ticks deleted')).toBeVisible()
  await expect(page.getByText('No cron jobs')).toBeVisible()
  expect(Number((await sql(page, project.ref, 'select count(*) as n from cron.job'))[0]!.n)).toBe(0)
  await shot(page, 'deleted')
})
