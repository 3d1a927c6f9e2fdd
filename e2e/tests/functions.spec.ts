import { expect, test } from './fixtures'
import { healthyProject, signIn } from './helpers'

test.beforeEach(async ({ page }) => {
  await signIn(page)
})

test('an owner deploys an edge function, replaces it with version 2 and reads its files', async ({ page }) => {
  const project = await healthyProject(page, 'Functions')
  const slug = `hello-${Date.now().toString(36)}`
  await page.goto(`/project/${project.ref}/functions`)
  await expect(page.getByRole('heading', { level: 1, name: 'Edge Functions' })).toBeVisible()
  await expect(page.getByText('Run in Deno, one process per function')).toBeVisible()
  await expect(page).toHaveTitle(/^Edge Functions \| Functions \| .+ \| Stratum$/)

  // Deploy: slug, the prefilled index.ts, verify JWT on by default.
  await page.getByRole('button', { name: 'Deploy a new function' }).first().click()
  await expect(page.getByLabel('index.ts')).toHaveValue(/Deno\.serve/)
  await expect(page.getByLabel('Verify JWT')).toBeChecked()
  await page.getByLabel('Slug').fill(slug)
  await page.getByRole('button', { name: 'Deploy function' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Successfully deployed edge function' })).toBeVisible()
  await expect(page.getByText(`Deployed ${slug}, version 1`)).toBeVisible()
  await expect(page.getByLabel('Function URL')).toHaveValue(new RegExp(`/functions/v1/${slug}$`))
  await expect(page.getByLabel('Download command')).toHaveValue(new RegExp(`/v1/projects/${project.ref}/functions/${slug}/body`))

  const row = page.getByRole('table', { name: 'Edge functions' }).getByRole('row').filter({ hasText: slug })
  await expect(row.getByTestId('function-version')).toHaveText('1')
  await expect(row).toContainText('Required')

  // The same slug again: the replace warning, Cancel keeps version 1, Replace function makes version 2.
  await page.getByRole('button', { name: 'Deploy again' }).click()
  await page.getByLabel('Slug').fill(slug)
  await page.getByLabel('index.ts').fill('Deno.serve(() => new Response("version two"))\n')
  await page.getByRole('button', { name: 'Deploy function' }).click()
  const replace = page.getByRole('dialog', { name: `Replace ${slug}?` })
  await expect(replace).toBeVisible()
  await replace.getByRole('button', { name: 'Cancel' }).click()
  await expect(replace).toBeHidden()
  await expect(row.getByTestId('function-version')).toHaveText('1')
  await page.getByRole('button', { name: 'Deploy function' }).click()
  await replace.getByRole('button', { name: 'Replace function' }).click()
  await expect(page.getByText(`Deployed ${slug}, version 2`)).toBeVisible()
  await expect(row.getByTestId('function-version')).toHaveText('2')

  // Details: the file with its contents, then delete with a typed confirmation.
  await row.getByRole('link', { name: slug }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/functions/${slug}/details$`))
  await expect(page.getByRole('heading', { level: 1, name: slug })).toBeVisible()
  await expect(page.getByText('Version 2')).toBeVisible()
  await expect(page.getByLabel('Contents of index.ts')).toHaveText('Deno.serve(() => new Response("version two"))')
  await page.getByRole('button', { name: 'Delete function' }).click()
  const confirm = page.getByRole('dialog', { name: `Delete ${slug}` })
  await confirm.getByRole('textbox').fill('wrong')
  await confirm.getByRole('button', { name: 'Delete function' }).click()
  await expect(confirm.getByText('Value entered does not match.')).toBeVisible()
  await confirm.getByRole('textbox').fill(slug)
  await confirm.getByRole('button', { name: 'Delete function' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/functions$`))
  await expect(page.getByRole('row').filter({ hasText: slug })).toHaveCount(0)
})

test('a failed deploy says why in a toast', async ({ page }) => {
  const project = await healthyProject(page, 'Functions')
  await page.goto(`/project/${project.ref}/functions`)
  await page.getByRole('button', { name: 'Deploy a new function' }).first().click()
  await page.getByLabel('Slug').fill('too-big')
  // Over the 10 MB per-file limit: the server refuses it.
  await page.getByLabel('index.ts').evaluate((area: HTMLTextAreaElement) => {
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!
    setter.call(area, 'x'.repeat(10 * 1024 * 1024 + 10))
    area.dispatchEvent(new Event('input', { bubbles: true }))
  })
  await page.getByRole('button', { name: 'Deploy function' }).click()
  await expect(page.getByRole('alert').filter({ hasText: /^Failed to deploy edge function: .+/ })).toBeVisible()
})

test('an owner creates, edits and deletes a bucket', async ({ page }) => {
  const project = await healthyProject(page, 'Functions')
  const name = `avatars-${Date.now().toString(36)}`
  await page.goto(`/project/${project.ref}/storage`)
  await expect(page.getByRole('heading', { level: 1, name: 'Storage' })).toBeVisible()
  await expect(page.getByText('Open a bucket to browse, upload and download its files.')).toBeVisible()

  await page.getByRole('button', { name: 'New bucket' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Create bucket' })
  await dialog.getByLabel('Name').fill(name)
  await dialog.getByLabel('Public bucket').check()
  await dialog.getByLabel('Allowed MIME types').selectOption('only')
  await dialog.getByLabel('MIME types', { exact: true }).fill('image/png, image/*')
  await dialog.getByLabel('Restrict file size').check()
  await dialog.getByLabel('File size limit').fill('5')
  await dialog.getByLabel('Unit').selectOption('MB')
  await dialog.getByRole('button', { name: 'Create bucket' }).click()
  await expect(dialog).toBeHidden()

  const row = page.getByRole('table', { name: 'Buckets' }).getByRole('row').filter({ hasText: name })
  await expect(row).toContainText('Public')
  await expect(row).toContainText('image/png, image/*')
  await expect(row).toContainText('5.0 MB')

  await row.getByRole('button', { name: `Edit bucket ${name}` }).click()
  const edit = page.getByRole('dialog', { name: `Edit bucket ${name}` })
  await expect(edit.getByLabel('File size limit')).toHaveValue('5')
  await edit.getByLabel('Public bucket').uncheck()
  await edit.getByLabel('Allowed MIME types').selectOption('all')
  await edit.getByRole('button', { name: 'Save' }).click()
  await expect(edit).toBeHidden()
  await expect(row).toContainText('Private')
  await expect(row).toContainText('Any')

  await row.getByRole('button', { name: `Delete bucket ${name}` }).click()
  const confirm = page.getByRole('dialog', { name: `Delete bucket ${name}` })
  await confirm.getByRole('textbox').fill(name)
  await confirm.getByRole('button', { name: 'Delete bucket' }).click()
  await expect(confirm).toBeHidden()
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0)
})

test('the storage archive is prepared, polled and downloaded', async ({ page }) => {
  const project = await healthyProject(page, 'Functions')
  await page.goto(`/project/${project.ref}/storage`)
  const download = page.waitForEvent('download', { timeout: 30_000 })
  await page.getByRole('button', { name: 'Download archive' }).click()
  await expect(page.getByText('Preparing the storage archive')).toBeVisible()
  expect((await download).suggestedFilename()).toMatch(/\.zip$/)
  await expect(page.getByRole('button', { name: 'Download archive' })).toBeEnabled()
})
