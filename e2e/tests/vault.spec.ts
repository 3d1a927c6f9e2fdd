import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { healthyProject, memberByInvitation, replaceEditorText, signIn } from './helpers'

function typeSql(page: Page, sql: string) {
  return replaceEditorText(page.getByTestId('sql-editor').locator('.monaco-editor'), sql)
}

/** Runs the editor's SQL; a read the read-only connection refuses (the decrypted view) is confirmed with write access. */
async function runSql(page: Page, sql: string, needsWriteAccess: boolean) {
  await typeSql(page, sql)
  await page.keyboard.press('ControlOrMeta+Enter')
  if (needsWriteAccess) {
    const escalation = page.getByRole('dialog', { name: 'Run this query with write access?' })
    await escalation.getByRole('button', { name: 'Run with write access' }).click()
    await expect(escalation).toBeHidden()
  }
  return page.getByRole('grid', { name: 'Query results' })
}

test('a Vault secret created on the page and read through vault.decrypted_secrets in the SQL editor, while the raw table shows ciphertext', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page)
  const project = await healthyProject(page, 'Vault')
  const name = `stripe_key_${Date.now()}`
  const value = `sk_test_${Date.now()}_e2e`

  await page.goto(`/project/${project.ref}/settings/vault`)
  await expect(page.getByRole('heading', { name: 'Vault', level: 1 })).toBeVisible()
  await page.getByRole('button', { name: 'Add new secret' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add new secret' })
  await dialog.getByLabel('Name').fill(name)
  await dialog.getByLabel('Description').fill('Stripe test key')
  await dialog.getByLabel('Secret value').fill(value)
  await dialog.getByRole('button', { name: 'Add secret' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('Successfully added new secret')).toBeVisible()
  const row = page.getByRole('table', { name: 'Secrets' }).getByRole('row').filter({ hasText: name })
  await expect(row).toContainText('Stripe test key')
  await expect(row).not.toContainText(value)
  await row.getByRole('button', { name: `Reveal ${name}` }).click()
  await expect(row.getByTestId('vault-revealed-value')).toHaveText(value)

  // SQL reads the value through the view (on the full connection: the read-only one may not decrypt).
  await page.goto(`/project/${project.ref}/sql`)
  const decrypted = await runSql(page, `select name, decrypted_secret from vault.decrypted_secrets where name = '${name}'`, true)
  await expect(decrypted.getByRole('gridcell', { name: value, exact: true })).toBeVisible()

  // The table itself holds base64 ciphertext, never the value.
  const raw = await runSql(page, `select name, secret from vault.secrets where name = '${name}'`, false)
  await expect(raw.getByRole('columnheader', { name: 'secret' })).toBeVisible()
  await expect(raw.getByRole('gridcell', { name: name, exact: true })).toBeVisible()
  await expect(raw.getByRole('gridcell', { name: /^[A-Za-z0-9+/=\s]{60,}$/ })).toBeVisible()
  await expect(raw.getByText(value)).toHaveCount(0)

  // A Read-only member lists the secret but can neither reveal nor change it.
  const reader = await memberByInvitation(page, project.orgSlug, 'read_only')
  await reader.page.goto(`/project/${project.ref}/settings/vault`)
  const readerRow = reader.page.getByRole('table', { name: 'Secrets' }).getByRole('row').filter({ hasText: name })
  await expect(readerRow).toBeVisible()
  await expect(readerRow.getByRole('button', { name: `Reveal ${name}` })).toHaveAttribute('aria-disabled', 'true')
  await expect(readerRow.getByRole('button', { name: `Reveal ${name}` })).toHaveAccessibleDescription('You need additional permissions to reveal Vault secrets')
  await expect(readerRow.getByRole('button', { name: `Delete ${name}` })).toHaveAttribute('aria-disabled', 'true')
  await expect(reader.page.getByRole('button', { name: 'Add new secret' })).toHaveAttribute('aria-disabled', 'true')

  // The owner edits the value (the list shows the new one on reveal), then deletes the secret.
  await page.goto(`/project/${project.ref}/settings/vault`)
  await row.getByRole('button', { name: `Edit ${name}` }).click()
  const edit = page.getByRole('dialog', { name: `Edit secret ${name}` })
  await edit.getByLabel('New secret value').fill(`${value}-rotated`)
  await edit.getByRole('button', { name: 'Update secret' }).click()
  await expect(page.getByText('Successfully updated secret')).toBeVisible()
  await row.getByRole('button', { name: `Reveal ${name}` }).click()
  await expect(row.getByTestId('vault-revealed-value')).toHaveText(`${value}-rotated`)
  await row.getByRole('button', { name: `Delete ${name}` }).click()
  const confirm = page.getByRole('dialog', { name: `Delete secret ${name}` })
  await confirm.getByLabel(`Type ${name} to confirm.`).fill(name)
  await confirm.getByRole('button', { name: 'Delete secret' }).click()
  await expect(page.getByText('Successfully deleted secret')).toBeVisible()
  await expect(row).toHaveCount(0)
})
