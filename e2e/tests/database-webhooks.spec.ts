import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, memberByInvitation, signIn } from './helpers'

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string) {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/${name}.png`, fullPage: true })
}

/** A loopback HTTP server standing for the service a webhook calls (e2e/server.mjs allows private hosts). */
async function receiver() {
  const bodies: Array<{ url: string; headers: http.IncomingHttpHeaders; body: string }> = []
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      bodies.push({ url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, close: () => new Promise((resolve) => server.close(resolve)) }
}

test("a webhook delivering an insert to a local HTTP receiver with Supabase's payload", async ({ page }) => {
  test.setTimeout(120_000)
  const target = await receiver()
  try {
    await signIn(page)
    const project = await healthyProject(page, 'Webhooks')
    const table = `orders_${Date.now()}`
    const sql = (query: string) => apiCall(page, 'POST', `/platform/pg-meta/${project.ref}/query`, { query, read_only: false })
    await sql(`create table public.${table} (id bigint primary key, item text not null)`)

    await page.goto(`/project/${project.ref}/integrations/webhooks`)
    await expect(page.getByRole('heading', { name: 'Database Webhooks', level: 1 })).toBeVisible()
    await expect(page.getByText('No hooks created yet')).toBeVisible()
    await page.getByRole('button', { name: 'Create a new hook' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create a new database webhook' })
    await dialog.getByLabel('Name', { exact: true }).fill('order_placed')
    await dialog.getByLabel('Table').selectOption({ label: `public.${table}` })
    await dialog.getByLabel('URL').fill(`${target.url}/orders`)
    await dialog.getByRole('button', { name: 'Add a new header' }).click()
    await dialog.getByLabel('Header name 2').fill('X-Webhook-Secret')
    await dialog.getByLabel('Header value 2').fill('s3cret')
    await shot(page, 'webhooks-create')
    await dialog.getByRole('button', { name: 'Create webhook' }).click()

    // The SQL shows before it runs.
    const preview = page.getByRole('dialog', { name: 'Create webhook order_placed' })
    await expect(preview.getByLabel('SQL to run')).toContainText('execute function supabase_functions.http_request(')
    await preview.getByRole('button', { name: 'Run SQL' }).click()
    await expect(page.getByText('Successfully created new webhook order_placed')).toBeVisible()
    const row = page.getByRole('table', { name: 'Database webhooks' }).getByRole('row').filter({ hasText: 'order_placed' })
    await expect(row).toContainText(`public.${table}`)
    await expect(row).toContainText('Insert')
    await expect(row).toContainText(`${target.url}/orders`)

    await sql(`insert into public.${table} values (1, 'green tea')`)
    await expect.poll(() => target.bodies.length, { timeout: 20_000 }).toBe(1)
    expect(JSON.parse(target.bodies[0]!.body)).toEqual({
      type: 'INSERT',
      table,
      schema: 'public',
      record: { id: 1, item: 'green tea' },
      old_record: null,
    })
    expect(target.bodies[0]!.headers['x-webhook-secret']).toBe('s3cret')

    // The delivery and its answer, read back from net._http_response.
    const delivery = page.getByRole('table', { name: 'Recent deliveries' }).getByRole('row').filter({ hasText: 'order_placed' })
    await expect(delivery).toContainText('200', { timeout: 15_000 })
    await expect(delivery).toContainText('{"received":true}')
    await shot(page, 'webhooks-list')

    // A Read-only member browses but changes nothing.
    const reader = await memberByInvitation(page, project.orgSlug, 'read_only')
    await reader.page.goto(`/project/${project.ref}/integrations/webhooks`)
    await expect(reader.page.getByRole('table', { name: 'Database webhooks' }).getByRole('row').filter({ hasText: 'order_placed' })).toBeVisible()
    await expect(reader.page.getByRole('button', { name: 'Create a new hook' })).toHaveAttribute('aria-disabled', 'true')
    await expect(reader.page.getByRole('button', { name: 'Delete webhook order_placed' })).toHaveAttribute('aria-disabled', 'true')

    // Deleted through its SQL: the trigger is gone.
    await row.getByRole('button', { name: 'Delete webhook order_placed' }).click()
    const drop = page.getByRole('dialog', { name: 'Delete webhook order_placed' })
    await expect(drop.getByLabel('SQL to run')).toContainText(`drop trigger "order_placed" on "public"."${table}";`)
    await drop.getByRole('button', { name: 'Run SQL' }).click()
    await expect(page.getByText('Successfully deleted order_placed')).toBeVisible()
    await expect(page.getByText('No hooks created yet')).toBeVisible()
  } finally {
    await target.close()
  }
})
