import { PERMISSION_TEXTS } from '@stratum/contracts'
import { expect, test } from '@playwright/test'
import { healthyProject, signIn } from './helpers'

test('a Read-only member gets a one-time password, sets a new one, and sees disabled controls', async ({ page, browser }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Team')
  await page.goto(`/org/${project.orgSlug}/team`)
  const email = `reader-${Date.now()}@example.com`
  const form = page.getByRole('form', { name: 'Add member' })
  await form.getByLabel('Email').fill(email)
  await form.getByLabel('Role').selectOption({ label: 'Read-only' })
  await form.getByRole('button', { name: 'Add member' }).click()
  const oneTime = await page.getByLabel('One-time password').inputValue()
  expect(oneTime).toMatch(/^[\w]{5}(-[\w]{5}){3}$/)
  await page.getByRole('button', { name: 'Done' }).click()

  const reader = await (await browser.newContext()).newPage()
  await signIn(reader, email, oneTime)
  await expect(reader).toHaveURL(/\/account\/me/)
  await reader.getByLabel('Current password').fill(oneTime)
  await reader.getByLabel('New password').fill('reader-password-1')
  await reader.getByLabel('Confirm password').fill('reader-password-1')
  await reader.getByRole('button', { name: 'Update password' }).click()
  await expect(reader.getByText(/Password updated|password has been/i).first()).toBeVisible()

  await reader.goto(`/org/${project.orgSlug}`)
  await expect(reader.getByRole('button', { name: 'New project' })).toBeDisabled()
  await reader.goto(`/org/${project.orgSlug}/team`)
  await expect(reader.getByRole('button', { name: 'Add member' })).toBeDisabled()
  await reader.goto(`/project/${project.ref}`)
  await expect(reader.getByTestId('project-status').first()).toHaveAttribute('data-status', 'ACTIVE_HEALTHY')
  await expect(reader.getByText(PERMISSION_TEXTS.viewPassword)).toBeVisible()
  await expect(reader.getByRole('button', { name: 'Reveal password' })).toHaveCount(0)
})
