import { PERMISSION_TEXTS } from '@stratum/contracts'
import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, dismissToasts, healthyProject, memberByInvitation, replaceEditorText, signIn } from './helpers'

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string) {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/dbo-${name}.png`, fullPage: true })
}

/** Runs SQL on the project's full connection through the SQL route; answers the last statement's rows. */
async function sql(page: Page, ref: string, query: string): Promise<Array<Record<string, unknown>>> {
  const response = await apiCall(page, 'POST', `/platform/pg-meta/${ref}/query`, { query, read_only: false, history: false })
  return response.results.at(-1).rows
}

/** Reviews the SQL a form built and runs it from the preview dialog, waiting for its toast. */
async function runPreview(page: Page, title: string, done: string, contains: string, screenshot?: string) {
  const dialog = page.getByRole('dialog', { name: title })
  await expect(dialog.getByLabel('SQL to run')).toContainText(contains)
  if (screenshot) await shot(page, screenshot)
  await dialog.getByRole('button', { name: 'Run SQL' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText(done)).toBeVisible()
  await dismissToasts(page)
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Product menu' })

test('a function and a trigger created from the pages write an audit row when the table changes; an enum value added', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Database objects')
  const ref = project.ref
  await sql(
    page,
    ref,
    `create table public.notes (id bigint generated always as identity primary key, body text);
     create table public.audit_log (id bigint generated always as identity primary key, note text not null);
     alter table public.notes enable row level security;
     alter publication supabase_realtime add table public.notes`,
  )

  // Tables: size, estimated rows, RLS and Realtime, and a link into the table editor.
  await page.goto(`/project/${ref}/database`)
  await expect(page).toHaveURL(new RegExp(`/project/${ref}/database/tables$`))
  const tables = page.getByRole('table', { name: 'Tables' })
  const notesRow = tables.getByRole('row').filter({ has: page.getByRole('link', { name: 'notes', exact: true }) })
  const auditRow = tables.getByRole('row').filter({ has: page.getByRole('link', { name: 'audit_log', exact: true }) })
  // Columns: name, description, rows, size, RLS, Realtime.
  await expect(notesRow.getByRole('cell').nth(3)).toHaveText(/^\d+ (bytes|kB)$/)
  await expect(notesRow.getByRole('cell').nth(4)).toHaveText('Enabled')
  await expect(notesRow.getByRole('cell').nth(5)).toHaveText('Enabled')
  await expect(auditRow.getByRole('cell').nth(5)).toHaveText('Disabled')
  await shot(page, 'tables')

  // A trigger function, its body typed into Monaco.
  await menu(page).getByRole('link', { name: 'Functions', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Functions', level: 1 })).toBeVisible()
  await page.getByRole('button', { name: 'Create a new function' }).click()
  const form = page.getByRole('form', { name: 'Create function' })
  await shot(page, 'function-form')
  await form.getByLabel('Name').fill('log_note_change')
  await form.getByLabel('Return type').fill('trigger')
  await expect(form.getByLabel('Language')).toHaveValue('plpgsql')
  await form.getByLabel('Security').selectOption('definer')
  await form.getByLabel('search_path').fill("''")
  await replaceEditorText(
    form.getByTestId('function-definition').locator('.monaco-editor'),
    "begin\n  insert into public.audit_log (note) values (tg_op || ':' || new.body);\n  return new;\nend;",
  )
  await shot(page, 'function-editor')
  await page.getByRole('button', { name: 'Review SQL' }).click()
  await runPreview(page, 'Create function log_note_change', 'Function log_note_change created', "SET search_path = ''")
  const functionRow = page.getByRole('table', { name: 'Functions' }).getByRole('row').filter({ hasText: 'log_note_change' })
  await expect(functionRow).toContainText('trigger')
  await expect(functionRow).toContainText('Definer')
  await shot(page, 'functions')

  // A trigger on notes calling it, after INSERT or UPDATE, for each row.
  await menu(page).getByRole('link', { name: 'Triggers', exact: true }).click()
  await page.getByRole('button', { name: 'Create a new trigger' }).click()
  const create = page.getByRole('dialog', { name: 'Create a new trigger' })
  await create.getByLabel('Name').fill('notes_audit')
  await create.getByLabel('Table').selectOption({ label: 'notes' })
  await create.getByLabel('Function').selectOption({ label: 'public.log_note_change' })
  await create.getByLabel('UPDATE').check()
  await shot(page, 'trigger-dialog')
  await create.getByRole('button', { name: 'Review SQL' }).click()
  await runPreview(page, 'Create trigger notes_audit', 'Trigger notes_audit created', 'AFTER INSERT OR UPDATE ON "public"."notes"', 'trigger-preview')
  const triggerRow = page.getByRole('table', { name: 'Triggers' }).getByRole('row').filter({ hasText: 'notes_audit' })
  await expect(triggerRow).toContainText('public.log_note_change')
  await expect(triggerRow.getByRole('switch', { name: 'Disable trigger notes_audit' })).toHaveAttribute('aria-checked', 'true')
  await shot(page, 'triggers')

  await sql(page, ref, "insert into public.notes (body) values ('hello')")
  expect(await sql(page, ref, 'select note from public.audit_log order by id')).toEqual([{ note: 'INSERT:hello' }])

  // Disabled, it writes nothing more.
  await triggerRow.getByRole('switch', { name: 'Disable trigger notes_audit' }).click()
  await runPreview(page, 'Disable trigger notes_audit', 'Trigger notes_audit disabled', 'DISABLE TRIGGER "notes_audit"')
  await expect(triggerRow.getByRole('switch', { name: 'Enable trigger notes_audit' })).toHaveAttribute('aria-checked', 'false')
  await sql(page, ref, "update public.notes set body = 'quiet'")
  expect(await sql(page, ref, 'select count(*)::int as n from public.audit_log')).toEqual([{ n: 1 }])

  // A function with arguments, one row each (mode, name, type, default).
  await menu(page).getByRole('link', { name: 'Functions', exact: true }).click()
  await page.getByRole('button', { name: 'Create a new function' }).click()
  const withArgs = page.getByRole('form', { name: 'Create function' })
  await withArgs.getByLabel('Name', { exact: true }).fill('note_count')
  await withArgs.getByRole('button', { name: 'Add argument' }).click()
  await withArgs.getByLabel('Name of argument 1').fill('prefix')
  await withArgs.getByRole('button', { name: 'Add argument' }).click()
  await withArgs.getByLabel('Name of argument 2').fill('at_least')
  await withArgs.getByLabel('Type of argument 2').fill('integer')
  await withArgs.getByLabel('Default of argument 2').fill('0')
  await withArgs.getByLabel('Return type').fill('integer')
  await withArgs.getByLabel('Language').selectOption('sql')
  await replaceEditorText(withArgs.getByTestId('function-definition').locator('.monaco-editor'), "select greatest(count(*)::int, at_least) from public.notes where body like prefix || '%'")
  await shot(page, 'function-arguments')
  await page.getByRole('button', { name: 'Review SQL' }).click()
  await runPreview(page, 'Create function note_count', 'Function note_count created', '"public"."note_count"("prefix" text, "at_least" integer DEFAULT 0)')
  await expect(page.getByRole('table', { name: 'Functions' }).getByRole('row').filter({ hasText: 'note_count' })).toContainText('prefix text, at_least integer DEFAULT 0')
  expect(await sql(page, ref, "select public.note_count('qu') as n, public.note_count('zz', 5) as m")).toEqual([{ n: 1, m: 5 }])

  // An enumerated type created, then a value added and another renamed.
  await menu(page).getByRole('link', { name: 'Enumerated Types', exact: true }).click()
  await page.getByRole('button', { name: 'Create a new type' }).click()
  const newType = page.getByRole('dialog', { name: 'Create a new enumerated type' })
  await newType.getByLabel('Name').fill('mood')
  await newType.getByLabel('Value 1').fill('happy')
  await newType.getByRole('button', { name: 'Add value' }).click()
  await newType.getByLabel('Value 2').fill('sad')
  await newType.getByRole('button', { name: 'Review SQL' }).click()
  await runPreview(page, 'Create type mood', 'Type mood created', `AS ENUM ('happy', 'sad')`)
  await page.getByRole('button', { name: 'Edit type mood' }).click()
  const editType = page.getByRole('dialog', { name: 'Edit type mood' })
  await editType.getByLabel('Value 2').fill('blue')
  await editType.getByRole('button', { name: 'Add value' }).click()
  await editType.getByLabel('Value 3').fill('calm')
  await editType.getByRole('button', { name: 'Review SQL' }).click()
  await runPreview(page, 'Update type mood', 'Type mood updated', `ADD VALUE 'calm'`)
  const typeRow = page.getByRole('table', { name: 'Enumerated types' }).getByRole('row').filter({ hasText: 'mood' })
  await expect(typeRow.locator('.badge')).toHaveText(['happy', 'blue', 'calm'])
  await shot(page, 'types')
  expect(await sql(page, ref, 'select enum_range(null::public.mood)::text as r')).toEqual([{ r: '{happy,blue,calm}' }])
})

test('a Read-only member browses the Database pages with their controls disabled', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Database objects')
  // Its own objects, whether or not the test above ran.
  await sql(
    page,
    project.ref,
    `create table if not exists public.ro_items (id int);
     create or replace function public.ro_touch() returns trigger language plpgsql as $$ begin return new; end $$;
     create or replace trigger ro_touch after insert on public.ro_items for each row execute function public.ro_touch()`,
  )
  const reader = (await memberByInvitation(page, project.orgSlug, 'read_only')).page
  await reader.goto(`/project/${project.ref}/database/functions`)
  const createFunction = reader.getByRole('button', { name: 'Create a new function' })
  await expect(createFunction).toHaveAttribute('aria-disabled', 'true')
  await expect(createFunction).toHaveAccessibleDescription(PERMISSION_TEXTS.changeDatabase)
  await expect(reader.getByRole('table', { name: 'Functions' }).getByRole('row').filter({ hasText: 'ro_touch' })).toBeVisible()
  await reader.goto(`/project/${project.ref}/database/triggers`)
  await expect(reader.getByRole('switch', { name: 'Disable trigger ro_touch' })).toHaveAttribute('aria-disabled', 'true')
  await expect(reader.getByRole('button', { name: 'Delete trigger ro_touch' })).toHaveAttribute('aria-disabled', 'true')
  await shot(reader, 'read-only-triggers')
})
