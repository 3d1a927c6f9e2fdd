import { DATABASE_ACCESS_TEXTS } from '@stratum/contracts'
import { expect, test } from './fixtures'
import { healthyProject, otherPersonPage, signIn } from './helpers'

test('a Read-only member joins by invitation link with their own password, and sees disabled controls', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Team')
  await page.goto(`/org/${project.orgSlug}/team`)
  const email = `reader-${Date.now()}@example.com`
  const form = page.getByRole('form', { name: 'Add member' })
  await form.getByLabel('Email').fill(email)
  await form.getByLabel('Role').selectOption({ label: 'Read-only' })
  await form.getByRole('button', { name: 'Add member' }).click()
  const link = await page.getByLabel('Invitation link').inputValue()
  await page.getByRole('button', { name: 'Done' }).click()

  const reader = await otherPersonPage(page)
  await reader.goto(link)
  await reader.getByLabel('Password', { exact: true }).fill('reader-password-1')
  await reader.getByLabel('Confirm password').fill('reader-password-1')
  await reader.getByRole('button', { name: /^Join / }).click()
  await expect(reader).toHaveURL(new RegExp(`/org/${project.orgSlug}$`))

  await reader.goto(`/org/${project.orgSlug}`)
  await expect(reader.getByRole('button', { name: 'New project' })).toBeDisabled()
  await reader.goto(`/org/${project.orgSlug}/team`)
  await expect(reader.getByRole('button', { name: 'Add member' })).toBeDisabled()
  await reader.goto(`/project/${project.ref}`)
  await expect(reader.getByTestId('project-status').first()).toHaveAttribute('data-status', 'ACTIVE_HEALTHY')
  // The database password is never shown; resetting it is for owners and administrators.
  const reset = reader.getByRole('button', { name: 'Reset database password' })
  await expect(reset).toHaveAttribute('aria-disabled', 'true')
  await expect(reset).toHaveAccessibleDescription(DATABASE_ACCESS_TEXTS.resetPasswordDenied)
})
