import { API_KEY_TEXTS } from '@stratum/contracts'
import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, memberByInvitation, signIn } from './helpers'

// The API keys page by role (issue 15 point 8): without read on service_api_keys neither the anon nor the
// service_role key shows, only the project shell spec's texts; Owners and Administrators see both.

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string) {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/api-keys-${name}.png`, fullPage: true })
}

const keyOf = (settings: { service_api_keys: { tags: string; api_key: string }[] }, role: string) =>
  settings.service_api_keys.find((key) => key.tags === role)?.api_key

/** Every value of every text field on the page: no key may be among them. */
const fieldValues = (page: Page) => page.locator('input, textarea').evaluateAll((fields) => fields.map((field) => (field as HTMLInputElement).value))

test('a Read-only member and a Developer see neither key, only the spec texts; an Owner and an Administrator see both', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Keys by role')
  const settings = await apiCall(page, 'GET', `/platform/projects/${project.ref}/settings`)
  const anonKey = keyOf(settings, 'anon')!
  const serviceKey = keyOf(settings, 'service_role')!
  expect(anonKey).toMatch(/^eyJ/)
  expect(serviceKey).toMatch(/^eyJ/)

  for (const role of ['read_only', 'developer'] as const) {
    const member = (await memberByInvitation(page, project.orgSlug, role)).page
    // The server keeps the service_role key and the JWT secret from them.
    const theirs = await apiCall(member, 'GET', `/platform/projects/${project.ref}/settings`)
    expect(keyOf(theirs, 'service_role')).toBeUndefined()
    expect(theirs.jwt_secret).toBeUndefined()
    const listed: { name: string }[] = await apiCall(member, 'GET', `/v1/projects/${project.ref}/api-keys?reveal=true`)
    expect(listed.map((key) => key.name)).not.toContain('service_role')

    await member.goto(`/project/${project.ref}/settings/api`)
    const card = member.locator('.card').filter({ has: member.getByRole('heading', { name: 'Project API Keys' }) })
    await expect(member.getByText(API_KEY_TEXTS.noPermissionPanel)).toBeVisible()
    // In place of anon, service_role and the JWT secret.
    await expect(member.getByText(API_KEY_TEXTS.noPermissionKey, { exact: true })).toHaveCount(3)
    await expect(card.getByText(API_KEY_TEXTS.noPermissionKey, { exact: true })).toHaveCount(2)
    await expect(member.getByLabel('anon', { exact: true })).toHaveCount(0)
    await expect(member.getByLabel('service_role', { exact: true })).toHaveCount(0)
    for (const what of ['anon key', 'service_role key']) {
      await expect(member.getByRole('button', { name: `Copy ${what}` })).toHaveCount(0)
      await expect(member.getByRole('button', { name: `Reveal ${what}` })).toHaveCount(0)
    }
    const values = await fieldValues(member)
    expect(values).not.toContain(anonKey)
    expect(values).not.toContain(serviceKey)
    await expect(member.locator('body')).not.toContainText(anonKey)
    await expect(member.locator('body')).not.toContainText(serviceKey)
    await shot(member, role)
    await member.context().close()
  }

  for (const who of ['owner', 'administrator'] as const) {
    const viewer = who === 'owner' ? page : (await memberByInvitation(page, project.orgSlug, who)).page
    await viewer.goto(`/project/${project.ref}/settings/api`)
    await expect(viewer.getByLabel('anon', { exact: true })).toHaveValue(anonKey)
    const service = viewer.getByLabel('service_role', { exact: true })
    await expect(service).not.toHaveValue(serviceKey)
    await viewer.getByRole('button', { name: 'Reveal service_role key' }).click()
    await expect(service).toHaveValue(serviceKey)
    await expect(viewer.getByText(API_KEY_TEXTS.noPermissionPanel)).toHaveCount(0)
    await expect(viewer.getByText(API_KEY_TEXTS.noPermissionKey, { exact: true })).toHaveCount(0)
    if (who === 'owner') await shot(viewer, 'owner')
  }
})
