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
  const ref = new URL(page.url()).pathname.split('/')[2]!
  const status = page.getByTestId('project-status').first()
  // A new project's first start (initdb included) can take a while on a busy 2-core machine.
  await expect(status).toHaveAttribute('data-status', 'ACTIVE_HEALTHY', { timeout: 45_000 })
  await expect(page).toHaveTitle(/Journey \| .+ \| Stratum$/)

  // The connection details on the page are enough for any Postgres client.
  const host = await page.getByLabel('Host', { exact: true }).inputValue()
  const port = Number(await page.getByLabel('Port', { exact: true }).inputValue())
  const database = await page.getByRole('textbox', { name: 'Database', exact: true }).inputValue()
  const user = await page.getByLabel('User', { exact: true }).inputValue()
  const client = new pg.Client({ host, port, database, user, password: 'journey-db-password-1' })
  client.on('error', () => {})
  await client.connect()
  await client.query('CREATE TABLE journey (id int)')
  expect((await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'journey'")).rows[0].n).toBe(1)
  await client.end()

  // What an app needs is on the home page too: the project URL and the anon key reach the new table.
  const apiUrl = await page.getByLabel('Project URL', { exact: true }).inputValue()
  const anonKey = await page.getByLabel('API key (anon, public)', { exact: true }).inputValue()
  const rows = await fetch(`${apiUrl}/rest/v1/journey?select=id`, { headers: { apikey: anonKey } })
  expect([rows.status, await rows.json()]).toEqual([200, []])
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  const connect = page.getByRole('dialog', { name: 'Connect to your project' })
  await expect(connect.getByRole('region', { name: 'App with supabase-js' })).toContainText(`createClient('${apiUrl}', '${anonKey}')`)
  await expect(connect.getByRole('region', { name: 'Direct Postgres connection' })).toContainText(`psql -h ${host} -p ${port}`)
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/connect-dialog.png`, animations: 'disabled' })
  await page.keyboard.press('Escape')

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

  // The owner renames the project in General settings: the page header and the title follow, the ref stays.
  await page.goto(`/project/${ref}/settings/general`)
  const details = page.getByRole('form', { name: 'Project details' })
  await details.getByLabel('Project name').fill('Journey renamed')
  await details.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Project renamed to Journey renamed')).toBeVisible()
  await expect(page).toHaveTitle(/Journey renamed \| .+ \| Stratum$/)
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/project-renamed.png`, animations: 'disabled' })
  await page.getByRole('link', { name: 'Home' }).first().click()
  await expect(page.getByRole('heading', { name: 'Journey renamed', level: 1 })).toBeVisible()
})
