import { API_KEY_TEXTS } from '@stratum/contracts'
import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import pg from 'pg'
import { apiCall, healthyProject, memberByInvitation, recordShown, signIn } from './helpers'

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

const DB_PASSWORD = 'e2e-db-password-1' // healthyProject's

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

/** A member of the organization with `role`, signed in on a page of their own (joined by invitation). */
async function memberPage(owner: Page, orgSlug: string, role: 'developer' | 'read_only'): Promise<Page> {
  return (await memberByInvitation(owner, orgSlug, role)).page
}

test('an owner copies the keys, rotates the JWT secret and turns the legacy keys off and on', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Keys')
  await page.goto(`/project/${project.ref}/settings/api`)
  await expect(page.getByRole('heading', { name: 'Project API Keys' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Project Configuration' })).toBeVisible()

  const settings = await apiCall(page, 'GET', `/platform/projects/${project.ref}/settings`)
  const anonKey: string = settings.service_api_keys.find((k: { tags: string }) => k.tags === 'anon').api_key
  const serviceKey: string = settings.service_api_keys.find((k: { tags: string }) => k.tags === 'service_role').api_key

  // anon is public and shown; service_role is a secret, masked until revealed.
  const anon = page.getByLabel('anon', { exact: true })
  const service = page.getByLabel('service_role', { exact: true })
  await expect(anon).toHaveValue(anonKey)
  await expect(service).not.toHaveValue(serviceKey)
  await expect(page.getByText('This key bypasses Row Level Security')).toBeVisible()
  await page.getByRole('button', { name: 'Reveal service_role key' }).click()
  await expect(service).toHaveValue(serviceKey)
  await page.getByRole('button', { name: 'Copy service_role key' }).click()
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await clipboard(page)).toBe(serviceKey)
  await page.getByRole('button', { name: 'Copy anon key' }).click()
  // The copy is asynchronous: the clipboard is read until it has the key.
  await expect.poll(() => clipboard(page)).toBe(anonKey)
  await expect(page.getByTestId('api-keys-last-used')).toHaveText(API_KEY_TEXTS.lastUsedFailed)

  // URL and JWT secret.
  await expect(page.getByLabel('URL', { exact: true })).toHaveValue(`http://${settings.app_config.endpoint}`)
  const secret = page.getByLabel('JWT Secret', { exact: true })
  await expect(secret).not.toHaveValue(settings.jwt_secret)
  await page.getByRole('button', { name: 'Reveal JWT secret' }).click()
  await expect(secret).toHaveValue(settings.jwt_secret)

  // Rotation: typed confirmation, Updating (keys locked), then Updated with new keys.
  await page.getByRole('button', { name: 'Generate a new secret' }).click()
  const dialog = page.getByRole('dialog', { name: 'Generate a new JWT secret' })
  await dialog.getByRole('textbox').fill('not-the-ref')
  await dialog.getByRole('button', { name: 'Generate a new secret' }).click()
  await expect(dialog.getByText('Value entered does not match.')).toBeVisible()
  await dialog.getByRole('textbox').fill(project.ref)
  // The Updating status and the success toast are both transient (the toast dismisses itself): every status shown is kept,
  // so a busy machine that looks late still sees them, and in their order.
  const shown = await recordShown(page, '[role="status"]')
  await dialog.getByRole('button', { name: 'Generate a new secret' }).click()
  const updating = (texts: string[]) => texts.findIndex((text) => text.includes(API_KEY_TEXTS.updating))
  const updated = (texts: string[]) => texts.findIndex((text) => text.includes('Successfully updated JWT secret'))
  await expect.poll(async () => updated(await shown())).toBeGreaterThanOrEqual(0)
  const texts = await shown()
  expect(updating(texts), texts.join(' | ')).toBeGreaterThanOrEqual(0)
  expect(updating(texts), texts.join(' | ')).toBeLessThan(updated(texts))
  await expect(page.getByRole('status').filter({ hasText: API_KEY_TEXTS.updating })).toHaveCount(0)
  await expect(anon).not.toHaveValue(anonKey)
  const rotated = await apiCall(page, 'GET', `/platform/projects/${project.ref}/settings`)
  expect(rotated.jwt_secret).not.toBe(settings.jwt_secret)
  await expect(anon).toHaveValue(rotated.service_api_keys.find((k: { tags: string }) => k.tags === 'anon').api_key)

  // Legacy keys: disable with 'disable', re-enable with 're-enable'.
  await page.getByRole('button', { name: 'Disable JWT-based API keys' }).click()
  const disable = page.getByRole('dialog', { name: 'Disable JWT-based API keys' })
  await disable.getByRole('textbox').fill('re-enable')
  await disable.getByRole('button', { name: 'Disable JWT-based API keys' }).click()
  await expect(disable.getByText('Value entered does not match.')).toBeVisible()
  await disable.getByRole('textbox').fill('disable')
  await disable.getByRole('button', { name: 'Disable JWT-based API keys' }).click()
  await expect(page.getByText(API_KEY_TEXTS.legacyDisabled)).toBeVisible()
  await expect(page.getByTestId('legacy-keys-status')).toHaveText('Disabled')
  expect((await apiCall(page, 'GET', `/v1/projects/${project.ref}/api-keys/legacy`)).enabled).toBe(false)

  await page.getByRole('button', { name: 'Re-enable JWT-based API keys' }).click()
  const reenable = page.getByRole('dialog', { name: 'Re-enable JWT-based API keys' })
  await reenable.getByRole('textbox').fill(' re-enable ')
  await reenable.getByRole('button', { name: 'Re-enable JWT-based API keys' }).click()
  await expect(page.getByText(API_KEY_TEXTS.legacyReenabled)).toBeVisible()
  await expect(page.getByTestId('legacy-keys-status')).toHaveText('Enabled')
  expect((await apiCall(page, 'GET', `/v1/projects/${project.ref}/api-keys/legacy`)).enabled).toBe(true)
})

test('a Developer sees neither key, and the permission texts', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Keys')
  const developer = await memberPage(page, project.orgSlug, 'developer')
  await developer.goto(`/project/${project.ref}/settings/api`)
  await expect(developer.getByText(API_KEY_TEXTS.noPermissionPanel)).toBeVisible()
  await expect(developer.getByText(API_KEY_TEXTS.noPermissionKey)).toHaveCount(3) // anon, service_role and JWT secret
  await expect(developer.getByLabel('anon', { exact: true })).toHaveCount(0)
  await expect(developer.getByRole('button', { name: 'Reveal service_role key' })).toHaveCount(0)
  await expect(developer.getByRole('button', { name: 'Reveal JWT secret' })).toHaveCount(0)

  const toggle = developer.getByRole('button', { name: 'Disable JWT-based API keys' })
  await expect(toggle).toHaveAttribute('aria-disabled', 'true')
  await toggle.hover()
  await expect(developer.getByRole('tooltip').filter({ hasText: API_KEY_TEXTS.noPermissionLegacyToggle })).toBeVisible()
  await toggle.click({ force: true })
  await expect(developer.getByRole('dialog')).toHaveCount(0)
  await expect(developer.getByRole('button', { name: 'Generate a new secret' })).toHaveAttribute('aria-disabled', 'true')

  // The docs drawer: no service key either.
  await developer.getByRole('button', { name: 'API Docs' }).click()
  const drawer = developer.getByRole('dialog', { name: 'API Docs' })
  await expect(drawer.getByText(API_KEY_TEXTS.noPermissionKey)).toBeVisible()
})

test('the API docs drawer lists a table and a function made through SQL, a bucket and an edge function made through the API, and switches language', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Docs')
  const details = await apiCall(page, 'GET', `/platform/projects/${project.ref}`)
  const client = new pg.Client({ host: details.db_host, port: details.db_port, database: details.db_name, user: details.db_user, password: DB_PASSWORD })
  client.on('error', () => {})
  await client.connect()
  await client.query(`
    CREATE TABLE IF NOT EXISTS public.todos (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, task text NOT NULL, done boolean DEFAULT false);
    COMMENT ON TABLE public.todos IS 'Things to do';
    COMMENT ON COLUMN public.todos.task IS 'What to do';
    GRANT SELECT, INSERT ON public.todos TO anon;
    CREATE OR REPLACE FUNCTION public.add_numbers(a int, b int DEFAULT 0) RETURNS int LANGUAGE sql AS 'SELECT a + b';
  `)
  await client.end()

  // A bucket and an edge function, made through the API.
  const suffix = Date.now().toString(36)
  const bucketName = `docs-${suffix}`
  await apiCall(page, 'POST', `/platform/storage/${project.ref}/buckets`, {
    name: bucketName,
    public: true,
    allowed_mime_types: ['image/png', 'image/jpeg'],
    file_size_limit: 1024 * 1024,
  })
  await apiCall(page, 'POST', `/platform/storage/${project.ref}/buckets`, { name: `private-${suffix}`, public: false })
  const slug = `docs-fn-${suffix}`
  const deployed = await page.request.fetch(`/v1/projects/${project.ref}/functions/deploy?slug=${slug}`, {
    method: 'POST',
    headers: { origin: new URL(page.url()).origin },
    multipart: {
      metadata: JSON.stringify({ entrypoint_path: 'index.ts' }),
      file: { name: 'index.ts', mimeType: 'application/typescript', buffer: Buffer.from('Deno.serve(() => new Response("hi"))\n') },
    },
  })
  expect(deployed.status(), await deployed.text()).toBeLessThan(300)

  const settings = await apiCall(page, 'GET', `/platform/projects/${project.ref}/settings`)
  const url = `http://${settings.app_config.endpoint}`
  const anonKey: string = settings.service_api_keys.find((k: { tags: string }) => k.tags === 'anon').api_key

  await page.goto(`/project/${project.ref}`)
  await page.getByRole('button', { name: 'API Docs' }).click()
  const drawer = page.getByRole('dialog', { name: 'API Docs' })
  const menu = drawer.getByRole('navigation', { name: 'API docs sections' })
  for (const section of ['Connect', 'User Management', 'Tables & Views', 'Stored Procedures', 'Storage', 'Edge Functions', 'Realtime']) {
    await expect(menu.getByRole('button', { name: section, exact: true })).toBeVisible()
  }

  // Connect: URL, keys hidden until shown, Copy -> Copied.
  await expect(drawer.getByLabel('Project URL', { exact: true })).toHaveValue(url)
  await expect(drawer.getByLabel('Client API key', { exact: true })).not.toHaveValue(anonKey)
  await drawer.getByRole('button', { name: 'Show keys' }).click()
  await expect(drawer.getByLabel('Client API key', { exact: true })).toHaveValue(anonKey)
  await expect(drawer.getByLabel('Service key', { exact: true })).toHaveValue(/^eyJ/)
  await expect(drawer.getByText(`const supabaseKey = '${anonKey}'`)).toBeVisible()
  await drawer.getByRole('button', { name: 'Copy Project URL' }).click()
  await expect(drawer.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await clipboard(page)).toBe(url)
  await expect(drawer.getByRole('button', { name: 'Copied' })).toHaveCount(0)
  await drawer.getByRole('button', { name: 'Hide keys' }).click()
  await expect(drawer.getByLabel('Client API key', { exact: true })).not.toHaveValue(anonKey)

  // Tables and Views: the table from SQL, its columns with the key notes trimmed, snippets with its names.
  await menu.getByRole('button', { name: 'Tables & Views' }).click()
  await menu.getByRole('button', { name: 'todos' }).click()
  await expect(drawer.getByRole('heading', { name: 'todos' })).toBeVisible()
  await expect(drawer.getByText('Things to do')).toBeVisible()
  const columns = drawer.getByRole('region', { name: 'Columns', exact: true })
  await expect(columns.getByRole('row', { name: /task text string What to do/ })).toBeVisible()
  await expect(columns.getByRole('row', { name: /id bigint integer This is a Primary Key\./ })).toBeVisible()
  await expect(columns).not.toContainText('Note:')
  await expect(columns).not.toContainText('<pk/>')
  const read = drawer.getByRole('region', { name: 'Read all rows' })
  await expect(read).toContainText(".from('todos')")
  await expect(drawer.getByRole('region', { name: 'Insert a row' })).toContainText("task: 'some task'")
  // New tables in public are granted to the API roles by default (as on Supabase): anon may delete.
  await expect(drawer.getByRole('region', { name: 'Delete matching rows' })).toHaveCount(1)

  await drawer.getByRole('radio', { name: 'Bash' }).click()
  await expect(read).toContainText(`curl '${url}/rest/v1/todos?select=*'`)
  await expect(read).toContainText('apikey: $SUPABASE_KEY')

  // Stored Procedures: arguments with Required / Optional, and the invoke snippet (still in Bash).
  await menu.getByRole('button', { name: 'Stored Procedures' }).click()
  await menu.getByRole('button', { name: 'add_numbers' }).click()
  const args = drawer.getByRole('region', { name: 'Function arguments' })
  await expect(args.getByRole('row', { name: /^a integer integer Required/ })).toBeVisible()
  await expect(args.getByRole('row', { name: /^b integer integer Optional/ })).toBeVisible()
  await expect(drawer.getByRole('region', { name: 'Invoke function' })).toContainText(`curl -X POST '${url}/rest/v1/rpc/add_numbers'`)
  await drawer.getByRole('radio', { name: 'Javascript' }).click()
  await expect(drawer.getByRole('region', { name: 'Invoke function' })).toContainText(".rpc('add_numbers', { a: 1, b: 1 })")

  // Tables gain the subscribe snippet.
  await menu.getByRole('button', { name: 'Tables & Views' }).click()
  await menu.getByRole('button', { name: 'todos' }).click()
  await expect(drawer.getByRole('region', { name: 'Subscribe to changes', exact: true })).toContainText("table: 'todos'")
  await expect(drawer.getByRole('region', { name: 'Filtering', exact: true })).toContainText('.range(0, 9)')

  // User Management: a snippet per auth endpoint, served now (no "not served" note).
  await menu.getByRole('button', { name: 'User Management' }).click()
  await expect(drawer.getByText('The auth API is not served yet')).toHaveCount(0)
  await expect(drawer.getByRole('region', { name: 'Sign up', exact: true })).toContainText('supabase.auth.signUp(')
  await expect(drawer.getByRole('region', { name: 'Invite a user', exact: true })).toContainText('inviteUserByEmail(')
  await expect(drawer.getByText('Arrives in a later release')).toHaveCount(0)

  // Storage: the buckets from the API, a bucket page with its settings and snippets, the item switcher and back.
  await menu.getByRole('button', { name: 'Storage' }).click()
  await expect(drawer.getByRole('list', { name: 'Buckets' }).getByRole('button', { name: bucketName })).toBeVisible()
  await menu.getByRole('button', { name: bucketName }).click()
  await expect(drawer.getByRole('heading', { name: bucketName })).toBeVisible()
  const bucketSettings = drawer.getByRole('region', { name: 'Bucket settings', exact: true })
  await expect(bucketSettings.getByText('Public', { exact: true })).toBeVisible()
  await expect(bucketSettings).toContainText('image/png, image/jpeg')
  await expect(bucketSettings).toContainText('1.0 MB')
  await expect(drawer.getByRole('region', { name: 'Upload a file', exact: true })).toContainText(`.from('${bucketName}')`)
  await expect(drawer.getByRole('region', { name: 'List files', exact: true })).toContainText('limit: 100')
  await expect(drawer.getByRole('region', { name: 'Create a signed URL', exact: true })).toContainText(', 60)')
  await expect(drawer.getByRole('region', { name: 'Get the public URL', exact: true })).toContainText('getPublicUrl(')
  await drawer.getByLabel('Bucket', { exact: true }).selectOption(`private-${suffix}`)
  await expect(drawer.getByRole('heading', { name: `private-${suffix}` })).toBeVisible()
  await expect(drawer.getByRole('region', { name: 'Bucket settings', exact: true }).getByText('Private', { exact: true })).toBeVisible()
  await expect(drawer.getByRole('region', { name: 'Bucket settings', exact: true })).toContainText('All types')
  await expect(drawer.getByRole('region', { name: 'Bucket settings', exact: true })).toContainText('No limit')
  await drawer.getByRole('button', { name: 'Back' }).click()
  await expect(drawer.getByRole('heading', { name: 'Storage' })).toBeVisible()

  // Realtime: the subscribe snippet and the 30 s channel cleanup.
  await menu.getByRole('button', { name: 'Realtime' }).click()
  await expect(drawer.getByText('channels are removed 30 seconds after the client disconnects')).toBeVisible()
  await expect(drawer.getByRole('region', { name: 'Subscribe to changes', exact: true })).toContainText("'postgres_changes'")

  // Edge Functions: the deployed function, its invoke snippet (Bash too) and the link to its details.
  await menu.getByRole('button', { name: 'Edge Functions' }).click()
  await menu.getByRole('button', { name: slug }).click()
  await expect(drawer.getByRole('heading', { name: slug })).toBeVisible()
  await expect(drawer.getByRole('region', { name: 'Invoke function', exact: true })).toContainText(`supabase.functions.invoke('${slug}'`)
  await drawer.getByRole('radio', { name: 'Bash' }).click()
  await expect(drawer.getByRole('region', { name: 'Invoke function', exact: true })).toContainText(`curl -X POST '${url}/functions/v1/${slug}'`)
  await drawer.getByRole('link', { name: 'Function details' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/functions/${slug}/details$`))
  await expect(drawer).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1, name: slug })).toBeVisible()

  // The three guides, and GraphiQL.
  await page.getByRole('button', { name: 'API Docs' }).click()
  for (const link of ['GraphQL guide', 'Documentation', 'REST guide']) await expect(menu.getByRole('link', { name: link })).toBeVisible()

  // GraphiQL opens on the project's GraphQL API (data-api.spec.ts runs a query there).
  await drawer.getByRole('link', { name: 'GraphiQL' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/api/graphiql$`))
  await expect(page.getByRole('heading', { name: 'GraphiQL', level: 1 })).toBeVisible()
  await expect(page.locator('.graphiql-query-editor .monaco-editor').first()).toBeVisible({ timeout: 30_000 })
})

test('an owner makes a publishable and a secret key, reveals and copies the secret, uses the publishable one, and deletes both', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Keys')
  await page.goto(`/project/${project.ref}/settings/api`)
  const form = page.getByRole('form', { name: 'New API key' })
  const stamp = Date.now().toString(36)

  await form.getByLabel('Name').fill('Bad Name')
  await form.getByRole('button', { name: 'Create key' }).click()
  await expect(form).toContainText('name must be lowercase letters, digits and underscores')

  await form.getByLabel('Name').fill(`web_${stamp}`)
  await form.getByRole('button', { name: 'Create key' }).click()
  const publishable = page.getByLabel(`web_${stamp} key`)
  await expect(publishable).toHaveValue(/^sb_publishable_/)

  await form.getByLabel('Type').selectOption('secret')
  await form.getByLabel('Name').fill(`server_${stamp}`)
  await form.getByRole('button', { name: 'Create key' }).click()
  const secret = page.getByLabel(`server_${stamp} key`)
  await expect(secret).toHaveValue(/^sb_secret_.{5}•+$/)
  await page.getByRole('button', { name: `Reveal server_${stamp}` }).click()
  await expect(secret).toHaveValue(/^sb_secret_[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{8}$/)
  const revealed = await secret.inputValue()
  await page.getByRole('button', { name: `Copy server_${stamp} key` }).click()
  await expect.poll(() => clipboard(page)).toBe(revealed)
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/api-keys-named.png`, fullPage: true })

  // The publishable key works at the project's URL from this browser; the secret one is refused here.
  const settings = await apiCall(page, 'GET', `/platform/projects/${project.ref}/settings`)
  const url = `${settings.app_config.protocol}://${settings.app_config.endpoint}`
  const fromBrowser = (key: string) =>
    page.evaluate(async ([base, apikey]: [string, string]) => (await fetch(`${base}/rest/v1/`, { headers: { apikey } })).status, [url, key] as [string, string])
  expect(await fromBrowser(await publishable.inputValue())).toBe(200)
  expect(await fromBrowser(await secret.inputValue())).toBe(401)

  for (const name of [`web_${stamp}`, `server_${stamp}`]) {
    await page.getByRole('button', { name: `Delete ${name}` }).click()
    await page.getByRole('dialog', { name: `Delete ${name}?` }).getByRole('button', { name: 'Delete key' }).click()
    await expect(page.getByLabel(`${name} key`)).toHaveCount(0)
  }
})
