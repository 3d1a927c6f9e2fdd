import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, replaceEditorText, signIn } from './helpers'

function typeSql(page: Page, sql: string) {
  return replaceEditorText(page.getByTestId('sql-editor').locator('.monaco-editor'), sql)
}

test('the Realtime inspector shows a row inserted from the SQL editor, and a broadcast it sends', async ({ page }) => {
  // About 25 s on a machine like CI's: room for one twice as slow.
  test.setTimeout(120_000)
  await signIn(page)
  const project = await healthyProject(page, 'Realtime inspector')
  const table = `rt_items_${Date.now()}`
  // A table anyone may read, in the supabase_realtime publication.
  await apiCall(page, 'POST', `/platform/pg-meta/${project.ref}/query`, {
    query: `create table public.${table} (id int primary key, name text);
      alter table public.${table} enable row level security;
      create policy "readable" on public.${table} for select to anon using (true);
      alter publication supabase_realtime add table public.${table};`,
    read_only: false,
  })

  await page.goto(`/project/${project.ref}`)
  await page.getByRole('navigation').getByRole('link', { name: 'Realtime', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Realtime Inspector' })).toBeVisible()
  await page.getByLabel('Table', { exact: true }).fill(table)
  await page.getByRole('button', { name: 'Start listening' }).click()
  const status = page.locator('.realtime-status')
  await expect(status).toHaveAttribute('data-status', 'listening')
  const messages = page.getByTestId('realtime-messages')
  // The server says when the Postgres changes subscription is live: rows written before that are not sent.
  await expect(messages.getByText('Subscribed to PostgreSQL')).toBeVisible()

  // The SQL editor, in another tab of the same session.
  const editor = await page.context().newPage()
  await editor.goto(`/project/${project.ref}/sql`)
  await typeSql(editor, `insert into public.${table} values (1, 'from the editor');`)
  await editor.getByRole('button', { name: 'Run', exact: true }).click()
  await editor.getByRole('dialog', { name: 'Potential issue detected with your query' }).getByRole('button', { name: 'Run', exact: true }).click()
  await expect(editor.getByText('Success. No rows returned')).toBeVisible()
  await editor.close()

  const insert = messages.getByRole('listitem').filter({ hasText: 'postgres_changes' }).filter({ hasText: 'INSERT' })
  // A delivery whose reads fail on a busy instance is tried again for about 12 s (changes/project-changes.ts).
  await expect(insert).toContainText('"name": "from the editor"', { timeout: 30_000 })
  await expect(insert).toContainText(`"table": "${table}"`)

  // A broadcast from the inspector comes back to it (self).
  await page.getByLabel('Event').fill('ping')
  await page.getByLabel('Payload').fill('{ "n": 1 }')
  await page.getByRole('button', { name: 'Send broadcast' }).click()
  await expect(messages.getByRole('listitem').filter({ hasText: 'broadcast' }).filter({ hasText: 'ping' })).toContainText('"n": 1')

  await page.getByRole('button', { name: 'Stop listening' }).click()
  await expect(status).toHaveAttribute('data-status', 'closed')
})
