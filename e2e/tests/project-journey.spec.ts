import fs from 'node:fs'
import { expect, test } from './fixtures'
import pg from 'pg'
import { OWNER, signInWithForm } from './helpers'

test('a new user signs in, creates a project, watches it become healthy and connects to it', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveURL(/\/sign-in/)
  await expect(page).toHaveTitle('Sign in | Stratum')

  await page.getByLabel('Email').fill(OWNER.email)
  await page.getByLabel('Password', { exact: true }).fill('not-the-password')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByText('Invalid email or password')).toBeVisible()

  await signInWithForm(page, OWNER.email, OWNER.password)
  await expect(page).toHaveURL(/\/organizations/)
  await expect(page).toHaveTitle(/\| Stratum$/)

  await page.getByRole('link', { name: /owner's Org/ }).click()
  await expect(page).toHaveURL(/\/org\/[\w-]+/)
  await page.getByRole('button', { name: 'New project' }).click()
  await expect(page).toHaveURL(/\/new\/[\w-]+/)
  await expect(page).toHaveTitle(/^New project \| .+ \| Stratum$/)

  await page.getByLabel('Project name').fill('Journey')
  await page.getByLabel('Database password', { exact: true }).fill('journey-db-password-1')
  await page.getByRole('button', { name: 'Create new project' }).click()

  await expect(page).toHaveURL(/\/project\/[a-z]{20}$/)
  const status = page.getByTestId('project-status').first()
  // A new project's first start (initdb included) can take a while on a busy 2-core machine.
  await expect(status).toHaveAttribute('data-status', 'ACTIVE_HEALTHY', { timeout: 45_000 })
  await expect(page).toHaveTitle(/Journey \| .+ \| Stratum$/)

  // The connection details on the page are enough for any Postgres client.
  const host = await page.getByLabel('Host', { exact: true }).inputValue()
  const port = Number(await page.getByLabel('Port', { exact: true }).inputValue())
  const database = await page.getByLabel('Database', { exact: true }).inputValue()
  const user = await page.getByLabel('User', { exact: true }).inputValue()
  const client = new pg.Client({ host, port, database, user, password: 'journey-db-password-1' })
  client.on('error', () => {})
  await client.connect()
  await client.query('CREATE TABLE journey (id int)')
  expect((await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'journey'")).rows[0].n).toBe(1)
  await client.end()

  // The password is never shown again: the owner resets it and sees the new one once.
  await page.getByRole('button', { name: 'Reset database password' }).click()
  const resetDialog = page.getByRole('dialog', { name: 'Reset database password' })
  await resetDialog.getByLabel('Database password', { exact: true }).fill('journey-db-password-2')
  await resetDialog.getByRole('button', { name: 'Reset password' }).click()
  const updated = page.getByRole('dialog', { name: 'Database password updated' })
  await expect(updated.getByLabel('New database password')).toHaveValue('journey-db-password-2')
  await updated.getByRole('button', { name: 'Done' }).click()
  const again = new pg.Client({ host, port, database, user, password: 'journey-db-password-2' })
  again.on('error', () => {})
  await again.connect()
  await again.end()

  // The installation's CA certificate, for sslmode=verify-full.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download certificate' }).click()])
  expect(download.suggestedFilename()).toBe('stratum-ca.crt')
  expect(fs.readFileSync(await download.path(), 'utf8')).toContain('-----BEGIN CERTIFICATE-----')
})
