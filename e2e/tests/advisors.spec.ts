import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/${name}.png`, fullPage: true })
}

test('the Advisors page lists the security and performance lints of the project, with their fixes, and an empty state', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Advisors')
  await page.goto(`/project/${project.ref}`)
  await page.getByRole('navigation', { name: 'Product menu' }).getByRole('link', { name: 'Advisors' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/advisors/security$`))
  await expect(page.getByRole('heading', { name: 'Advisors', level: 1 })).toBeVisible()
  await expect(page.getByText('No security issues found in this project’s database.')).toBeVisible()
  await shot(page, 'advisors-empty')

  await apiCall(page, 'POST', `/v1/projects/${project.ref}/database/query`, {
    query: `
      create table public.notes (id bigint primary key, owner uuid, body text);
      create table public.tags (id bigint primary key, note_id bigint references public.notes (id));
      alter table public.tags enable row level security;
      create policy "own tags" on public.tags for select using (note_id in (select id from public.notes where owner = auth.uid()));
      create function public.shout(t text) returns text language sql as 'select upper(t)';`,
  })
  await page.reload()
  const findings = page.getByRole('list', { name: 'Findings' })
  const notes = findings.getByRole('listitem').filter({ hasText: 'RLS Disabled in Public' })
  await expect(notes).toContainText('ERROR')
  await expect(notes).toContainText('table public.notes')
  await expect(notes.getByRole('code').filter({ hasText: 'public.notes' }).first()).toBeVisible()
  await expect(notes.getByRole('link', { name: 'How to fix it' })).toHaveAttribute('href', 'https://supabase.com/docs/guides/database/database-linter?lint=0013_rls_disabled_in_public')
  const search = findings.getByRole('listitem').filter({ hasText: 'Function Search Path Mutable' })
  await expect(search).toContainText('WARN')
  await expect(search).toContainText('function public.shout')
  // Worst first: the ERROR comes before the WARN.
  await expect(findings.getByRole('listitem').first()).toContainText('ERROR')
  await shot(page, 'advisors-security')

  await page.getByRole('navigation', { name: 'Advisors' }).getByRole('link', { name: 'Performance' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/advisors/performance$`))
  const initplan = findings.getByRole('listitem').filter({ hasText: 'Auth RLS Initialization Plan' })
  await expect(initplan).toContainText('own tags')
  await expect(initplan.getByRole('link', { name: 'docs' })).toHaveAttribute('href', /row-level-security#call-functions-with-select/)
  await expect(findings.getByRole('listitem').filter({ hasText: 'Unindexed foreign keys' })).toContainText('tags_note_id_fkey')
  await shot(page, 'advisors-performance')
})
