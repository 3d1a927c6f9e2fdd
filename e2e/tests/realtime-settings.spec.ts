import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/${name}.png`, fullPage: true })
}

test("the table editor's Realtime switch adds a table to the publication; the settings page lists it and restricts channels to private ones", async ({ page }) => {
  await signIn(page)
  // The inspector's project: one Postgres less for the run.
  const project = await healthyProject(page, 'Realtime inspector')
  const table = `rt_switch_${Date.now()}`
  const query = (sql: string) => apiCall(page, 'POST', `/v1/projects/${project.ref}/database/query`, { query: sql })
  await query(`create table public.${table} (id int primary key)`)
  const [{ id }] = await query(`select 'public.${table}'::regclass::oid::int as id`)

  await page.goto(`/project/${project.ref}/editor/${id}`)
  const realtimeSwitch = page.getByRole('button', { name: 'Realtime off' })
  await expect(realtimeSwitch).toHaveAttribute('aria-pressed', 'false')
  await realtimeSwitch.click()
  const preview = page.getByRole('dialog', { name: `Enable Realtime for ${table}` })
  await expect(preview).toContainText(`ALTER PUBLICATION supabase_realtime ADD TABLE "public"."${table}";`)
  await preview.getByRole('button', { name: 'Run' }).click()
  await expect(page.getByRole('button', { name: 'Realtime on' })).toHaveAttribute('aria-pressed', 'true')

  await page.goto(`/project/${project.ref}/realtime/inspector`)
  await page.getByRole('navigation', { name: 'Realtime' }).getByRole('link', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Realtime Settings' })).toBeVisible()
  const streamed = page.getByRole('table', { name: 'Tables streamed' })
  await expect(streamed.getByRole('link', { name: `public.${table}` })).toBeVisible()

  const publicAccess = page.getByRole('checkbox', { name: /Allow public access/ })
  await expect(publicAccess).toBeChecked()
  await publicAccess.uncheck()
  await page.getByLabel('Max concurrent clients').fill('0')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Max concurrent clients must be a whole number from 1 to 50,000')).toBeVisible()
  await page.getByLabel('Max concurrent clients').fill('150')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Realtime settings saved')).toBeVisible()
  await shot(page, 'realtime-settings')

  await page.reload()
  await expect(page.getByRole('checkbox', { name: /Allow public access/ })).not.toBeChecked()
  await expect(page.getByLabel('Max concurrent clients')).toHaveValue('150')
  const stored = await apiCall(page, 'GET', `/platform/projects/${project.ref}/config/realtime`)
  expect(stored).toMatchObject({ private_only: true, max_concurrent_users: 150 })

  // Back as it was, for the other tests of this project.
  await apiCall(page, 'PATCH', `/platform/projects/${project.ref}/config/realtime`, { private_only: false, max_concurrent_users: 200 })
})
