import { type Page } from '@playwright/test'
import pg from 'pg'
import { expect, test } from './fixtures'
import { apiCall, dismissToasts, healthyProject, memberByInvitation, signIn } from './helpers'

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string) {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/dba-${name}.png`, fullPage: true })
}

/** Runs SQL on the project's full connection through the SQL route; answers the last statement's rows. */
async function sql(page: Page, ref: string, query: string): Promise<Array<Record<string, unknown>>> {
  const response = await apiCall(page, 'POST', `/platform/pg-meta/${ref}/query`, { query, read_only: false, history: false })
  return response.results.at(-1).rows
}

/** Checks the SQL the page built, runs it from the preview dialog and waits for its toast. */
async function runPreview(page: Page, title: string, done: string, contains: string) {
  const dialog = page.getByRole('dialog', { name: title })
  await expect(dialog.getByLabel('SQL to run')).toContainText(contains)
  await dialog.getByRole('button', { name: 'Run SQL' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText(done)).toBeVisible()
  await dismissToasts(page)
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Product menu' })

test('an index created and listed with its size; a table toggled in supabase_realtime; the policies of every table in one place', async ({ page }) => {
  await signIn(page)
  const { ref } = await healthyProject(page, 'Database admin')
  await sql(
    page,
    ref,
    `create table public.orders (id bigint generated always as identity primary key, customer text, deleted_at timestamptz);
    insert into public.orders (customer) select 'c' || g from generate_series(1, 500) g`,
  )

  await page.goto(`/project/${ref}`)
  await menu(page).getByRole('link', { name: 'Indexes' }).click()
  await expect(page.getByRole('heading', { name: 'Indexes', level: 1 })).toBeVisible()
  const indexes = page.getByRole('table', { name: 'Indexes' })
  await expect(indexes.getByRole('row').filter({ hasText: 'orders_pkey' })).toBeVisible()
  await page.getByRole('button', { name: 'Create index' }).click()
  const form = page.getByRole('dialog', { name: 'New index in public' })
  await form.getByLabel('Table', { exact: true }).selectOption({ label: 'orders' })
  await form.getByRole('checkbox', { name: /customer/ }).check()
  await form.getByLabel('Name (optional)').fill('orders_open_customer')
  await form.getByLabel('WHERE (optional)').fill('deleted_at is null')
  await shot(page, 'index-dialog')
  await form.getByRole('button', { name: 'Review SQL' }).click()
  await runPreview(page, 'Create an index on orders', 'Index created', 'CREATE INDEX "orders_open_customer" ON "public"."orders" USING btree ("customer")')
  const created = indexes.getByRole('row').filter({ hasText: 'orders_open_customer' })
  await expect(created).toContainText('WHERE (deleted_at IS NULL)')
  // Its size as Postgres reports it (500 rows: more than the empty index's 8 kB page).
  await expect(created.getByRole('cell', { name: /^\d+ kB$/ })).toBeVisible()
  // The primary key's index belongs to its constraint: no drop from here.
  await expect(indexes.getByRole('button', { name: 'Drop index orders_pkey' })).toHaveAttribute('aria-disabled', 'true')
  await shot(page, 'indexes')

  await menu(page).getByRole('link', { name: 'Publications' }).click()
  await page.getByRole('button', { name: 'Tables of supabase_realtime', exact: true }).click()
  const toggle = page.getByRole('switch', { name: 'Publish orders in supabase_realtime' })
  await expect(toggle).toHaveAttribute('aria-checked', 'false')
  await toggle.click()
  await runPreview(
    page,
    'Add orders to supabase_realtime',
    'Table orders added to supabase_realtime',
    'ALTER PUBLICATION "supabase_realtime" ADD TABLE "public"."orders";',
  )
  await expect(toggle).toHaveAttribute('aria-checked', 'true')
  const realtimeRow = page
    .getByRole('table', { name: 'Publications' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'supabase_realtime', exact: true }) })
  await expect(realtimeRow).toContainText('1 table')
  const published = await sql(page, ref, `select tablename from pg_publication_tables where pubname = 'supabase_realtime'`)
  expect(published).toEqual([{ tablename: 'orders' }])
  await shot(page, 'publications')

  await menu(page).getByRole('link', { name: 'Policies' }).click()
  const card = page.getByRole('region', { name: 'Policies of orders' })
  await expect(card).toContainText('RLS disabled')
  await card.getByRole('button', { name: 'Edit the policies of orders' }).click()
  await card.getByRole('switch', { name: 'Row Level Security' }).click()
  await runPreview(page, 'Enable Row Level Security on orders', 'Row Level Security enabled', 'ENABLE ROW LEVEL SECURITY')
  await expect(card).toContainText('RLS enabled')
  // A policy made with the table editor's own form, listed with the others once the editor is closed.
  await card.getByRole('button', { name: 'New policy' }).click()
  const policy = page.getByRole('dialog', { name: 'New policy on orders' })
  await policy.getByLabel('Policy name').fill('customers read theirs')
  await policy.getByRole('checkbox', { name: 'authenticated' }).check()
  await policy.getByLabel('USING expression').fill("customer = auth.jwt() ->> 'sub'")
  await policy.getByRole('button', { name: 'Review SQL' }).click()
  await runPreview(page, 'Create policy customers read theirs', 'Policy customers read theirs created', 'CREATE POLICY "customers read theirs" ON "public"."orders"')
  await card.getByRole('button', { name: 'Close the policies of orders' }).click()
  await expect(card.getByRole('row').filter({ hasText: 'customers read theirs' })).toContainText('authenticated')
  await shot(page, 'policies')
})

test('a custom role created and granted select on one table, refused the forbidden attributes; a Read-only member browses', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Database admin')
  const ref = project.ref
  await sql(page, ref, 'create table if not exists public.invoices (id bigint primary key); create table if not exists public.secrets (id bigint primary key)')

  await page.goto(`/project/${ref}/database/roles`)
  await expect(page.getByRole('table', { name: 'Platform and API roles' }).getByRole('row').filter({ hasText: 'authenticator' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Edit role authenticator' })).toHaveAttribute('aria-disabled', 'true')
  await page.getByRole('button', { name: 'Create role' }).click()
  const form = page.getByRole('dialog', { name: 'New role' })
  await form.getByLabel('Name', { exact: true }).fill('reporting')
  await form.getByLabel('Password (optional)').fill('reporting-password-1')
  await form.getByRole('checkbox', { name: 'Can log in' }).check()
  // Superuser and replication are not the project's to give: shown, never on.
  await expect(form.getByRole('checkbox', { name: /^Superuser/ })).toBeDisabled()
  await expect(form.getByRole('checkbox', { name: /^Replication/ })).toBeDisabled()
  await shot(page, 'role-dialog')
  await form.getByRole('button', { name: 'Review SQL' }).click()
  await runPreview(page, 'Create role reporting', 'Role reporting created', 'CREATE ROLE "reporting" WITH LOGIN')
  const row = page.getByRole('table', { name: 'Your roles' }).getByRole('row').filter({ hasText: 'reporting' })
  await expect(row).toContainText('Login')
  await shot(page, 'roles-top')

  await row.getByRole('button', { name: 'Grants of reporting' }).click()
  const grants = page.getByRole('table', { name: 'Table grants of reporting' })
  const select = grants.getByRole('row').filter({ hasText: 'invoices' }).getByRole('switch', { name: 'SELECT on invoices' })
  await select.click()
  await runPreview(
    page,
    'Grant SELECT on invoices to reporting',
    'SELECT on invoices granted to reporting',
    'GRANT SELECT ON TABLE "public"."invoices" TO "reporting";',
  )
  await expect(select).toHaveAttribute('aria-checked', 'true')
  await shot(page, 'roles')
  // The role logs in with the password hashed in the browser, and reads the table it was granted and no other.
  const details = await apiCall(page, 'GET', `/platform/projects/${ref}`)
  const client = new pg.Client({ host: details.db_host, port: details.db_port, database: details.db_name, user: 'reporting', password: 'reporting-password-1' })
  client.on('error', () => {})
  await client.connect()
  try {
    expect((await client.query('select count(*)::int as n from public.invoices')).rows).toEqual([{ n: 0 }])
    await expect(client.query('select * from public.secrets')).rejects.toThrow('permission denied')
  } finally {
    await client.end()
  }

  // Of all the roles in the project, postgres may change only the one it made: none of the platform's.
  expect(await sql(page, ref, `select rolname from pg_roles where pg_has_role('postgres', oid, 'MEMBER WITH ADMIN OPTION') order by 1`)).toEqual([
    { rolname: 'reporting' },
  ])
  // The database itself refuses the forbidden attributes, whoever writes the SQL.
  for (const attribute of ['SUPERUSER', 'REPLICATION']) {
    const refused = await page.request.post(`/platform/pg-meta/${ref}/query`, {
      data: { query: `alter role reporting ${attribute}`, read_only: false, history: false },
      headers: { origin: new URL(page.url()).origin },
    })
    expect(refused.status()).toBeGreaterThanOrEqual(400)
    expect(await refused.text()).toContain('permission denied')
  }
  const attributes = await sql(page, ref, `select rolsuper, rolreplication from pg_roles where rolname = 'reporting'`)
  expect(attributes).toEqual([{ rolsuper: false, rolreplication: false }])

  const reader = await memberByInvitation(page, project.orgSlug, 'read_only')
  await reader.page.goto(`/project/${ref}/database/roles`)
  await expect(reader.page.getByRole('table', { name: 'Your roles' }).getByRole('row').filter({ hasText: 'reporting' })).toBeVisible()
  await expect(reader.page.getByRole('button', { name: 'Create role' })).toHaveAttribute('aria-disabled', 'true')
  await expect(reader.page.getByRole('button', { name: 'Drop role reporting' })).toHaveAttribute('aria-disabled', 'true')
  await shot(reader.page, 'roles-read-only')
})
