import { PERMISSION_TEXTS } from '@stratum/contracts'
import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, memberByInvitation, signIn } from './helpers'

/*
 * Project lifecycle through the dashboard, on real instances: every status is reached by a real
 * operation (restart, resize, pause, restore, delete), never written by hand. The tests share a
 * Pro organization (no free-project limit, exit survey on delete), so they run in order.
 */
// Real restarts, resizes, pauses and restores, each waited for up to 30 s: more than the default 60 s for a test on a slow machine.
test.describe.configure({ mode: 'serial', timeout: 120_000 })

const OPERATION = { timeout: 30_000 }
const PRO_ORG = 'Lifecycle Pro'
const OPS = 'Lifecycle ops'

async function proOrgSlug(page: Page): Promise<string> {
  const orgs = await apiCall(page, 'GET', '/platform/organizations')
  const org = orgs.find((o: { name: string }) => o.name === PRO_ORG) ?? (await apiCall(page, 'POST', '/platform/organizations', { name: PRO_ORG }))
  if (org.plan !== 'pro') await apiCall(page, 'PUT', `/platform/organizations/${org.slug}/billing/subscription`, { plan: 'pro' })
  return org.slug
}

/** helpers.healthyProject, in the Pro organization. */
async function proProject(page: Page, name: string): Promise<{ ref: string; name: string; orgSlug: string }> {
  const orgSlug = await proOrgSlug(page)
  const existing = (await apiCall(page, 'GET', `/platform/projects?organization_slug=${orgSlug}`)).find((p: { name: string }) => p.name === name)
  const project = existing ?? (await apiCall(page, 'POST', '/platform/projects', { name, organization_slug: orgSlug, db_pass: 'e2e-db-password-1' }))
  await expect
    // A new project's first start (initdb included) can take a while on a busy 2-core machine.
    .poll(async () => (await apiCall(page, 'GET', `/platform/projects/${project.ref}/status`)).status, { timeout: 45_000 })
    .toBe('ACTIVE_HEALTHY')
  return { ref: project.ref, name, orgSlug }
}

/** Fills the typed confirmation of an open dialog and presses its confirm button. */
async function confirmTyped(page: Page, dialogName: string, text: string, button = dialogName) {
  const dialog = page.getByRole('dialog', { name: dialogName })
  await dialog.getByLabel(`Type ${text} to confirm.`).fill(text)
  await dialog.getByRole('button', { name: button }).click()
}

/** A Developer of the organization (no infrastructure.execute, no projects.update), signed in. */
async function developer(page: Page, orgSlug: string): Promise<Page> {
  return (await memberByInvitation(page, orgSlug, 'developer')).page
}

test.beforeEach(async ({ page }) => {
  await signIn(page)
})

test('restart from settings, then resize from Compute and Disk', async ({ page }) => {
  const project = await proProject(page, OPS)
  await page.goto(`/project/${project.ref}/settings/general`)

  await page.getByRole('button', { name: 'Restart project' }).click()
  const dialog = page.getByRole('dialog', { name: 'Restart project' })
  await dialog.getByLabel(`Type ${OPS} to confirm.`).fill('not the name')
  await dialog.getByRole('button', { name: 'Restart project' }).click()
  await expect(dialog.getByText('Value entered does not match.')).toBeVisible()
  await confirmTyped(page, 'Restart project', OPS)
  await expect(page.getByRole('heading', { name: 'Restarting...' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Project settings' })).toBeVisible(OPERATION)
  await expect(page.getByTestId('project-status')).toHaveAttribute('data-status', 'ACTIVE_HEALTHY')

  await page.getByRole('navigation', { name: 'Product menu' }).getByRole('link', { name: 'Compute and Disk' }).click()
  await expect(page.getByTestId('size-micro')).toContainText('Current')
  await page.getByRole('radio', { name: /^Small/ }).check()
  await page.getByRole('button', { name: 'Resize to Small' }).click()
  await confirmTyped(page, 'Resize to Small', OPS)
  await expect(page.getByRole('heading', { name: 'Resizing Project Compute size' })).toBeVisible()
  // The target size, from the resize operation's record (the project keeps its old size until the first step).
  await expect(page.getByTestId('resize-target')).toHaveText('Small')
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/resizing.png` })
  // Once the resize is done the page comes back with the new size marked Current, never the old one for a moment.
  await page.evaluate(() => {
    const seen = window as unknown as { oldSizeMarkedCurrent: boolean }
    seen.oldSizeMarkedCurrent = false
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="size-micro"]')?.textContent?.includes('Current')) seen.oldSizeMarkedCurrent = true
    }).observe(document.body, { childList: true, subtree: true, characterData: true })
  })
  await expect(page.getByTestId('size-small')).toContainText('Current', OPERATION)
  expect(await page.evaluate(() => (window as unknown as { oldSizeMarkedCurrent: boolean }).oldSizeMarkedCurrent)).toBe(false)
  expect((await apiCall(page, 'GET', `/platform/projects/${project.ref}`)).compute_size).toBe('small')
})

test('pause from settings, the paused screen, then restore with the dialog', async ({ page }) => {
  const project = await proProject(page, OPS)
  await page.goto(`/project/${project.ref}/settings/general`)
  await page.getByRole('button', { name: 'Pause project' }).click()
  await confirmTyped(page, 'Pause project', OPS)
  await expect(page.getByRole('heading', { name: 'Pausing project' })).toBeVisible()
  // Settings pages stay usable while paused, under a banner.
  await expect(page.getByTestId('paused-banner')).toBeVisible(OPERATION)
  await expect(page.getByRole('heading', { name: 'Project settings' })).toBeVisible()

  await page.goto(`/project/${project.ref}/database`)
  await expect(page.getByRole('heading', { name: `The project "${OPS}" is currently paused` })).toBeVisible()
  await expect(page.getByText("All of your project's data is still intact")).toBeVisible()
  await expect(page.getByRole('link', { name: 'View project settings' })).toBeVisible()

  // A Developer sees the same screen with Restore disabled, and why.
  const dev = await developer(page, project.orgSlug)
  await dev.goto(`/project/${project.ref}/database`)
  const devRestore = dev.getByRole('button', { name: 'Restore project' })
  await expect(devRestore).toHaveAttribute('aria-disabled', 'true')
  await devRestore.hover()
  await expect(dev.getByRole('tooltip')).toHaveText('You need additional permissions to resume this project')
  await devRestore.click({ force: true })
  await expect(dev.getByText('You do not have the required permissions to restore this project')).toBeVisible()
  await dev.goto(`/project/${project.ref}/settings/general`)
  await expect(dev.getByRole('button', { name: 'Delete project' })).toHaveAttribute('aria-disabled', 'true')
  await dev.getByRole('button', { name: 'Delete project' }).hover()
  await expect(dev.getByRole('tooltip')).toHaveText(PERMISSION_TEXTS.deleteProject)
  await dev.context().close()

  await page.getByRole('button', { name: 'Restore project' }).click()
  const dialog = page.getByRole('dialog', { name: 'Restore this project' })
  await expect(dialog.getByLabel('Postgres version')).toHaveValue(/^17\|ga\|/)
  await dialog.getByRole('button', { name: 'Restore project' }).click()
  await expect(page.getByText('Restoring project')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Restoration in progress' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Restoration complete!' })).toBeVisible(OPERATION)
  await page.getByRole('button', { name: 'Return to project' }).click()
  await expect(page.getByRole('heading', { name: 'Tables', level: 1 })).toBeVisible()

  // The pause left a physical backup behind.
  await page.getByRole('navigation', { name: 'Product menu' }).getByRole('link', { name: 'Scheduled' }).click()
  await expect(page.getByRole('table', { name: 'Backups' }).getByText('Physical').first()).toBeVisible()
})

test('a paused free project: upgrade link, restore deadline and the free-project-limit dialog; delete without survey', async ({ page }) => {
  const paused = await healthyProject(page, 'Lifecycle free')
  // Two active free projects put the owner at the free limit.
  await healthyProject(page, 'Lifecycle spare')
  const spare = await healthyProject(page, 'Lifecycle spare 2')
  await apiCall(page, 'POST', `/platform/projects/${paused.ref}/pause`)
  await expect.poll(async () => (await apiCall(page, 'GET', `/platform/projects/${paused.ref}/status`)).status, OPERATION).toBe('INACTIVE')

  await page.goto(`/project/${paused.ref}/database`)
  await expect(page.getByRole('heading', { name: 'The project "Lifecycle free" is currently paused' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute(
    'href',
    `/org/${paused.orgSlug}/billing?panel=subscriptionPlan&source=projectPausedStateRestore`,
  )
  await expect(page.getByTestId('restore-deadline')).toContainText('(90 days left)')
  await page.getByRole('button', { name: 'Restore project' }).click()
  const limit = page.getByRole('dialog', { name: /reached their free project limit/ })
  await expect(limit.getByRole('list', { name: 'Members at their free project limit' })).toContainText('owner@example.com')
  await limit.getByRole('button', { name: 'Understood' }).click()
  await expect(limit).toBeHidden()

  await page.goto(`/project/${spare.ref}/settings/general`)
  await page.getByRole('button', { name: 'Delete project' }).click()
  const dialog = page.getByRole('dialog', { name: 'Confirm deletion of Lifecycle spare 2' })
  await expect(dialog.getByText('Why are you deleting this project?')).toHaveCount(0)
  await confirmTyped(page, 'Confirm deletion of Lifecycle spare 2', 'Lifecycle spare 2', 'Delete project')
  await expect(page.getByText('Successfully deleted Lifecycle spare 2')).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`/org/${paused.orgSlug}$`))
  await expect(page.getByText('Lifecycle spare 2', { exact: true })).toHaveCount(0)
})

// Soak tier: a second real 15 -> 17 upgrade (resource-warnings.spec.ts runs one from the Infrastructure page in `npm test`).
test('a major-version upgrade shows its progress, then its outcome, and its logical backup', { tag: '@soak' }, async ({ page }) => {
  // A new project and a pg_upgrade: the waits below (45 s, 60 s) need more than the default 60 s for the whole test.
  test.setTimeout(180_000)
  const orgSlug = await proOrgSlug(page)
  const created = await apiCall(page, 'POST', '/platform/projects', {
    name: 'Lifecycle upgrade', organization_slug: orgSlug, db_pass: 'e2e-db-password-1', postgres_engine: '15',
  })
  await expect.poll(async () => (await apiCall(page, 'GET', `/platform/projects/${created.ref}/status`)).status, { timeout: 45_000 }).toBe('ACTIVE_HEALTHY')
  // The upgrade is started by the API (its dialog belongs to the infrastructure page); the screen follows it.
  const { tracking_id } = await apiCall(page, 'POST', `/v1/projects/${created.ref}/upgrade`, { target_version: '17' })
  await page.goto(`/project/${created.ref}?trackingId=${tracking_id}`)
  await expect(page.getByRole('heading', { name: 'Upgrading in progress' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Upgrade steps' }).getByRole('listitem')).toHaveCount(8)
  await expect(page.getByText(/^Started on \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \(UTC\)$/)).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Upgrade completed!' })).toBeVisible({ timeout: 60_000 })
  await expect(page.getByText('Your project has been upgraded to Postgres 17')).toBeVisible()
  await page.getByRole('button', { name: 'Return to project' }).click()
  await expect(page).not.toHaveURL(/trackingId/)
  await expect(page.getByTestId('postgres-version')).toHaveText(/^17\./)

  // The upgrade ends with a logical backup: listed, and downloadable through a signed link.
  await page.getByRole('navigation', { name: 'Product menu' }).getByRole('link', { name: 'Scheduled' }).click()
  const logical = page.getByRole('row').filter({ hasText: 'Logical' }).first()
  const download = page.waitForEvent('download')
  await logical.getByRole('button', { name: 'Download' }).click()
  expect((await download).suggestedFilename()).toMatch(/logical\.sql\.gz$/)
})

test('restoring a project paused on Postgres 15 lists its version first and says when the choice is a major upgrade', async ({ page }) => {
  // A new project, then a pause (its physical backup): more than the default 60 s on a busy machine.
  test.setTimeout(120_000)
  const orgSlug = await proOrgSlug(page)
  const created = await apiCall(page, 'POST', '/platform/projects', {
    name: 'Lifecycle paused 15', organization_slug: orgSlug, db_pass: 'e2e-db-password-1', postgres_engine: '15',
  })
  const status = async () => (await apiCall(page, 'GET', `/platform/projects/${created.ref}/status`)).status
  await expect.poll(status, { timeout: 45_000 }).toBe('ACTIVE_HEALTHY')
  await apiCall(page, 'POST', `/platform/projects/${created.ref}/pause`)
  await expect.poll(status, OPERATION).toBe('INACTIVE')
  await page.goto(`/project/${created.ref}/database`)
  await page.getByRole('button', { name: 'Restore project' }).click()
  const dialog = page.getByRole('dialog', { name: 'Restore this project' })
  const version = dialog.getByLabel('Postgres version')
  // The spec's preselection stands (the first GA version); the project's own version comes first in the list.
  await expect(version).toHaveValue(/^17\|ga\|/)
  await expect(version.locator('option').first()).toHaveText(/^Postgres 15\S* \(current\)$/)
  await expect(dialog.getByText(/^A major upgrade: Postgres 15\S* to 17/)).toBeVisible()
  await version.selectOption({ index: 0 })
  await expect(dialog.getByText(/^A major upgrade/)).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
})

test('delete on the Pro plan asks for a reason and the exact name', async ({ page }) => {
  const project = await proProject(page, OPS)
  await page.goto(`/project/${project.ref}/settings/general`)
  await page.getByRole('button', { name: 'Delete project' }).click()
  const dialog = page.getByRole('dialog', { name: `Confirm deletion of ${OPS}` })
  await dialog.getByRole('button', { name: 'Delete project' }).click()
  await expect(dialog.getByText('Please select a reason for deleting your project')).toBeVisible()
  await expect(dialog.getByText('Value entered does not match.')).toBeVisible()
  await dialog.getByRole('checkbox', { name: 'Missing a feature I need' }).check()
  await dialog.getByLabel('Anything else you would like to tell us? (optional)').fill('Testing the exit survey')
  await expect(dialog.getByText('Please select a reason for deleting your project')).toHaveCount(0)
  await confirmTyped(page, `Confirm deletion of ${OPS}`, OPS, 'Delete project')
  await expect(page.getByText(`Successfully deleted ${OPS}`)).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`/org/${project.orgSlug}$`))
  await page.goto(`/project/${project.ref}`)
  await expect(page.getByRole('heading', { name: 'Project not found' })).toBeVisible()
})
