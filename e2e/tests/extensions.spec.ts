import { EXTENSION_TEXTS } from '@stratum/contracts'
import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, memberByInvitation, signIn } from './helpers'

/** The extensions page's row of one extension, found by searching for it. */
async function findExtension(page: Page, name: string) {
  await page.getByRole('searchbox', { name: 'Search for an extension' }).fill(name)
  const row = page.getByRole('table', { name: 'Extensions' }).getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) })
  await expect(row).toHaveCount(1)
  return row
}

async function installedVersion(page: Page, ref: string, name: string): Promise<string | null> {
  const extensions: Array<{ name: string; installed_version: string | null }> = await apiCall(page, 'GET', `/platform/pg-meta/${ref}/extensions`)
  return extensions.find((extension) => extension.name === name)!.installed_version
}

test('enables an extension from the Extensions page, shows it enabled, and disables it', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Extensions')
  await page.goto(`/project/${project.ref}`)
  await page.getByRole('navigation', { name: 'Product menu' }).getByRole('link', { name: 'Extensions' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/database/extensions$`))
  await expect(page.getByRole('heading', { name: 'Extensions', level: 1 })).toBeVisible()

  const row = await findExtension(page, 'pg_trgm')
  await expect(row.getByRole('switch', { name: 'Enable pg_trgm' })).toHaveAttribute('aria-checked', 'false')
  await row.getByRole('switch', { name: 'Enable pg_trgm' }).click()
  const enableDialog = page.getByRole('dialog', { name: 'Enable pg_trgm' })
  await expect(enableDialog.getByLabel('Schema')).toHaveValue('extensions')
  await enableDialog.getByRole('button', { name: 'Enable extension' }).click()
  await expect(enableDialog).toBeHidden()
  await expect(page.getByText('Extension pg_trgm is now enabled')).toBeVisible()
  await expect(row.getByRole('switch', { name: 'Disable pg_trgm' })).toHaveAttribute('aria-checked', 'true')
  await expect(row.getByRole('cell', { name: 'extensions', exact: true })).toBeVisible()
  expect(await installedVersion(page, project.ref, 'pg_trgm')).not.toBeNull()

  await row.getByRole('switch', { name: 'Disable pg_trgm' }).click()
  const disableDialog = page.getByRole('dialog', { name: 'Disable pg_trgm' })
  await expect(disableDialog).toContainText('Are you sure you want to turn it off?')
  await disableDialog.getByRole('button', { name: 'Disable extension' }).click()
  await expect(disableDialog).toBeHidden()
  await expect(page.getByText('Extension pg_trgm is now disabled')).toBeVisible()
  await expect(row.getByRole('switch', { name: 'Enable pg_trgm' })).toHaveAttribute('aria-checked', 'false')
  expect(await installedVersion(page, project.ref, 'pg_trgm')).toBeNull()

  // A refused extension is listed with its reason, and its switch cannot be turned on.
  const refused = await findExtension(page, 'dblink')
  await expect(refused).toContainText('Not available')
  await expect(refused).toContainText('other projects')
  const blocked = refused.getByRole('switch', { name: 'Enable dblink' })
  await expect(blocked).toHaveAttribute('aria-disabled', 'true')
  await expect(blocked).toHaveAccessibleDescription(/^Not available on this platform: .*other projects/)
  // It stays focusable to explain itself; a click (forced past Playwright's own check) opens nothing.
  await blocked.click({ force: true })
  await expect(page.getByRole('dialog', { name: 'Enable dblink' })).toHaveCount(0)
})

test('a Read-only member sees the extensions without toggles', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Extensions')
  const reader = await memberByInvitation(page, project.orgSlug, 'read_only')
  await reader.page.goto(`/project/${project.ref}/database/extensions`)
  await expect(reader.page.getByText(EXTENSION_TEXTS.writePermission)).toBeVisible()
  const row = await findExtension(reader.page, 'pgcrypto')
  await expect(row.getByText('Disabled')).toBeVisible()
  await expect(reader.page.getByRole('switch')).toHaveCount(0)
})
