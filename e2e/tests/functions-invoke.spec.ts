import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'
import { otherOrigin } from './other-origin'

/*
 * A function deployed from the dashboard really runs: its API docs snippet, copied from the drawer and
 * run by a web app on another origin with supabase-js's browser bundle, gets the function's answer.
 */

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

type Supabase = { createClient: (url: string, key: string) => { functions: { invoke: (...args: unknown[]) => Promise<{ data: any; error: any }> } } }

test('deploys a function from the dashboard and calls it with the docs snippet from another origin', async ({ page, context }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Functions invoke')
  const settings = await apiCall(page, 'GET', `/platform/projects/${project.ref}/settings`)
  const url = `${settings.app_config.protocol}://${settings.app_config.endpoint}`
  const anonKey: string = settings.service_api_keys.find((key: { tags: string }) => key.tags === 'anon').api_key
  const slug = `greet-${Date.now().toString(36)}`

  await page.goto(`/project/${project.ref}/functions`)
  await page.getByRole('button', { name: 'Deploy a new function' }).first().click()
  await page.getByLabel('Slug').fill(slug)
  await page
    .getByLabel('index.ts')
    .fill('Deno.serve(async (req) => {\n  const { name } = await req.json()\n  return Response.json({ message: `Hello ${name}!`, runtime: typeof Deno.version.deno })\n})\n')
  await page.getByRole('button', { name: 'Deploy function' }).click()
  await expect(page.getByText(`Deployed ${slug}, version 1`)).toBeVisible()

  await page.getByRole('button', { name: 'API Docs' }).click()
  const drawer = page.getByRole('dialog', { name: 'API Docs' })
  await drawer.getByRole('navigation', { name: 'API docs sections' }).getByRole('button', { name: 'Edge Functions' }).click()
  await drawer.getByRole('list', { name: 'Edge functions', exact: true }).getByRole('button', { name: slug }).click()
  await drawer.getByRole('region', { name: 'Invoke function' }).getByRole('button', { name: /Copy/ }).click()
  // The copy is asynchronous: the clipboard is read until it has the snippet.
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain(`supabase.functions.invoke('${slug}'`)
  const snippet = await page.evaluate(() => navigator.clipboard.readText())
  await page.keyboard.press('Escape')

  const elsewhere = await otherOrigin()
  try {
    const app = await context.newPage()
    await app.goto(`${elsewhere.origin}/`)
    const answer = await app.evaluate(
      async ({ url, anonKey, snippet }) => {
        const supabase = (window as unknown as { supabase: Supabase }).supabase.createClient(url, anonKey)
        const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (client: unknown) => Promise<unknown>
        return new AsyncFunction('supabase', `${snippet}\nreturn { data, error: error?.message ?? null }`)(supabase)
      },
      { url, anonKey, snippet },
    )
    expect(answer).toEqual({ data: { message: 'Hello Functions!', runtime: 'string' }, error: null })
    await app.close()
  } finally {
    await elsewhere.close()
  }
})
