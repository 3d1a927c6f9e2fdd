import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { E2E_GITHUB_REPOSITORY, E2E_GITHUB_TOKEN } from '../github-loopback.mjs'
import { apiCall, dismissToasts, healthyProject, memberByInvitation, signIn } from './helpers'

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string) {
  if (!process.env.AI_SCREENSHOTS_DIR) return
  // After the dialogs' and toasts' entry animations: a picture of the settled screen.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'))
  await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/github-${name}.png`, fullPage: true })
}

/*
 * The organization's GitHub connections page against the e2e run's loopback GitHub (e2e/github-loopback.mjs, started by
 * server.mjs): acme/shop read with the token ghp_e2e.
 */
test('an owner connects a project to a GitHub repository, sees GitHub refuse a bad token, and removes the connection', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'GitHub shop')
  const organization = (await apiCall(page, 'GET', `/platform/organizations/${project.orgSlug}`)) as { id: number }
  // A connection left by an earlier run of this test on the same server: start unconnected.
  const existing = (await apiCall(page, 'GET', `/platform/integrations/github/connections?organization_id=${organization.id}`)) as {
    connections: Array<{ id: number; project: { ref: string } }>
  }
  for (const connection of existing.connections.filter((c) => c.project.ref === project.ref)) {
    await apiCall(page, 'DELETE', `/platform/integrations/github/connections/${connection.id}`)
  }

  await page.goto(`/org/${project.orgSlug}`)
  await page.getByRole('link', { name: 'Integrations' }).click()
  await expect(page).toHaveURL(new RegExp(`/org/${project.orgSlug}/integrations$`))
  await expect(page.getByRole('heading', { name: 'GitHub connections' })).toBeVisible()
  const form = page.getByRole('form', { name: 'Connect a repository' })
  await form.getByLabel('Project').selectOption({ label: project.name })
  await form.getByLabel('Repository').fill(E2E_GITHUB_REPOSITORY)
  await expect(form.getByLabel('Token')).toHaveAttribute('type', 'password')

  // GitHub's own reason reaches the toast.
  await form.getByLabel('Token').fill('ghp_not_the_token')
  await form.getByRole('button', { name: 'Connect repository' }).click()
  const refused = page.getByRole('alert').filter({ hasText: 'Failed to connect to GitHub' })
  await expect(refused).toContainText('GitHub refused the token: Bad credentials')
  await shot(page, 'bad-token')

  await form.getByLabel('Token').fill(E2E_GITHUB_TOKEN)
  await form.getByRole('button', { name: 'Connect repository' }).click()
  await expect(page.getByRole('status').filter({ hasText: `Connected ${project.name} to ${E2E_GITHUB_REPOSITORY}` })).toBeVisible()
  const table = page.getByRole('table', { name: 'GitHub connections' })
  const row = table.getByRole('row').filter({ hasText: project.name })
  await expect(row).toContainText(E2E_GITHUB_REPOSITORY)
  await expect(row).toContainText(project.ref)
  // The token is never shown again, and the form is cleared.
  await expect(form.getByLabel('Token')).toHaveValue('')
  await expect(page.getByText(E2E_GITHUB_TOKEN)).toHaveCount(0)
  await shot(page, 'connected')

  // A Developer sees the list, without the form or the Remove buttons.
  const developer = await memberByInvitation(page, project.orgSlug, 'developer')
  await developer.page.goto(`/org/${project.orgSlug}/integrations`)
  await expect(developer.page.getByRole('table', { name: 'GitHub connections' }).getByRole('row').filter({ hasText: project.name })).toContainText(E2E_GITHUB_REPOSITORY)
  await expect(developer.page.getByText('You need additional permissions to connect or remove GitHub repositories in this organization')).toBeVisible()
  await expect(developer.page.getByRole('form', { name: 'Connect a repository' })).toHaveCount(0)
  await expect(developer.page.getByRole('button', { name: /^Remove the connection/ })).toHaveCount(0)
  await shot(developer.page, 'developer')
  await developer.page.context().close()

  await dismissToasts(page)
  await row.getByRole('button', { name: `Remove the connection to ${E2E_GITHUB_REPOSITORY}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Remove GitHub connection' })
  await shot(page, 'remove-dialog')
  await dialog.getByRole('button', { name: 'Remove connection' }).click()
  await expect(page.getByRole('status').filter({ hasText: `Removed the connection to ${E2E_GITHUB_REPOSITORY}` })).toBeVisible()
  await expect(dialog).toHaveCount(0)
  await expect(table.getByRole('row').filter({ hasText: project.name })).toHaveCount(0)
})
