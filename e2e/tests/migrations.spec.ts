import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'

test('the Migrations page lists what the Management API applied, newest first, with its statements', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Migrations page')
  const stamp = Date.now().toString(36)
  await apiCall(page, 'POST', `/v1/projects/${project.ref}/database/migrations`, {
    name: `create_notes_${stamp}`,
    query: `create table notes_${stamp} (id bigint primary key, body text); create index on notes_${stamp} (body)`,
  })
  await apiCall(page, 'POST', `/v1/projects/${project.ref}/database/migrations`, { name: `add_title_${stamp}`, query: `alter table notes_${stamp} add column title text` })

  await page.goto(`/project/${project.ref}/database/migrations`)
  const list = page.getByRole('list', { name: 'Migrations' })
  const rows = list.getByRole('listitem')
  await expect(rows.first()).toContainText(`add_title_${stamp}`)
  const created = rows.filter({ hasText: `create_notes_${stamp}` })
  await created.getByRole('button').click()
  await expect(created.locator('pre')).toContainText(`create table notes_${stamp} (id bigint primary key, body text);`)
  await expect(created.locator('pre')).toContainText(`create index on notes_${stamp} (body);`)
  await expect(created).toContainText('Applied by owner@example.com')
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/migrations.png` })
})
