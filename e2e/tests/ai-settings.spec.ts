import { AI_SETTINGS_PATH, AI_SETTINGS_TEXTS } from '@stratum/contracts'
import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { startOpenAiCompatibleServer, type OpenAiCompatibleServer } from '../../apps/platform/test/support/openai-compatible-server.mjs'
import { apiCall, firstOrgSlug, memberByInvitation, signIn } from './helpers'

/*
 * The installation's AI provider page: the owner points the platform at a loopback OpenAI-compatible
 * server of this test, presses Test and sees the model's answer, then the provider's own refusal for a
 * wrong key, then resets to the environment's provider (e2e/server.mjs's scripted model). Another
 * member sees who decides, and no controls.
 */

const KEY = 'sk-e2e-settings'
let model: OpenAiCompatibleServer

test.beforeAll(async () => {
  model = await startOpenAiCompatibleServer({ apiKey: KEY, reply: () => 'OK' })
})
test.afterAll(async () => {
  await model?.close()
})

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string) {
  const dir = process.env.AI_SCREENSHOTS_DIR
  if (dir) await page.screenshot({ path: `${dir}/ai-settings-${name}.png`, fullPage: true })
}

test('the owner saves a provider, tests it for real, sees a refusal, and resets to the environment', async ({ page }) => {
  await signIn(page)
  // Whatever happens below, the other specs find the environment's scripted model again (finally).
  try {
    await page.goto('/organizations')
    await page.getByRole('link', { name: 'AI provider' }).click()
    await expect(page).toHaveURL(/\/installation\/ai$/)
    await expect(page.getByRole('heading', { name: 'AI provider', level: 1 })).toBeVisible()
    await expect(page.getByText('Environment defaults', { exact: true })).toBeVisible()
    await expect(page.getByText('e2e-scripted-model')).toBeVisible()

    const form = page.getByRole('form', { name: 'AI provider' })
    await form.getByLabel('Provider').selectOption('openai-compatible')
    await form.getByLabel('Model').fill('e2e-settings-model')
    await form.getByLabel('Base URL').fill(model.url)
    await form.getByLabel('API key').fill(KEY)
    await form.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByText('AI provider saved')).toBeVisible()
    await expect(page.getByText('Saved settings', { exact: true })).toBeVisible()
    // Write-only: the key field is empty again and says one is saved.
    await expect(form.getByLabel('API key')).toHaveValue('')
    await expect(form.getByText('A key is saved. Leave this empty to keep it; it is never shown again.')).toBeVisible()
    expect(JSON.stringify(await apiCall(page, 'GET', AI_SETTINGS_PATH))).not.toContain(KEY)

    const before = model.requests.length
    await page.getByRole('button', { name: 'Test', exact: true }).click()
    const success = page.getByRole('alert').filter({ hasText: 'e2e-settings-model answered' })
    await expect(success).toBeVisible()
    await expect(success).toContainText('The model answered: OK')
    expect(model.requests).toHaveLength(before + 1)
    expect(model.requests.at(-1).authorization).toBe(`Bearer ${KEY}`)
    await shot(page, 'success')

    // A wrong key: the provider's own message.
    await form.getByLabel('API key').fill('sk-wrong')
    const saved = page.waitForResponse((response) => response.url().endsWith(AI_SETTINGS_PATH) && response.request().method() === 'PUT')
    await form.getByRole('button', { name: 'Save', exact: true }).click()
    expect((await saved).status()).toBe(200)
    await expect(form.getByLabel('API key')).toHaveValue('')
    await page.getByRole('button', { name: 'Test', exact: true }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'e2e-settings-model failed' })).toContainText('Incorrect API key provided.')
    await shot(page, 'refused')

    // Bad input is refused with the server's message, and nothing changes.
    await form.getByLabel('Base URL').fill('ftp://example.com')
    await form.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(form.getByRole('alert')).toContainText('base_url must be an http(s) URL')

    await page.getByRole('button', { name: 'Reset to environment defaults' }).click()
    const dialog = page.getByRole('dialog', { name: 'Reset to environment defaults?' })
    await dialog.getByRole('button', { name: 'Reset' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByText('Environment defaults', { exact: true })).toBeVisible()
    await expect(page.getByText('e2e-scripted-model')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Reset to environment defaults' })).toHaveCount(0)
    await expect(form.getByLabel('Model')).toHaveValue('e2e-scripted-model')
  } finally {
    await page.request.fetch(AI_SETTINGS_PATH, { method: 'DELETE', headers: { origin: new URL(page.url()).origin } })
  }
})

test('another member is told who decides, and gets no controls', async ({ page }) => {
  await signIn(page)
  const member = await memberByInvitation(page, await firstOrgSlug(page), 'developer')
  await member.page.goto('/installation/ai')
  await expect(member.page.getByText(AI_SETTINGS_TEXTS.manage)).toBeVisible()
  await expect(member.page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0)
  await expect(member.page.getByRole('button', { name: 'Test', exact: true })).toHaveCount(0)
  await member.page.getByRole('button', { name: 'Account menu' }).click()
  await expect(member.page.getByRole('menuitem', { name: 'All organizations' })).toBeVisible()
  await expect(member.page.getByRole('menuitem', { name: 'AI provider' })).toHaveCount(0)
  await member.page.close()
})
