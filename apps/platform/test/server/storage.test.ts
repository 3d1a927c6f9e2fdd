import yauzl from 'yauzl'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login, memberWithRole, projectApi, startTestPlatform, waitFor, waitForStatus, type TestPlatform } from './harness.js'

let t: TestPlatform
let cookie: string
let ref: string
let developer: string
let readOnly: string

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  ref = (await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Storage', organization_slug: slug, db_pass: 'storage-password-1' })).body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  developer = (await memberWithRole(t, slug, 'developer')).token
  readOnly = (await memberWithRole(t, slug, 'read_only')).token
})
afterAll(() => t?.cleanup())

const buckets = (caller = { cookie }) => api(t, 'GET', `/platform/storage/${ref}/buckets`, caller)

/** The entries of a zip and their contents, read with a real unzip library. */
function readZip(buffer: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err)
      const entries = new Map<string, string>()
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) {
          entries.set(entry.fileName, '')
          return zip.readEntry()
        }
        zip.openReadStream(entry, (error, stream) => {
          if (error || !stream) return reject(error)
          const chunks: Buffer[] = []
          stream.on('data', (c: Buffer) => chunks.push(c))
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks).toString('utf8'))
            zip.readEntry()
          })
        })
      })
      zip.on('end', () => resolve(entries))
      zip.on('error', reject)
      zip.readEntry()
    })
  })
}

describe('storage buckets', () => {
  it('creates, reads, updates and deletes buckets with the platform fields', async () => {
    expect((await buckets()).body).toEqual([])
    const created = await api(t, 'POST', `/platform/storage/${ref}/buckets`, { cookie }, { name: 'avatars', public: true })
    expect(created.status).toBe(201)
    expect(created.headers.get('content-type')).toContain('application/json')
    expect(created.body).toMatchObject({
      id: 'avatars', name: 'avatars', public: true, allowed_mime_types: null, file_size_limit: null, type: 'STANDARD',
    })
    // Made by the platform, not by one of the project's users (as buckets made in Supabase's dashboard).
    expect(created.body.owner).toBe('')
    expect(Date.parse(created.body.created_at)).not.toBeNaN()

    const docs = await api(t, 'POST', `/platform/storage/${ref}/buckets`, { token: developer }, {
      id: 'docs', allowed_mime_types: ['application/pdf', 'image/*', 'IMAGE/PNG'], file_size_limit: 1048576, type: 'ANALYTICS',
    })
    expect(docs.status).toBe(201)
    expect(docs.body).toMatchObject({ id: 'docs', public: false, allowed_mime_types: ['application/pdf', 'image/*', 'image/png'], file_size_limit: 1048576, type: 'ANALYTICS' })

    const v1 = await api(t, 'GET', `/v1/projects/${ref}/storage/buckets`, { token: readOnly })
    expect(v1.status).toBe(200)
    expect(v1.body).toEqual([
      { id: 'avatars', name: 'avatars', owner: '', public: true, created_at: expect.any(String), updated_at: expect.any(String) },
      { id: 'docs', name: 'docs', owner: '', public: false, created_at: expect.any(String), updated_at: expect.any(String) },
    ])
    const list = await buckets({ token: readOnly } as never)
    expect(list.status).toBe(200)
    expect(list.body.map((b: { id: string }) => b.id)).toEqual(['avatars', 'docs'])
    expect((await api(t, 'GET', `/platform/storage/${ref}/buckets/docs`, { token: readOnly })).body.file_size_limit).toBe(1048576)

    // Only the fields sent change; [] means no type is allowed, null lifts the limit.
    const updated = await api(t, 'PUT', `/platform/storage/${ref}/buckets/docs`, { cookie }, { allowed_mime_types: [], file_size_limit: null })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ public: false, allowed_mime_types: [], file_size_limit: null, type: 'ANALYTICS' })
    expect(Date.parse(updated.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(docs.body.updated_at))
    const publicAgain = await api(t, 'PUT', `/platform/storage/${ref}/buckets/docs`, { cookie }, { public: true })
    expect(publicAgain.body).toMatchObject({ public: true, allowed_mime_types: [] })

    const removed = await api(t, 'DELETE', `/platform/storage/${ref}/buckets/docs`, { token: developer })
    expect(removed.status).toBe(200)
    expect((await api(t, 'GET', `/platform/storage/${ref}/buckets/docs`, { cookie })).status).toBe(404)
    expect((await api(t, 'DELETE', `/platform/storage/${ref}/buckets/docs`, { cookie })).status).toBe(404)
    expect((await api(t, 'PUT', `/platform/storage/${ref}/buckets/docs`, { cookie }, { public: true })).status).toBe(404)
  })

  it('refuses bad input with a clear 400, duplicates with 409, and writes nothing', async () => {
    const before = (await buckets()).body
    const cases: [unknown, RegExp][] = [
      [{}, /Bucket name is required/],
      [{ name: '' }, /cannot be empty/],
      [{ name: '../etc' }, /may only hold letters/],
      [{ name: 'has space' }, /may only hold letters/],
      [{ name: 'x'.repeat(101) }, /at most 100/],
      [{ id: 'a', name: 'b' }, /must be the same/],
      [{ name: 'ok', public: 'yes' }, /public must be true or false/],
      [{ name: 'ok', allowed_mime_types: ['png'] }, /type\/subtype/],
      [{ name: 'ok', allowed_mime_types: 'image/png' }, /list of MIME types/],
      [{ name: 'ok', file_size_limit: -1 }, /cannot be negative/],
      [{ name: 'ok', file_size_limit: 1.5 }, /whole number/],
      [{ name: 'ok', type: 'COLD' }, /STANDARD, ANALYTICS/],
    ]
    for (const [body, message] of cases) {
      const result = await api(t, 'POST', `/platform/storage/${ref}/buckets`, { cookie }, body)
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body.message).toMatch(message)
    }
    const duplicate = await api(t, 'POST', `/platform/storage/${ref}/buckets`, { cookie }, { name: 'avatars' })
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.message).toBe('A bucket named avatars already exists')
    const badUpdate = await api(t, 'PUT', `/platform/storage/${ref}/buckets/avatars`, { cookie }, { name: 'renamed' })
    expect(badUpdate.status).toBe(400)
    expect((await api(t, 'PUT', `/platform/storage/${ref}/buckets/avatars`, { cookie }, { file_size_limit: 'big' })).status).toBe(400)
    expect((await buckets()).body).toEqual(before)
  })

  it('lets Read-only read but not create, update or delete; outsiders get 404', async () => {
    const create = await api(t, 'POST', `/platform/storage/${ref}/buckets`, { token: readOnly }, { name: 'nope' })
    expect(create.status).toBe(403)
    expect(create.body.message).toMatch(/permissions/)
    expect((await api(t, 'PUT', `/platform/storage/${ref}/buckets/avatars`, { token: readOnly }, { public: false })).status).toBe(403)
    expect((await api(t, 'DELETE', `/platform/storage/${ref}/buckets/avatars`, { token: readOnly })).status).toBe(403)
    expect((await api(t, 'GET', `/platform/storage/${ref}/buckets/avatars`, { token: readOnly })).body.public).toBe(true)
    expect((await api(t, 'GET', `/platform/storage/${ref}/buckets`)).status).toBe(401)
    expect((await api(t, 'GET', `/platform/storage/abcdefghijabcdefghij/buckets`, { cookie })).status).toBe(404)
  })
})

describe("the Storage page's object calls", () => {
  const objects = (rest: string) => `/platform/storage/${ref}/objects/${rest}`

  it('upload, list, download and delete for writers; Read-only lists and downloads only; others are refused', async () => {
    const upload = (token: string | undefined, name: string) =>
      fetch(`${t.platform.url}${objects(`avatars/${name}`)}`, {
        method: 'POST',
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'text/plain', origin: t.platform.url },
        body: `file ${name}`,
      })
    expect((await upload(developer, 'team/dev.txt')).status).toBe(200)
    expect((await upload(readOnly, 'team/ro.txt')).status).toBe(403)
    expect((await upload(undefined, 'team/anon.txt')).status).toBe(401)

    const listed = await api(t, 'POST', objects('list/avatars'), { token: readOnly }, { prefix: 'team' })
    expect(listed.status).toBe(200)
    expect(listed.body.map((item: { name: string }) => item.name)).toEqual(['dev.txt'])
    const download = await fetch(`${t.platform.url}${objects('avatars/team/dev.txt')}`, { headers: { authorization: `Bearer ${readOnly}` } })
    expect(download.status).toBe(200)
    expect(await download.text()).toBe('file team/dev.txt')
    const signed = await api(t, 'POST', objects('sign/avatars/team/dev.txt'), { token: readOnly }, { expiresIn: 60 })
    expect(signed.body.signedURL).toMatch(/^\/object\/sign\/avatars\/team\/dev\.txt\?token=/)

    expect((await api(t, 'DELETE', objects('avatars'), { token: readOnly }, { prefixes: ['team/dev.txt'] })).status).toBe(403)
    expect((await api(t, 'POST', objects('move'), { token: readOnly }, { bucketId: 'avatars', sourceKey: 'team/dev.txt', destinationKey: 'x.txt' })).status).toBe(403)
    const badBody = await api(t, 'POST', objects('list/avatars'), { token: developer }, { limit: 'all' })
    expect(badBody.status).toBe(400)
    expect(badBody.body.message).toMatch(/limit/)
    expect((await api(t, 'POST', `/platform/storage/abcdefghijabcdefghij/objects/list/avatars`, { cookie }, {})).status).toBe(404)
    const removed = await api(t, 'DELETE', objects('avatars'), { token: developer }, { prefixes: ['team/dev.txt'] })
    expect(removed.body.map((item: { name: string }) => item.name)).toEqual(['team/dev.txt'])
  })
})

describe('the storage config (Management API)', () => {
  it('answers the project limit and its features, takes a new limit that uploads then obey, refuses what is not served', async () => {
    const config = await api(t, 'GET', `/v1/projects/${ref}/config/storage`, { token: readOnly })
    expect(config.status).toBe(200)
    expect(config.body).toMatchObject({ fileSizeLimit: 5 * 1024 ** 3, features: { imageTransformation: { enabled: true }, s3Protocol: { enabled: false } }, migrationVersion: 'stratum_storage_1' })
    expect((await api(t, 'PATCH', `/v1/projects/${ref}/config/storage`, { token: readOnly }, { fileSizeLimit: 10 })).status).toBe(403)
    // Image transformation is a switch of the project's: off, the render routes are not served (storage-api does not
    // register them); on again, they are.
    const { url, anonKey } = await projectApi(t, ref, { cookie })
    const render = async () => ((await (await fetch(`${url}/storage/v1/render/image/public/no-bucket/none.png?width=10`, { headers: { apikey: anonKey } })).json()) as { message: string }).message
    expect(await render()).toBe('Bucket not found')
    const disable = await api(t, 'PATCH', `/v1/projects/${ref}/config/storage`, { cookie }, { features: { imageTransformation: { enabled: false } } })
    expect(disable.status).toBe(200)
    expect(disable.body.features.imageTransformation).toEqual({ enabled: false })
    expect(await render()).toMatch(/^Route GET:\S*\/render\/image\/public\/no-bucket\/none\.png not found$/)
    const reenable = await api(t, 'PATCH', `/v1/projects/${ref}/config/storage`, { cookie }, { features: { imageTransformation: { enabled: true } } })
    expect(reenable.body.features.imageTransformation).toEqual({ enabled: true })
    expect(await render()).toBe('Bucket not found')
    const enable = await api(t, 'PATCH', `/v1/projects/${ref}/config/storage`, { cookie }, { features: { s3Protocol: { enabled: true } } })
    expect(enable.status).toBe(400)
    expect(enable.body.message).toMatch(/The S3 protocol is not available on this platform/)
    expect((await api(t, 'PATCH', `/v1/projects/${ref}/config/storage`, { cookie }, { fileSizeLimit: -1 })).status).toBe(400)
    expect((await api(t, 'PATCH', `/v1/projects/${ref}/config/storage`, { cookie }, { fileSizeLimit: 6 * 1024 ** 3 })).body.message).toMatch(/at most/)
    const patched = await api(t, 'PATCH', `/v1/projects/${ref}/config/storage`, { cookie }, { fileSizeLimit: 10, features: { s3Protocol: { enabled: false } } })
    expect(patched.status).toBe(200)
    expect(patched.body.fileSizeLimit).toBe(10)
    const upload = (body: string) =>
      fetch(`${t.platform.url}/platform/storage/${ref}/objects/avatars/limit.txt`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'text/plain', origin: t.platform.url, 'x-upsert': 'true' },
        body,
      })
    expect((await upload('0123456789')).status).toBe(200)
    const refused = await upload('0123456789A')
    expect(refused.status).toBe(413)
    expect(((await refused.json()) as { message: string }).message).toBe('The object exceeded the maximum allowed size')
    await api(t, 'PATCH', `/v1/projects/${ref}/config/storage`, { cookie }, { fileSizeLimit: 5 * 1024 ** 3 })
    await api(t, 'DELETE', `/platform/storage/${ref}/objects/avatars`, { cookie }, { prefixes: ['limit.txt'] })
  })
})

describe('storage archive', () => {
  it('is 404 before any request, then {} while building, then a signed fileUrl to a zip of the records and objects', async () => {
    expect((await api(t, 'GET', `/platform/storage/${ref}/archive`, { cookie })).status).toBe(404)
    await api(t, 'POST', `/platform/storage/${ref}/buckets`, { cookie }, { name: 'empty-bucket' })
    // An object uploaded through the project's storage API, as an app would.
    const settings = (await api(t, 'GET', `/platform/projects/${ref}/settings`, { cookie })).body
    const serviceKey = settings.service_api_keys.find((key: { tags: string }) => key.tags === 'service_role').api_key
    const uploaded = await fetch(`${t.platform.apiUrl}/projects/${ref}/storage/v1/object/avatars/users/me.txt`, {
      method: 'POST',
      headers: { apikey: serviceKey, authorization: `Bearer ${serviceKey}`, 'content-type': 'text/plain' },
      body: 'hello object',
    })
    expect(uploaded.status, await uploaded.clone().text()).toBe(200)

    const started = await api(t, 'POST', `/platform/storage/${ref}/archive`, { token: readOnly })
    expect(started.status).toBe(201)
    let fileUrl: string | undefined
    await waitFor(async () => {
      const polled = await api(t, 'GET', `/platform/storage/${ref}/archive`, { cookie })
      expect(polled.status).toBe(200)
      fileUrl = polled.body.fileUrl
      // Until the archive is ready, the answer is empty (the dashboard keeps polling).
      if (!fileUrl) expect(polled.body).toEqual({})
      return fileUrl !== undefined
    }, { intervalMs: 50, what: 'the storage archive' })
    expect(fileUrl).toMatch(new RegExp(`^/platform/storage/${ref}/archive/download\\?token=`))

    const response = await fetch(t.platform.url + fileUrl!, { headers: { cookie } })
    expect(response.status, await response.clone().text()).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.zip"/)
    const entries = await readZip(Buffer.from(await response.arrayBuffer()))
    expect([...entries.keys()].sort()).toEqual(['avatars/users/me.txt', 'buckets.json', 'empty-bucket/'])
    expect(entries.get('avatars/users/me.txt')).toBe('hello object')
    const records = JSON.parse(entries.get('buckets.json')!)
    expect(records.map((b: { id: string; public: boolean }) => [b.id, b.public])).toEqual([['avatars', true], ['empty-bucket', false]])

    // The signed link alone downloads (the browser opens it as a file); a tampered one is refused.
    expect((await fetch(t.platform.url + fileUrl!.slice(0, -2) + 'xx')).status).toBe(403)
    expect((await fetch(t.platform.url + fileUrl!)).status).toBe(200)

    // A new request replaces the archive: the old link stops working.
    await api(t, 'POST', `/platform/storage/${ref}/archive`, { cookie })
    expect((await fetch(t.platform.url + fileUrl!, { headers: { cookie } })).status).toBe(404)
  })
})
