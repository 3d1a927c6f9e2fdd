import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import sharp from 'sharp'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, projectApi, startTestPlatform, tokenFor, type ProjectApi, waitForStatus, type TestPlatform } from './harness.js'

/*
 * Image transformations as storage-api serves them (its render routes, imgproxy behind them), rendered here
 * with sharp: /render/image/{public,authenticated,sign}/..., the options of the query string or of a signed
 * token, storage-api's refusals, the limits on hostile sources, and the cache of renderings. Mirrors the
 * storage-js suite's 'will download an authenticated transformed file', 'will get a signed transformed image'
 * and 'sign url with transform options' (storageFileApi.test.ts).
 */

let t: TestPlatform
let cookie: string
let token: string
let main: ProjectApi
let service: SupabaseClient
let anon: SupabaseClient
let storageUrl: string

const client = (key: string): SupabaseClient =>
  createClient(main.url, key, { realtime: { transport: WebSocket as never }, auth: { persistSession: false, autoRefreshToken: false } })

async function sql(query: string) {
  const result = await api(t, 'POST', `/v1/projects/${main.ref}/database/query`, { token }, { query })
  if (result.status >= 300) throw new Error(`${query}: ${JSON.stringify(result.body)}`)
  return result.body
}

/** A 400x300 PNG, red on its left half and blue on its right: crops show which part was kept. */
async function twoColourPng(width = 400, height = 300): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set(x < width / 2 ? [255, 0, 0] : [0, 0, 255], (y * width + x) * 3)
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer()
}

/** A PNG whose header claims `width` x `height` and that holds no pixels: what a decompression bomb's header says. */
function claimedPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(zlib.crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))), chunk('IEND', Buffer.alloc(0))])
}

interface Rendered {
  status: number
  headers: Headers
  bytes: Buffer
  json?: Record<string, unknown>
  width?: number
  height?: number
  format?: string
}

async function render(url: string, headers: Record<string, string> = {}): Promise<Rendered> {
  const response = await fetch(url, { headers })
  const bytes = Buffer.from(await response.arrayBuffer())
  const result: Rendered = { status: response.status, headers: response.headers, bytes }
  if (response.headers.get('content-type')?.startsWith('application/json')) result.json = JSON.parse(bytes.toString('utf8'))
  else if (response.status === 200) Object.assign(result, await sharp(bytes).metadata().then(({ width, height, format }) => ({ width, height, format })))
  return result
}

const publicRender = (name: string, query = '') => `${storageUrl}/render/image/public/pictures/${name}${query ? `?${query}` : ''}`
const withKey = (key: string) => ({ apikey: key, authorization: `Bearer ${key}` })

/** The colour of a rendering's pixel: 'red', 'blue' or what it is. */
async function colourAt(bytes: Buffer, x: number, y: number): Promise<string> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const at = (y * info.width + x) * info.channels
  const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!]
  if (r > 200 && g < 60 && b < 60) return 'red'
  if (b > 200 && r < 60 && g < 60) return 'blue'
  return `rgb(${r},${g},${b})`
}

let png: Buffer

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Transforms', organization_slug: slug, db_pass: 'transform-test-password-1' })
  await waitForStatus(t, created.body.ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  main = await projectApi(t, created.body.ref, { cookie })
  storageUrl = `${main.url}/storage/v1`
  service = client(main.serviceKey)
  anon = client(main.anonKey)
  expect((await service.storage.createBucket('pictures', { public: true })).error).toBeNull()
  expect((await service.storage.createBucket('private-pictures', { public: false })).error).toBeNull()
  png = await twoColourPng()
  for (const bucket of ['pictures', 'private-pictures']) {
    expect((await service.storage.from(bucket).upload('cat.png', png, { contentType: 'image/png' })).error).toBeNull()
  }
})
afterAll(() => t?.cleanup())

describe('public renderings', () => {
  it('resizes with each mode, never enlarges, and answers the source format unless Accept or format says otherwise', async () => {
    const cover = await render(publicRender('cat.png', 'width=200&height=200'))
    expect(cover).toMatchObject({ status: 200, width: 200, height: 200, format: 'png' })
    expect(cover.headers.get('content-type')).toBe('image/png')
    expect(cover.headers.get('x-transformations')).toBe('height:200,width:200,resizing_type:fill')
    expect(cover.headers.get('content-length')).toBe(String(cover.bytes.length))
    expect(cover.headers.get('etag')).toBeTruthy()
    // Cover keeps the middle: red on the left edge, blue on the right.
    expect([await colourAt(cover.bytes, 0, 100), await colourAt(cover.bytes, 199, 100)]).toEqual(['red', 'blue'])

    expect(await render(publicRender('cat.png', 'width=200&height=200&resize=contain'))).toMatchObject({ status: 200, width: 200, height: 150 })
    expect(await render(publicRender('cat.png', 'width=200&height=100&resize=fill'))).toMatchObject({ status: 200, width: 200, height: 100 })
    expect(await render(publicRender('cat.png', 'width=100'))).toMatchObject({ status: 200, width: 100, height: 75 })
    expect(await render(publicRender('cat.png', 'height=150'))).toMatchObject({ status: 200, width: 200, height: 150 })
    // imgproxy does not enlarge: a size beyond the source keeps the source's.
    expect(await render(publicRender('cat.png', 'width=1000&height=1000&resize=contain'))).toMatchObject({ status: 200, width: 400, height: 300 })

    // The crop follows the gravity: a 100x300 cut from the west edge is all red, from the east all blue.
    const west = await render(publicRender('cat.png', 'width=100&height=300&gravity=we'))
    expect(west).toMatchObject({ width: 100, height: 300 })
    expect([await colourAt(west.bytes, 0, 0), await colourAt(west.bytes, 99, 299)]).toEqual(['red', 'red'])
    const east = await render(publicRender('cat.png', 'width=100&height=300&gravity=ea'))
    expect([await colourAt(east.bytes, 0, 0), await colourAt(east.bytes, 99, 299)]).toEqual(['blue', 'blue'])

    // WebP when Accept names it (a browser's Accept), unless format=origin; avif and webp on request.
    const browser = { accept: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8' }
    const webp = await render(publicRender('cat.png', 'width=100'), browser)
    expect(webp).toMatchObject({ status: 200, format: 'webp', width: 100 })
    expect(webp.headers.get('content-type')).toBe('image/webp')
    expect(webp.headers.get('vary')).toBe('Accept')
    expect(await render(publicRender('cat.png', 'width=100&format=origin'), browser)).toMatchObject({ status: 200, format: 'png' })
    const avif = await render(publicRender('cat.png', 'width=100&format=avif&quality=50'))
    expect(avif).toMatchObject({ status: 200, format: 'heif', width: 100, height: 75 })
    expect(avif.headers.get('content-type')).toBe('image/avif')
    expect(avif.headers.get('x-transformations')).toBe('width:100,resizing_type:fill,quality:50,format:avif')
    // Quality: noise shows it in the size.
    const noise = Buffer.from(Array.from({ length: 100 * 100 * 3 }, () => Math.floor(Math.random() * 256)))
    const noisy = await sharp(noise, { raw: { width: 100, height: 100, channels: 3 } }).png().toBuffer()
    expect((await service.storage.from('pictures').upload('noise.png', noisy, { contentType: 'image/png' })).error).toBeNull()
    const small = await render(publicRender('noise.png', 'format=webp&quality=20'))
    const large = await render(publicRender('noise.png', 'format=webp&quality=100'))
    expect(small.format).toBe('webp')
    expect(small.bytes.length).toBeLessThan(large.bytes.length)

    // No options at all: re-encoded at its own size.
    expect(await render(publicRender('cat.png'))).toMatchObject({ status: 200, width: 400, height: 300, format: 'png' })
    const download = await render(publicRender('cat.png', 'width=50&download=thumb.png'))
    expect(download.headers.get('content-disposition')).toBe("attachment; filename=thumb.png; filename*=UTF-8''thumb.png")
    // The same version and URL: a matching If-None-Match is answered 304.
    expect((await fetch(publicRender('cat.png', 'width=200&height=200'), { headers: { 'if-none-match': cover.headers.get('etag')! } })).status).toBe(304)
  })

  it('answers for public buckets only, and objects that exist', async () => {
    const privateOne = await render(`${storageUrl}/render/image/public/private-pictures/cat.png?width=10`)
    expect([privateOne.status, privateOne.json]).toEqual([404, { statusCode: '404', code: 'NoSuchBucket', error: 'not_found', message: 'Bucket not found' }])
    const missing = await render(publicRender('nothing.png', 'width=10'))
    expect(missing).toMatchObject({ status: 404, json: { code: 'NoSuchKey', message: 'Object not found' } })
    expect((await fetch(publicRender('cat.png'), { method: 'POST', headers: withKey(main.serviceKey) })).status).toBe(404)
  })

  it('gives a thumbnail through supabase-js getPublicUrl({ transform })', async () => {
    const { publicUrl } = anon.storage.from('pictures').getPublicUrl('cat.png', { transform: { width: 100, height: 100 } }).data
    expect(publicUrl).toBe(`${storageUrl}/render/image/public/pictures/cat.png?width=100&height=100`)
    expect(await render(publicUrl)).toMatchObject({ status: 200, width: 100, height: 100, format: 'png' })
  })
})

describe('authenticated renderings', () => {
  it("read the object as the caller: policies decide, as for the object's download", async () => {
    const url = `${storageUrl}/render/image/authenticated/private-pictures/cat.png?width=120&height=90`
    expect(await render(url, withKey(main.serviceKey))).toMatchObject({ status: 200, width: 120, height: 90 })
    // anon has no policy on storage.objects: the object is not there for it.
    const refused = await render(url, withKey(main.anonKey))
    expect(refused).toMatchObject({ status: 404, json: { code: 'NoSuchKey', message: 'Object not found' } })
    expect((await anon.storage.from('private-pictures').download('cat.png', { transform: { width: 50 } })).error).not.toBeNull()
    // Without a key the gateway refuses before storage.
    expect((await fetch(url)).status).toBe(401)

    await sql(`create policy "anon reads shared pictures" on storage.objects for select to anon
               using (bucket_id = 'private-pictures' and (storage.foldername(name))[1] = 'shared')`)
    expect((await service.storage.from('private-pictures').upload('shared/cat.png', png, { contentType: 'image/png' })).error).toBeNull()
    const shared = await anon.storage.from('private-pictures').download('shared/cat.png', { transform: { width: 80, height: 80, resize: 'contain' } })
    expect(shared.error).toBeNull()
    expect(shared.data?.type).toBe('image/png')
    expect(await sharp(Buffer.from(await shared.data!.arrayBuffer())).metadata()).toMatchObject({ width: 80, height: 60 })

    // storage-js's 'will download an authenticated transformed file': a JPEG comes back a JPEG (fetch's Accept names no WebP).
    const jpeg = await sharp(png).jpeg().toBuffer()
    expect((await service.storage.from('private-pictures').upload('photo.jpg', jpeg, { contentType: 'image/jpeg' })).error).toBeNull()
    const photo = await service.storage.from('private-pictures').download('photo.jpg', { transform: { width: 200, height: 200 } })
    expect(photo.error).toBeNull()
    expect(photo.data?.type).toBe('image/jpeg')
    expect(await sharp(Buffer.from(await photo.data!.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 200, height: 200 })
  })
})

describe('signed renderings', () => {
  it('sign the options into the token: /render/image/sign answers them, and only them', async () => {
    const files = service.storage.from('private-pictures')
    const signed = await files.createSignedUrl('cat.png', 60, { transform: { width: 200, height: 200, quality: 60 } })
    expect(signed.error).toBeNull()
    expect(signed.data!.signedUrl).toContain(`${storageUrl}/render/image/sign/private-pictures/cat.png?token=`)
    const image = await render(signed.data!.signedUrl)
    expect(image).toMatchObject({ status: 200, width: 200, height: 200 })
    expect(image.headers.get('x-transformations')).toBe('height:200,width:200,resizing_type:fill,quality:60')
    expect(Date.parse(image.headers.get('expires')!)).toBeGreaterThan(Date.now())
    // The query cannot change what was signed.
    expect(await render(`${signed.data!.signedUrl}&width=10&height=10`)).toMatchObject({ status: 200, width: 200, height: 200 })
    // A token names one object.
    const other = await render(signed.data!.signedUrl.replace('/cat.png?', '/shared/cat.png?'))
    expect(other).toMatchObject({ status: 400, json: { code: 'InvalidJWT' } })
    expect(await render(`${storageUrl}/render/image/sign/private-pictures/cat.png`)).toMatchObject({
      status: 400,
      json: { message: "querystring must have required property 'token'" },
    })
    // An upload URL's token opens no rendering.
    const upload = await files.createSignedUploadUrl('cat-upload.png')
    expect(upload.error).toBeNull()
    expect(await render(`${storageUrl}/render/image/sign/private-pictures/cat-upload.png?token=${upload.data!.token}`)).toMatchObject({ status: 400, json: { code: 'InvalidJWT' } })
    // An empty transform signs the object itself (storage-js: 'sign url with empty transform object uses object endpoint').
    const plain = await files.createSignedUrl('cat.png', 60, { transform: {} })
    expect(plain.data!.signedUrl).toContain(`${storageUrl}/object/sign/private-pictures/cat.png?token=`)
    // Bad options are refused when signing, in storage-api's words.
    const bad = await fetch(`${storageUrl}/object/sign/private-pictures/cat.png`, {
      method: 'POST',
      headers: { ...withKey(main.serviceKey), 'content-type': 'application/json' },
      body: JSON.stringify({ expiresIn: 60, transform: { width: 'wide' } }),
    })
    expect([bad.status, await bad.json()]).toEqual([400, { statusCode: '400', code: 'InvalidRequest', error: 'Bad Request', message: 'body/transform/width must be integer' }])
  })
})

describe('refusals', () => {
  it("refuses bad options with storage-api's validation texts", async () => {
    const cases: [string, string][] = [
      ['width=-1', 'querystring/width must be >= 0'],
      ['width=abc', 'querystring/width must be integer'],
      ['height=1.5', 'querystring/height must be integer'],
      ['resize=stretch', 'querystring/resize must be equal to one of the allowed values'],
      ['quality=10', 'querystring/quality must be >= 20'],
      ['quality=101', 'querystring/quality must be <= 100'],
      ['format=gif', 'querystring/format must be equal to one of the allowed values'],
      ['gravity=fp', "querystring must have required property 'x_offset'"],
      ['gravity=fp&x_offset=1.1&y_offset=0.5', 'querystring/x_offset must be <= 1'],
    ]
    for (const [query, message] of cases) {
      const answer = await render(publicRender('cat.png', query))
      expect([query, answer.status, answer.json]).toEqual([query, 400, { statusCode: '400', code: 'InvalidRequest', error: 'Bad Request', message }])
    }
  })

  it('answers a source that is not an image, or too big, with the error storage-api gives for imgproxy’s refusal', async () => {
    const files = service.storage.from('pictures')
    expect((await files.upload('notes.txt', 'not an image', { contentType: 'text/plain' })).error).toBeNull()
    expect((await files.upload('broken.png', png.subarray(0, 200), { contentType: 'image/png' })).error).toBeNull()
    const invalid = { statusCode: '400', code: 'InvalidRequest', error: 'InvalidRequest', message: 'The source image is invalid or unsupported for rendering' }
    for (const name of ['notes.txt', 'broken.png']) {
      const answer = await render(publicRender(name, 'width=10&height=10'))
      expect([name, answer.status, answer.json]).toEqual([name, 400, invalid])
    }

    // 10,000 x 10,000 pixels claimed by a file of a few bytes: refused from its header, never decoded.
    expect((await files.upload('bomb.png', claimedPng(10_000, 10_000), { contentType: 'image/png' })).error).toBeNull()
    const bomb = await render(publicRender('bomb.png', 'width=10'))
    expect([bomb.status, bomb.json]).toEqual([400, { statusCode: '400', code: 'InvalidRequest', error: 'InvalidRequest', message: 'The source image resolution is too large to process' }])

    // More bytes than a source may have (25 MB).
    const huge = Buffer.concat([png, Buffer.alloc(25_000_001)])
    expect((await files.upload('huge.png', huge, { contentType: 'image/png' })).error).toBeNull()
    const tooBig = await render(publicRender('huge.png', 'width=10'))
    expect([tooBig.status, tooBig.json]).toEqual([400, { statusCode: '400', code: 'InvalidRequest', error: 'InvalidRequest', message: 'The source image file is too large to process' }])
    expect((await files.remove(['huge.png'])).error).toBeNull()
  })

  it('clamps a size past the limit to 2500 pixels, as storage-api does', async () => {
    expect((await service.storage.from('pictures').upload('wide.png', await twoColourPng(3000, 20), { contentType: 'image/png' })).error).toBeNull()
    const wide = await render(publicRender('wide.png', 'width=100000'))
    expect(wide).toMatchObject({ status: 200, width: 2500, height: 17 })
    expect(wide.headers.get('x-transformations')).toBe('width:2500,resizing_type:fill')
  })

  it('stays up under a burst of renderings of one project: each is an image or 429 Too many requests', async () => {
    const answers = await Promise.all(Array.from({ length: 24 }, (_, index) => render(publicRender('cat.png', `width=${30 + index}`))))
    for (const answer of answers) {
      if (answer.status === 200) expect(answer.width).toBeGreaterThanOrEqual(30)
      else expect([answer.status, answer.json]).toEqual([429, { statusCode: '429', code: 'InvalidRequest', error: 'InvalidRequest', message: 'Too many requests' }])
    }
    expect(answers.some((answer) => answer.status === 200)).toBe(true)
    expect(await render(publicRender('cat.png', 'width=64'))).toMatchObject({ status: 200, width: 64 })
  })
})

describe('the cache of renderings', () => {
  const versionOf = async (name: string) => (await sql(`select version from storage.objects where bucket_id = 'pictures' and name = '${name}'`))[0].version as string
  const cacheDir = (version: string) => path.join(t.dataDir, 'storage', main.ref, 'transforms', version)

  it('serves a second request from disk, and forgets a version when the object is replaced or removed', async () => {
    const files = service.storage.from('pictures')
    expect((await files.upload('cached.png', png, { contentType: 'image/png' })).error).toBeNull()
    const version = await versionOf('cached.png')
    const first = await render(publicRender('cached.png', 'width=120&height=120'))
    expect(first).toMatchObject({ status: 200, width: 120, height: 120 })
    const kept = fs.readdirSync(cacheDir(version))
    expect(kept).toHaveLength(1)
    expect(fs.readFileSync(path.join(cacheDir(version), kept[0]!))).toEqual(first.bytes)

    // The same request again answers the kept file (replaced here by a marker image: it is what comes back).
    const marker = await sharp({ create: { width: 7, height: 7, channels: 3, background: '#00ff00' } }).png().toBuffer()
    fs.writeFileSync(path.join(cacheDir(version), kept[0]!), marker)
    const second = await render(publicRender('cached.png', 'width=120&height=120'))
    expect(second.bytes).toEqual(marker)
    // Other options are another rendering.
    expect(await render(publicRender('cached.png', 'width=60&height=60'))).toMatchObject({ width: 60, height: 60 })
    expect(fs.readdirSync(cacheDir(version))).toHaveLength(2)

    // Overwritten: the old version's renderings go, the new bytes are rendered.
    expect((await files.upload('cached.png', await twoColourPng(200, 100), { contentType: 'image/png', upsert: true })).error).toBeNull()
    expect(fs.existsSync(cacheDir(version))).toBe(false)
    const newer = await versionOf('cached.png')
    expect(await render(publicRender('cached.png', 'width=120&height=120&resize=contain'))).toMatchObject({ status: 200, width: 120, height: 60 })
    expect(fs.readdirSync(cacheDir(newer))).toHaveLength(1)
    // Removed: its renderings go with it.
    expect((await files.remove(['cached.png'])).error).toBeNull()
    expect(fs.existsSync(cacheDir(newer))).toBe(false)
  })
})
