import { deflateSync } from 'node:zlib'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'

/*
 * The Storage page as a user works with it: open a bucket, upload an image and a text file through the
 * file picker, preview both, copy the image's public URL and open it without a key, make a folder,
 * move a file into it and delete it.
 */

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

/** A small, really decodable PNG: a 24x16 image in two colours. */
function png(): Buffer {
  const width = 24
  const height = 16
  const rows = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    rows[y * (width * 3 + 1)] = 0
    for (let x = 0; x < width; x++) {
      const at = y * (width * 3 + 1) + 1 + x * 3
      const left = x < width / 2
      rows[at] = left ? 62 : 240
      rows[at + 1] = left ? 207 : 180
      rows[at + 2] = left ? 142 : 40
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (data: Buffer) => {
    let c = 0xffffffff
    for (const byte of data) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([length, body, sum])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

test('uploads an image and a text file on the Storage page, previews them, shares, moves and deletes', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Storage page')
  const bucket = `pictures-${Date.now()}`
  await apiCall(page, 'POST', `/platform/storage/${project.ref}/buckets`, {
    name: bucket,
    public: true,
  })

  await page.goto(`/project/${project.ref}/storage`)
  await page.getByRole('link', { name: bucket }).click()
  await expect(page.getByRole('heading', { name: bucket })).toBeVisible()
  await expect(page.getByText('This bucket is empty')).toBeVisible()

  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'logo.png', mimeType: 'image/png', buffer: png() },
    {
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Shopping list:\n- milk\n- bread\n'),
    },
  ])
  const uploads = page.getByRole('list', { name: 'Uploads' })
  await expect(uploads.getByText(/Uploaded/)).toHaveCount(2)
  const files = page.getByRole('table', { name: `Files in ${bucket}` })
  await expect(files.getByRole('button', { name: 'logo.png', exact: true })).toBeVisible()

  // The image previews in the side panel, decoded by the browser.
  await files.getByRole('button', { name: 'logo.png', exact: true }).click()
  const preview = page.getByLabel('Preview of logo.png')
  const image = preview.getByRole('img', { name: 'logo.png' })
  await expect(image).toBeVisible()
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(24)
  await expect(preview).toContainText('image/png')
  if (process.env.AI_SCREENSHOTS_DIR)
    await page.screenshot({
      path: `${process.env.AI_SCREENSHOTS_DIR}/storage-preview.png`,
      fullPage: true,
    })

  // Its public URL opens without any key.
  await preview.getByRole('button', { name: 'Copy URL' }).click()
  await expect(page.getByText('Public URL copied')).toBeVisible()
  const publicUrl = await page.evaluate(() => navigator.clipboard.readText())
  expect(publicUrl).toContain(`/storage/v1/object/public/${bucket}/logo.png`)
  const fetched = await page.request.get(publicUrl)
  expect(fetched.status()).toBe(200)
  expect(fetched.headers()['content-type']).toBe('image/png')

  await files.getByRole('button', { name: 'notes.txt', exact: true }).click()
  await expect(page.getByLabel('Preview of notes.txt')).toContainText('- bread')

  // A folder, a move into it, a delete.
  await page.getByRole('button', { name: 'New folder' }).click()
  await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill('archive')
  await page.getByRole('dialog', { name: 'New folder' }).getByRole('button', { name: 'Create folder' }).click()
  await expect(page.getByText('This folder is empty')).toBeVisible()
  await page.getByRole('navigation', { name: 'Folder' }).getByRole('button', { name: bucket }).click()
  await files.getByRole('button', { name: 'Move notes.txt' }).click()
  const move = page.getByRole('dialog', { name: 'Move file' })
  await move.getByLabel('New path').fill('archive/notes.txt')
  await move.getByRole('button', { name: 'Move' }).click()
  await expect(files.getByRole('button', { name: 'notes.txt', exact: true })).toHaveCount(0)
  await files.getByRole('button', { name: 'archive', exact: true }).click()
  await expect(page.getByRole('table', { name: 'Files in archive' }).getByRole('button', { name: 'notes.txt', exact: true })).toBeVisible()
  await page.getByRole('table', { name: 'Files in archive' }).getByRole('button', { name: 'Delete notes.txt' }).click()
  await page.getByRole('dialog', { name: 'Delete file' }).getByRole('button', { name: 'Delete file' }).click()
  await expect(page.getByText('File deleted')).toBeVisible()
  await expect(page.getByText('This folder is empty')).toBeVisible()
})
