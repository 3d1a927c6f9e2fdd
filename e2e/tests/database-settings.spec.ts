import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'

test('database settings: SSL enforcement, a network allow-list and a Postgres setting, applied to the server', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Database settings')
  await page.goto(`/project/${project.ref}/settings/database`)

  const ssl = page.getByRole('switch', { name: 'Enforce SSL on incoming connections' })
  await expect(ssl).not.toBeChecked()
  await ssl.click()
  await expect(ssl).toBeChecked()
  expect((await apiCall(page, 'GET', `/v1/projects/${project.ref}/ssl-enforcement`)).currentConfig.database).toBe(true)

  const allowForm = page.getByRole('form', { name: 'Allow a network' })
  await allowForm.getByLabel('Network (CIDR)').fill('10.0.0.0/33')
  await allowForm.getByRole('button', { name: 'Allow' }).click()
  await expect(allowForm).toContainText('Each entry must be an IPv4 network in CIDR form')
  await allowForm.getByLabel('Network (CIDR)').fill('203.0.113.0/24')
  await allowForm.getByRole('button', { name: 'Allow' }).click()
  const networks = page.getByRole('list', { name: 'Allowed networks' })
  await expect(networks).toContainText('203.0.113.0/24')
  await expect(networks).not.toContainText('0.0.0.0/0')
  await expect(page.getByText('Restricted', { exact: true })).toBeVisible()

  await page.getByLabel('statement_timeout').fill('15s')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Saved the settings')).toBeVisible()
  // The server's own value (the SQL routes set a timeout of their own per session).
  expect((await apiCall(page, 'GET', `/v1/projects/${project.ref}/config/database/postgres`)).statement_timeout).toBe('15s')
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/database-settings.png`, fullPage: true })

  // Back to the defaults, for the other specs that use this project.
  await page.getByRole('button', { name: 'Allow all networks' }).click()
  await expect(page.getByText('Open to all networks', { exact: true })).toBeVisible()
  await ssl.click()
  await expect(ssl).not.toBeChecked()
})
