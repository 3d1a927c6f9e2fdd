import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { BRANCH_NAME_EMPTY, BRANCH_NAME_INVALID, GIT_BRANCH_REQUIRED } from '@stratum/contracts'
import { E2E_GITHUB_REPOSITORY, E2E_GITHUB_TOKEN } from '../github-loopback.mjs'
import { apiCall, memberByInvitation, signIn } from './helpers'

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string) {
  if (!process.env.AI_SCREENSHOTS_DIR) return
  // Dialogs and tooltips fade in: wait until nothing is animating.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'))
  await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/branching-${name}.png` })
}

/**
 * An organization of its own (its plan changes here must not touch the other specs'), on the pro plan, with two
 * projects: `linked` gets the loopback GitHub repository, `plain` has none.
 */
interface Fixture {
  orgSlug: string
  orgId: number
  linked: string
  plain: string
}
let fixture: Fixture | undefined

async function setPlan(page: Page, orgSlug: string, plan: 'free' | 'pro') {
  await apiCall(page, 'PUT', `/platform/organizations/${orgSlug}/billing/subscription`, { plan })
}

async function healthyProjectIn(page: Page, orgSlug: string, name: string): Promise<string> {
  const project = await apiCall(page, 'POST', '/platform/projects', { name, organization_slug: orgSlug, db_pass: 'e2e-db-password-1' })
  await expect
    .poll(async () => (await apiCall(page, 'GET', `/platform/projects/${project.ref}/status`)).status, { timeout: 30_000 })
    .toBe('ACTIVE_HEALTHY')
  return project.ref
}

async function setUp(page: Page): Promise<Fixture> {
  if (fixture) return fixture
  const org = await apiCall(page, 'POST', '/platform/organizations', { name: 'Branching e2e' })
  await setPlan(page, org.slug, 'pro')
  const linked = await healthyProjectIn(page, org.slug, 'Branching linked')
  const plain = await healthyProjectIn(page, org.slug, 'Branching plain')
  // Connected as the organization's integrations page does it (the server checks the token with GitHub first).
  await apiCall(page, 'POST', '/platform/integrations/github/connections', {
    organization_id: org.id,
    project_ref: linked,
    repository: E2E_GITHUB_REPOSITORY,
    token: E2E_GITHUB_TOKEN,
  })
  fixture = { orgSlug: org.slug, orgId: org.id, linked, plain }
  return fixture
}

async function openEnableDialog(page: Page, ref: string, query = '') {
  await page.goto(`/project/${ref}/branches${query}`)
  await expect(page.getByRole('heading', { name: 'Database branching is not enabled' })).toBeVisible()
  await page.getByRole('button', { name: 'Enable branching' }).click()
  const dialog = page.getByRole('dialog', { name: 'Enable database branching' })
  await expect(dialog).toBeVisible()
  return dialog
}

const submitButton = (page: Page) => page.getByRole('button', { name: 'I understand, enable branching' })

async function sql(page: Page, ref: string, query: string): Promise<Record<string, unknown>[]> {
  return apiCall(page, 'POST', `/v1/projects/${ref}/database/query`, { query })
}

test.describe.configure({ mode: 'serial' })

test.beforeEach(async ({ page }) => {
  await signIn(page)
})

test('the dialog on the free plan: an upgrade prompt and the submit disabled', async ({ page }) => {
  const { orgSlug, plain } = await setUp(page)
  await setPlan(page, orgSlug, 'free')
  try {
    const dialog = await openEnableDialog(page, plain)
    await expect(dialog.getByText('Database branching is available on the Pro plan')).toBeVisible()
    await expect(dialog.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute(
      'href',
      `/org/${orgSlug}/billing?panel=subscriptionPlan&source=enableBranchingButton`,
    )
    await expect(submitButton(page)).toBeDisabled()
    await shot(page, 'dialog-free-plan')

    // The PITR add-on needs the pro plan too.
    await page.goto(`/project/${plain}/addons`)
    await expect(page.locator('#pitr').getByRole('link', { name: 'Upgrade to Pro' })).toBeVisible()
    await expect(page.locator('#pitr').getByRole('button', { name: 'Enable' })).toHaveAttribute('aria-disabled', 'true')
    await shot(page, 'addons-free-plan')
  } finally {
    await setPlan(page, orgSlug, 'pro')
  }
})

test('without a repository: the name rules, and the repository optional or required by the flag', async ({ page }) => {
  const { orgSlug, plain } = await setUp(page)
  // The flag's default on a self-hosted platform: on.
  let dialog = await openEnableDialog(page, plain)
  const name = dialog.getByLabel('Production Branch Name')
  await expect(name).toHaveValue('main')
  await expect(name).toHaveAttribute('placeholder', /main, production/)
  await expect(dialog.getByRole('heading', { name: 'GitHub Repository' })).toBeVisible()
  await expect(dialog.getByText('Optional', { exact: true })).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'Connect to GitHub' })).toHaveAttribute('href', `/org/${orgSlug}/integrations`)
  await expect(dialog.getByText('$0.01344 per hour')).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'Enable PITR' })).toHaveAttribute('href', `/project/${plain}/settings/addons?panel=pitr`)
  await expect(submitButton(page)).toBeEnabled()

  // Validated on blur, then on every change.
  await name.fill('')
  await expect(dialog.getByText(BRANCH_NAME_EMPTY)).toHaveCount(0)
  await name.blur()
  await expect(dialog.getByText(BRANCH_NAME_EMPTY)).toBeVisible()
  await expect(submitButton(page)).toBeDisabled()
  await name.fill('not valid')
  await expect(dialog.getByText(BRANCH_NAME_INVALID)).toBeVisible()
  await shot(page, 'dialog-invalid-name')
  await name.fill('production')
  await expect(dialog.getByText(BRANCH_NAME_INVALID)).toHaveCount(0)
  await expect(submitButton(page)).toBeEnabled()
  await shot(page, 'dialog-no-repository-flag-on')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()

  // The flag off by the query parameter: the repository is required and the submit stays disabled.
  dialog = await openEnableDialog(page, plain, '?branchingWithoutGit=false')
  await expect(dialog.getByText('Required', { exact: true })).toBeVisible()
  await expect(dialog.getByText(/Connect a repository to this project to enable branching/)).toBeVisible()
  await expect(submitButton(page)).toBeDisabled()
  await shot(page, 'dialog-no-repository-flag-off')

  // ... and by the localStorage key.
  await page.evaluate(() => window.localStorage.setItem('stratum.flags.branchingWithoutGit', 'false'))
  dialog = await openEnableDialog(page, plain)
  await expect(dialog.getByText('Required', { exact: true })).toBeVisible()
  await expect(submitButton(page)).toBeDisabled()
  await page.evaluate(() => window.localStorage.removeItem('stratum.flags.branchingWithoutGit'))

  // The server has the last word: the plan changed to free while the dialog was open -> the failure toast.
  dialog = await openEnableDialog(page, plain)
  await expect(submitButton(page)).toBeEnabled()
  await setPlan(page, orgSlug, 'free')
  try {
    await submitButton(page).click()
    await expect(page.getByText(/^Failed to enable branching: .+/)).toBeVisible()
    await expect(dialog).toBeVisible()
    await shot(page, 'dialog-enable-failed')
  } finally {
    await setPlan(page, orgSlug, 'pro')
  }
})

test('with a repository connected: the Git branch is required and checked against GitHub', async ({ page }) => {
  const { linked } = await setUp(page)
  const dialog = await openEnableDialog(page, linked)
  const gitBranch = dialog.getByLabel('Link GitHub Branch')
  await expect(gitBranch).toHaveValue('')
  await expect(dialog.getByRole('link', { name: E2E_GITHUB_REPOSITORY })).toHaveAttribute('href', `https://github.com/${E2E_GITHUB_REPOSITORY}`)
  await expect(submitButton(page)).toBeDisabled()
  await gitBranch.focus()
  await gitBranch.blur()
  await expect(dialog.getByText(GIT_BRANCH_REQUIRED)).toBeVisible()

  await gitBranch.fill('no-such-branch')
  await expect(dialog.getByText(`Unable to find branch "no-such-branch" in ${E2E_GITHUB_REPOSITORY}`)).toBeVisible()
  await expect(dialog.getByRole('img', { name: 'Branch not found' })).toBeVisible()
  await expect(submitButton(page)).toBeDisabled()
  await shot(page, 'dialog-git-branch-not-found')

  await gitBranch.fill('feature-x')
  await expect(dialog.getByRole('img', { name: 'Branch found' })).toBeVisible()
  await expect(dialog.getByText(/Unable to find branch/)).toHaveCount(0)
  await expect(submitButton(page)).toBeEnabled()
  await shot(page, 'dialog-git-branch-found')
})

test('enabling branching, then a branch with data, open, reset, the project deletion list, and delete', async ({ page }) => {
  // A branch made, reset and deleted on real instances: its waits (up to 60 s each) need more than the default 60 s in all.
  test.setTimeout(240_000)
  const { linked } = await setUp(page)
  await sql(page, linked, 'create table public.items (id int primary key, name text); insert into public.items values (1, $$one$$), (2, $$two$$), (3, $$three$$);')

  const dialog = await openEnableDialog(page, linked)
  await dialog.getByLabel('Link GitHub Branch').fill('main')
  await expect(dialog.getByRole('img', { name: 'Branch found' })).toBeVisible()
  await submitButton(page).click()
  await expect(page.getByText('Successfully enabled branching')).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL(new RegExp(`/project/${linked}/branches$`))
  const production = page.getByTestId('production-branch')
  await expect(production).toContainText('main')
  await expect(production).toContainText('Production')

  // A preview branch with the parent's rows.
  await page.getByRole('button', { name: 'Create branch' }).click()
  const create = page.getByRole('dialog', { name: 'Create branch' })
  await create.getByLabel('Branch name').fill('with-data')
  const includeData = create.getByRole('switch', { name: 'Include data' })
  await expect(includeData).not.toBeChecked()
  await includeData.click()
  await expect(create.getByText(/copy of production's rows/)).toBeVisible()
  await shot(page, 'create-branch-with-data')
  await create.getByRole('button', { name: 'Create branch' }).click()
  await expect(create).toBeHidden()

  const row = page.locator('[data-testid="preview-branch"][data-branch="with-data"]')
  await expect(row).toBeVisible()
  await expect(row).toContainText('With data')
  await expect(row).toContainText('main')
  await expect(row.getByTestId('branch-status')).toHaveAttribute('data-status', /MIGRATIONS_PASSED|FUNCTIONS_DEPLOYED/, { timeout: 60_000 })
  await expect(row.getByTestId('project-status')).toHaveAttribute('data-status', 'ACTIVE_HEALTHY', { timeout: 60_000 })
  await shot(page, 'branches-page')

  const branches = await apiCall(page, 'GET', `/v1/projects/${linked}/branches`)
  const branch = branches.find((candidate: { name: string }) => candidate.name === 'with-data')
  expect(branch.project_ref).not.toBe(linked)
  expect(await sql(page, branch.project_ref, 'select count(*)::int as n from public.items')).toEqual([{ n: 3 }])

  // Open goes to the branch's own project.
  await row.getByRole('link', { name: 'Open with-data' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${branch.project_ref}$`))
  await page.goBack()

  // Reset: a change made on the branch is gone, the parent's current rows are back.
  await sql(page, branch.project_ref, 'delete from public.items')
  await sql(page, linked, 'insert into public.items values (4, $$four$$)')
  await row.getByRole('button', { name: 'Actions for with-data' }).click()
  await page.getByRole('menuitem', { name: 'Reset branch' }).click()
  const reset = page.getByRole('dialog', { name: 'Reset branch with-data' })
  await reset.getByRole('button', { name: 'Reset branch' }).click()
  await expect(reset).toBeHidden()
  await expect
    .poll(async () => (await sql(page, branch.project_ref, 'select count(*)::int as n from public.items').catch(() => [{ n: -1 }]))[0]?.n, { timeout: 60_000 })
    .toBe(4)
  await expect(row.getByTestId('project-status')).toHaveAttribute('data-status', 'ACTIVE_HEALTHY', { timeout: 60_000 })

  // A migration made on the branch, and a table made outside migrations (the SQL editor's route): the diff compares
  // the schemas, so it shows both; the merge applies both to production.
  await apiCall(page, 'POST', `/v1/projects/${branch.project_ref}/database/migrations`, { name: 'add_notes', query: 'create table public.notes (id int primary key, body text)' })
  await sql(page, branch.project_ref, 'create table public.labels (id bigint primary key, label text not null)')
  await row.getByRole('button', { name: 'Actions for with-data' }).click()
  await page.getByRole('menuitem', { name: 'Show diff' }).click()
  const diff = page.getByRole('dialog', { name: 'Changes in with-data' })
  await expect(diff.getByLabel('Schema changes of with-data')).toContainText('create table public.notes')
  await expect(diff.getByLabel('Schema changes of with-data')).toContainText('CREATE TABLE public.labels')
  await shot(page, 'branch-diff')
  await diff.getByRole('button', { name: 'Close dialog' }).click()
  await row.getByRole('button', { name: 'Actions for with-data' }).click()
  await page.getByRole('menuitem', { name: 'Merge into production' }).click()
  const merge = page.getByRole('dialog', { name: 'Merge with-data into main' })
  await merge.getByRole('button', { name: 'Merge into production' }).click()
  await expect(page.getByText('Merged with-data into main')).toBeVisible()
  expect(await sql(page, linked, `select to_regclass('public.notes') is not null and to_regclass('public.labels') is not null as merged`)).toEqual([{ merged: true }])

  // Update from production: a migration made on production reaches the branch.
  await apiCall(page, 'POST', `/v1/projects/${linked}/database/migrations`, { name: 'add_tags', query: 'create table public.tags (id int primary key)' })
  await row.getByRole('button', { name: 'Actions for with-data' }).click()
  await page.getByRole('menuitem', { name: 'Update from production' }).click()
  await expect(page.getByText("Applied production's new migrations to with-data")).toBeVisible()
  expect(await sql(page, branch.project_ref, `select to_regclass('public.tags') is not null as pushed`)).toEqual([{ pushed: true }])

  // Deleting the project would take its preview branches: the confirmation names them.
  await page.goto(`/project/${linked}/settings/general`)
  await page.getByRole('button', { name: 'Delete project' }).click()
  const deletion = page.getByRole('dialog', { name: /Confirm deletion of/ })
  await expect(deletion.getByRole('list', { name: 'Preview branches deleted with the project' })).toContainText('with-data')
  await shot(page, 'delete-project-lists-branches')
  await deletion.getByRole('button', { name: 'Cancel' }).click()

  // Delete: typed confirmation with the branch's name.
  await page.goto(`/project/${linked}/branches`)
  await row.getByRole('button', { name: 'Actions for with-data' }).click()
  await page.getByRole('menuitem', { name: 'Delete branch' }).click()
  const remove = page.getByRole('dialog', { name: 'Delete branch with-data' })
  await remove.getByRole('textbox').fill('with-dat')
  await remove.getByRole('button', { name: 'Delete branch' }).click()
  await expect(remove.getByText('Value entered does not match.')).toBeVisible()
  await remove.getByRole('textbox').fill('with-data')
  await remove.getByRole('button', { name: 'Delete branch' }).click()
  await expect(remove).toBeHidden()
  await expect(row).toHaveCount(0, { timeout: 30_000 })
  await expect(page.getByText('No preview branches')).toBeVisible()
})

test('the PITR add-on: variants with prices, and the billing permission tooltip', async ({ page }) => {
  const { orgSlug, plain } = await setUp(page)
  await page.goto(`/project/${plain}/settings/addons?panel=pitr`)
  const card = page.locator('#pitr')
  await expect(card.getByRole('heading', { name: 'Point in time recovery' })).toBeVisible()
  await expect(card.getByRole('radio')).toHaveCount(3)
  await expect(card.getByRole('button', { name: 'Enable' })).toBeEnabled()
  await shot(page, 'addons-owner')

  // An administrator may not amend subscriptions.
  const admin = await memberByInvitation(page, orgSlug, 'administrator')
  await admin.page.goto(`/project/${plain}/addons`)
  const enable = admin.page.locator('#pitr').getByRole('button', { name: 'Enable' })
  await expect(enable).toHaveAttribute('aria-disabled', 'true')
  await enable.hover()
  await expect(admin.page.getByRole('tooltip')).toHaveText('You need additional permissions to amend subscriptions')
  await shot(admin.page, 'addons-no-billing-permission')
  await admin.page.context().close()

  // The Point in time page without the add-on prompts to enable it.
  await page.goto(`/project/${plain}/database/backups/pitr`)
  await expect(page.getByRole('heading', { name: 'Point in time recovery is not enabled' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Enable PITR' })).toHaveAttribute('href', `/project/${plain}/settings/addons?panel=pitr`)
  await shot(page, 'pitr-not-enabled')
})

test('point-in-time recovery: enable the add-on, the window, a branch from a moment, and a restore', async ({ page }) => {
  test.setTimeout(240_000)
  const { plain } = await setUp(page)
  await sql(page, plain, 'create table public.events (id int primary key); insert into public.events values (1), (2);')
  await page.goto(`/project/${plain}/addons`)
  const card = page.locator('#pitr')
  await card.getByRole('radio', { name: /14 days/ }).check()
  await card.getByRole('button', { name: 'Enable' }).click()
  await expect(page.getByText(/Point-in-time recovery enabled/)).toBeVisible()
  await expect
    .poll(async () => (await apiCall(page, 'GET', `/platform/projects/${plain}/status`)).status, { timeout: 60_000 })
    .toBe('ACTIVE_HEALTHY')

  // The window opens once the first base backup is done.
  await expect
    .poll(async () => (await apiCall(page, 'GET', `/platform/database/${plain}/backups`)).physical_backup_data?.latestPhysicalBackupDateUnix, { timeout: 90_000 })
    .toBeGreaterThan(0)
  await page.goto(`/project/${plain}/database/backups/pitr`)
  await expect(page.getByTestId('pitr-window')).toContainText('(UTC)')
  await expect(page.getByLabel('Date and time (UTC)')).not.toHaveValue('')
  await shot(page, 'pitr-window')

  // Branching is off on this project: the branch button says why.
  const fromPoint = page.getByRole('button', { name: 'Create a branch from this point' })
  await expect(fromPoint).toHaveAttribute('aria-disabled', 'true')
  await apiCall(page, 'POST', `/v1/projects/${plain}/branches`, { branch_name: 'main', is_default: true })
  await page.reload()
  await expect(fromPoint).toBeEnabled()
  await fromPoint.click()
  const create = page.getByRole('dialog', { name: 'Create branch' })
  await expect(create.getByRole('checkbox', { name: 'From a point in time' })).toBeChecked()
  await create.getByLabel('Branch name').fill('from-moment')
  await shot(page, 'pitr-create-branch')
  await create.getByRole('button', { name: 'Create branch' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${plain}/branches$`))
  const row = page.locator('[data-testid="preview-branch"][data-branch="from-moment"]')
  await expect(row).toContainText('From a point in time')
  await expect(row.getByTestId('project-status')).toHaveAttribute('data-status', 'ACTIVE_HEALTHY', { timeout: 90_000 })

  // Restore: the project goes RESTORING and its home shows the takeover screen, then 'Restoration complete!'.
  await page.goto(`/project/${plain}/database/backups/pitr`)
  await page.getByRole('button', { name: 'Restore to this point' }).click()
  const confirm = page.getByRole('dialog', { name: 'Restore to this point' })
  await confirm.getByRole('textbox').fill('Branching plain')
  await shot(page, 'pitr-restore-confirm')
  await confirm.getByRole('button', { name: 'Restore project' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${plain}$`))
  await expect(page.getByTestId(/restoring-screen|restore-complete-screen/)).toBeVisible()
  await shot(page, 'pitr-restoring')
  await expect(page.getByText('Restoration complete!')).toBeVisible({ timeout: 120_000 })
  expect(await sql(page, plain, 'select count(*)::int as n from public.events')).toEqual([{ n: 2 }])
})
