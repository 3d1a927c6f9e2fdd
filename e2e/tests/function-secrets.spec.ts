import { createHash } from 'node:crypto'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, projectUrl, signIn } from './helpers'

test.beforeEach(async ({ page }) => {
  await signIn(page)
})

test('an owner adds a function secret, a deployed function reads it, and the owner deletes it', async ({ page }) => {
  const project = await healthyProject(page, 'Env vars')
  const name = `GREETING_${Date.now().toString(36).toUpperCase()}`
  await page.goto(`/project/${project.ref}/functions`)
  await page.getByRole('link', { name: 'Secrets' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/functions/secrets$`))
  await expect(page.getByRole('heading', { level: 1, name: 'Secrets' })).toBeVisible()

  // A reserved name is refused in the form.
  await page.getByLabel('Name').fill('SUPABASE_URL')
  await page.getByLabel('Value').fill('nope')
  await page.getByRole('button', { name: 'Save secret' }).click()
  await expect(page.getByText('Secret name must not start with the SUPABASE_ prefix.')).toBeVisible()

  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Value').fill('hello from the dashboard')
  await page.getByRole('button', { name: 'Save secret' }).click()
  await expect(page.getByRole('status').filter({ hasText: `Saved secret ${name}` })).toBeVisible()
  const row = page.getByRole('table', { name: 'Edge function secrets' }).getByRole('row').filter({ hasText: name })
  await expect(row).toContainText(createHash('sha256').update('hello from the dashboard').digest('hex'))

  // A function deployed beside it reads the value through Deno.env.
  const slug = `greet-${Date.now().toString(36)}`
  const origin = new URL(page.url()).origin
  const deployed = await page.request.post(`/v1/projects/${project.ref}/functions/deploy?slug=${slug}`, {
    headers: { origin },
    multipart: {
      metadata: JSON.stringify({ entrypoint_path: 'index.ts', name: slug, verify_jwt: false }),
      file: { name: 'index.ts', mimeType: 'application/typescript', buffer: Buffer.from(`Deno.serve(() => new Response(Deno.env.get('${name}') ?? 'unset'))\n`) },
    },
  })
  expect(deployed.status()).toBe(201)
  const functionsUrl = `${await projectUrl(page, project.ref)}/functions/v1`
  const invoke = async () => (await page.request.post(`${functionsUrl}/${slug}`)).text()
  expect(await invoke()).toBe('hello from the dashboard')

  await row.getByRole('button', { name: `Delete secret ${name}` }).click()
  const confirm = page.getByRole('dialog', { name: `Delete secret ${name}` })
  await confirm.getByRole('button', { name: 'Delete secret' }).click()
  await expect(confirm).toBeHidden()
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0)
  expect(await invoke()).toBe('unset')
  await apiCall(page, 'DELETE', `/v1/projects/${project.ref}/functions/${slug}`)
})
