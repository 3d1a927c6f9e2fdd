import fs from 'node:fs'
import path from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, projectApi, startTestPlatform, tokenFor, type ProjectApi, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/*
 * Each project's storage at {project URL}/storage/v1, driven by supabase-js (unmodified, from the npm
 * registry) as an app would: buckets, uploads with the bucket's rules, listing, downloads, signed and
 * public URLs, move, copy, remove; row level security on storage.objects written in SQL. The 200 MB
 * round trip is in storage-large.test.ts.
 */

type Project = ProjectApi

let t: TestPlatform
let cookie: string
let token: string
let main: Project
let other: Project
let service: SupabaseClient
let anon: SupabaseClient

const client = (project: Project, key: string): SupabaseClient =>
  createClient(project.url, key, { realtime: { transport: WebSocket as never }, auth: { persistSession: false, autoRefreshToken: false } })

async function createProject(name: string, slug: string): Promise<Project> {
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name, organization_slug: slug, db_pass: 'storage-test-password-1' })
  const ref = created.body.ref as string
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  return projectApi(t, ref, { cookie })
}

async function sql(ref: string, query: string) {
  const result = await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token }, { query })
  if (result.status >= 300) throw new Error(`${query}: ${JSON.stringify(result.body)}`)
  return result.body
}

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  main = await createProject('Storage API', slug)
  other = await createProject('Other', slug)
  service = client(main, main.serviceKey)
  anon = client(main, main.anonKey)
})
afterAll(() => t?.cleanup())

describe('buckets through storage-js', () => {
  it('creates, reads, updates, empties and deletes buckets; anon sees none without a policy', async () => {
    expect(await service.storage.createBucket('private-files', { public: false, fileSizeLimit: '1KB', allowedMimeTypes: ['text/*', 'application/json'] })).toEqual({
      data: { name: 'private-files' },
      error: null,
    })
    expect((await service.storage.createBucket('public-files', { public: true })).error).toBeNull()
    const duplicate = await service.storage.createBucket('public-files', { public: true })
    expect(duplicate.error?.message).toBe('The resource already exists')

    const got = await service.storage.getBucket('private-files')
    // storage-api's units are decimal: '1KB' is 1,000 bytes (storage-js's suite: '20mb' reads back as 20000000).
    expect(got.data).toMatchObject({ id: 'private-files', name: 'private-files', public: false, file_size_limit: 1000, allowed_mime_types: ['text/*', 'application/json'] })
    // One bucket comes without `type`, as storage-api selects it (storage-js storageApi.test.ts 'bucket api > Get bucket
    // by id' compares the whole object with its snapshot).
    expect(got.data).not.toHaveProperty('type')
    const listed = await service.storage.listBuckets()
    expect(listed.data?.map((bucket) => bucket.id).sort()).toEqual(['private-files', 'public-files'])
    expect(listed.data?.[0]).toMatchObject({ type: 'STANDARD' })
    expect((await service.storage.updateBucket('public-files', { public: true, fileSizeLimit: '20mb' })).error).toBeNull()
    expect((await service.storage.getBucket('public-files')).data?.file_size_limit).toBe(20_000_000)
    // storage.buckets has row level security and no policy: anon sees nothing and may create nothing.
    expect((await anon.storage.listBuckets()).data).toEqual([])
    const refused = await anon.storage.createBucket('anon-bucket')
    expect(refused.error?.message).toMatch(/row-level security/)

    expect((await service.storage.createBucket('scratch')).error).toBeNull()
    expect((await service.storage.updateBucket('scratch', { public: true, fileSizeLimit: 10 })).data).toEqual({ message: 'Successfully updated' })
    expect((await service.storage.getBucket('scratch')).data).toMatchObject({ public: true, file_size_limit: 10 })
    expect((await service.storage.from('scratch').upload('a.txt', 'tiny')).error).toBeNull()
    const notEmpty = await service.storage.deleteBucket('scratch')
    expect(notEmpty.error?.message).toBe('The bucket you tried to delete is not empty')
    expect((await service.storage.emptyBucket('scratch')).data).toEqual({ message: 'Empty bucket has been queued. Completion may take up to an hour.' })
    expect((await service.storage.deleteBucket('scratch')).data).toEqual({ message: 'Successfully deleted' })
    const missing = await service.storage.getBucket('scratch')
    expect(missing.error?.message).toBe('Bucket not found')

    // The dashboard's bucket calls read the same rows.
    const dashboard = await api(t, 'GET', `/platform/storage/${main.ref}/buckets`, { cookie })
    expect(dashboard.body.map((bucket: { id: string }) => bucket.id).sort()).toEqual(['private-files', 'public-files'])
  })
})

describe('objects through storage-js', () => {
  it('uploads with the bucket rules: upsert, size limit and MIME types', async () => {
    const files = service.storage.from('private-files')
    const first = await files.upload('notes/today.txt', 'first version', { contentType: 'text/plain' })
    expect(first.error).toBeNull()
    expect(first.data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), path: 'notes/today.txt', fullPath: 'private-files/notes/today.txt' })
    const again = await files.upload('notes/today.txt', 'second', { contentType: 'text/plain' })
    expect(again.error?.message).toBe('The resource already exists')
    const upsert = await files.upload('notes/today.txt', 'second version', { contentType: 'text/plain', upsert: true })
    expect(upsert.error).toBeNull()
    expect(upsert.data?.id).toBe(first.data?.id)
    expect(await (await files.download('notes/today.txt')).data?.text()).toBe('second version')

    expect((await files.upload('just-fits.txt', 'x'.repeat(1000), { contentType: 'text/plain' })).error).toBeNull()
    const tooBig = await files.upload('big.txt', 'x'.repeat(1001), { contentType: 'text/plain' })
    expect(tooBig.error?.message).toBe('The object exceeded the maximum allowed size')
    // A Blob goes as multipart/form-data: the limit holds there too, while streaming.
    const tooBigBlob = await files.upload('big-blob.txt', new Blob(['y'.repeat(5000)], { type: 'text/plain' }))
    expect(tooBigBlob.error?.message).toBe('The object exceeded the maximum allowed size')
    const wrongType = await files.upload('image.png', Buffer.from([0x89, 0x50]), { contentType: 'image/png' })
    expect(wrongType.error?.message).toBe('mime type image/png is not supported')
    expect((await files.upload('data.json', '{"a":1}', { contentType: 'application/json' })).error).toBeNull()
    expect((await files.list('', { search: 'big' })).data).toEqual([])
    expect((await files.remove(['just-fits.txt'])).error).toBeNull()

    // Update (PUT) replaces; info tells size, type and the client's metadata.
    expect((await files.update('data.json', new Blob(['{"a":2}'], { type: 'application/json' }), { metadata: { origin: 'test' } })).error).toBeNull()
    const info = await files.info('data.json')
    expect(info.data).toMatchObject({ name: 'data.json', bucketId: 'private-files', size: 7, contentType: 'application/json', metadata: { origin: 'test' } })
    // storage-js's suite ('get object info'): no metadata sent reads back as {}, and there is no updatedAt.
    expect((await files.upload('plain.txt', 'plain', { contentType: 'text/plain' })).error).toBeNull()
    const plain = await files.info('plain.txt')
    expect(plain.data).toMatchObject({ metadata: {}, etag: expect.any(String), lastModified: expect.any(String), createdAt: expect.any(String), version: expect.any(String) })
    expect(plain.data).not.toHaveProperty('updatedAt')
    expect((await files.remove(['plain.txt'])).error).toBeNull()
    expect(await files.exists('data.json')).toMatchObject({ data: true })
    expect(await files.exists('nothing.json')).toMatchObject({ data: false })
  })

  it('lists one level with prefix, search, sorting and paging', async () => {
    const files = service.storage.from('public-files')
    for (const name of ['docs/a.txt', 'docs/b.txt', 'docs/c.txt', 'docs/deep/d.txt', 'top.txt']) {
      expect((await files.upload(name, `content of ${name}`, { contentType: 'text/plain' })).error).toBeNull()
    }
    const root = await files.list()
    expect(root.data?.map((item) => [item.name, item.id === null])).toEqual([['docs', true], ['top.txt', false]])
    const docs = await files.list('docs', { limit: 2, offset: 1, sortBy: { column: 'name', order: 'asc' } })
    expect(docs.data?.map((item) => item.name)).toEqual(['b.txt', 'c.txt'])
    const desc = await files.list('docs/', { sortBy: { column: 'name', order: 'desc' } })
    expect(desc.data?.map((item) => item.name)).toEqual(['deep', 'c.txt', 'b.txt', 'a.txt'])
    expect((await files.list('docs', { search: 'b' })).data?.map((item) => item.name)).toEqual(['b.txt'])
    expect((await files.list('docs')).data?.find((item) => item.name === 'a.txt')?.metadata).toMatchObject({ size: 'content of docs/a.txt'.length, mimetype: 'text/plain' })
    // Wildcards in a prefix are text, not patterns.
    expect((await files.list('do%')).data).toEqual([])
  })

  // storage-js's own suite (storageFileApi.test.ts: 'list objects V2', '- folders', '- paginated'), written again here.
  it('lists with list-v2: under a prefix, one level with folders, and in pages by cursor for each sort', async () => {
    expect((await service.storage.createBucket('list-v2-files')).error).toBeNull()
    const files = service.storage.from('list-v2-files')
    const suffixes = ['zz', 'bb', 'xx', 'ww', 'cc', 'aa', 'yy', 'oo']
    // One at a time: the created_at order is the upload order.
    for (const suffix of suffixes) expect((await files.upload(`testpath/file-${suffix}.txt`, suffix)).error).toBeNull()
    expect((await files.upload('testpath/deeper/inside.txt', 'x')).error).toBeNull()

    const under = await files.listV2({ prefix: 'testpath' })
    expect(under.error).toBeNull()
    expect(under.data).toMatchObject({ hasNext: false, folders: [] })
    expect(under.data?.objects.map((object) => object.name)).toEqual([
      'testpath/deeper/inside.txt',
      ...suffixes.slice().sort().map((suffix) => `testpath/file-${suffix}.txt`),
    ])
    expect(under.data?.objects[0]).toMatchObject({ id: expect.any(String), metadata: expect.objectContaining({ size: 1 }) })

    const top = await files.listV2({ with_delimiter: true })
    expect(top.data).toEqual({ hasNext: false, folders: [expect.objectContaining({ key: 'testpath', name: 'testpath/', id: null })], objects: [] })

    const level = await files.listV2({ prefix: 'testpath/', with_delimiter: true })
    expect(level.data?.folders.map((folder) => [folder.key, folder.name])).toEqual([['deeper', 'testpath/deeper/']])
    expect(level.data?.objects.map((object) => object.key)).toEqual(suffixes.slice().sort().map((suffix) => `file-${suffix}.txt`))

    const sorts = [
      { expected: suffixes.slice().sort() },
      { expected: suffixes.slice().sort().reverse(), sortBy: { column: 'name', order: 'desc' } },
      { expected: suffixes.slice(), sortBy: { column: 'created_at', order: 'asc' } },
      { expected: suffixes.slice().reverse(), sortBy: { column: 'created_at', order: 'desc' } },
    ] as const
    for (const { expected, ...sort } of sorts) {
      const seen: string[] = []
      let cursor: string | undefined
      let pages = 0
      do {
        const page = await files.listV2({ prefix: 'testpath/file-', with_delimiter: true, limit: 2, ...(cursor ? { cursor } : {}), ...sort })
        expect(page.error).toBeNull()
        expect(page.data?.objects).toHaveLength(2)
        seen.push(...page.data!.objects.map((object) => object.name.slice('testpath/file-'.length, -'.txt'.length)))
        cursor = page.data?.hasNext ? page.data.nextCursor : undefined
        pages++
      } while (cursor)
      expect([seen, pages]).toEqual([expected, 4])
    }

    // A bucket named like the route is not what it lists; a cursor that is not one is refused in storage-api's words.
    const bad = await fetch(`${main.url}/storage/v1/object/list-v2/list-v2-files`, {
      method: 'POST',
      headers: { apikey: main.serviceKey, authorization: `Bearer ${main.serviceKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cursor: Buffer.from('nonsense').toString('base64') }),
    })
    expect([bad.status, await bad.json()]).toEqual([400, { statusCode: '400', code: 'InvalidParameter', error: 'Bad Request', message: 'Invalid Parameter continuation token' }])
    // Read as the caller: anon, with no policy on the bucket, lists nothing.
    expect((await anon.storage.from('list-v2-files').listV2({ prefix: 'testpath/' })).data).toEqual({ hasNext: false, folders: [], objects: [] })
  })

  it('downloads whole and by range; public URLs need no key; private buckets do not answer them', async () => {
    const files = service.storage.from('public-files')
    expect(await (await files.download('docs/a.txt')).data?.text()).toBe('content of docs/a.txt')
    const publicUrl = files.getPublicUrl('docs/a.txt').data.publicUrl
    expect(publicUrl).toBe(`${main.url}/storage/v1/object/public/public-files/docs/a.txt`)
    const plain = await fetch(publicUrl)
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-type')).toBe('text/plain')
    expect(await plain.text()).toBe('content of docs/a.txt')
    const ranged = await fetch(publicUrl, { headers: { range: 'bytes=0-6' } })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('content-range')).toBe('bytes 0-6/21')
    expect(await ranged.text()).toBe('content')
    expect((await fetch(publicUrl, { headers: { range: 'bytes=500-' } })).status).toBe(416)
    const etag = plain.headers.get('etag')!
    expect((await fetch(publicUrl, { headers: { 'if-none-match': etag } })).status).toBe(304)
    const asFile = await fetch(`${publicUrl}?download=report.txt`)
    expect(asFile.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''report.txt")

    const privateUrl = service.storage.from('private-files').getPublicUrl('notes/today.txt').data.publicUrl
    const refused = await fetch(privateUrl)
    expect(refused.status).toBe(404)
    expect(await refused.json()).toMatchObject({ statusCode: '404', code: 'NoSuchBucket', message: 'Bucket not found' })
  })

  it('signs download URLs that work until they expire, and upload URLs', async () => {
    const files = service.storage.from('private-files')
    const signed = await files.createSignedUrl('notes/today.txt', 60)
    expect(signed.error).toBeNull()
    const response = await fetch(signed.data!.signedUrl)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('second version')
    // A token names one object: used for another it is refused.
    const forOther = signed.data!.signedUrl.replace('notes/today.txt', 'data.json')
    expect((await fetch(forOther)).status).toBe(400)

    const short = await files.createSignedUrl('notes/today.txt', 1)
    await waitFor(async () => (await fetch(short.data!.signedUrl)).status === 400, { what: 'the signed URL to expire', timeoutMs: 15_000 })
    const expired = await (await fetch(short.data!.signedUrl)).json()
    expect(expired).toMatchObject({ code: 'InvalidJWT', message: 'jwt expired' })

    const many = await files.createSignedUrls(['notes/today.txt', 'missing.txt'], 60)
    expect(many.data?.map((entry) => [entry.path, entry.signedUrl !== null, entry.error])).toEqual([
      ['notes/today.txt', true, null],
      ['missing.txt', false, 'Either the object does not exist or you do not have access to it'],
    ])

    const uploadUrl = await files.createSignedUploadUrl('uploads/by-link.txt')
    expect(uploadUrl.error).toBeNull()
    // Anyone holding the link uploads once, without a key.
    const anonymous = client(main, 'not-a-key')
    const viaLink = await anonymous.storage.from('private-files').uploadToSignedUrl('uploads/by-link.txt', uploadUrl.data!.token, 'sent by link', { contentType: 'text/plain' })
    expect(viaLink.error).toBeNull()
    expect(await (await files.download('uploads/by-link.txt')).data?.text()).toBe('sent by link')
  })

  it('moves, copies and removes', async () => {
    const files = service.storage.from('public-files')
    expect((await files.move('top.txt', 'moved/top.txt')).data).toEqual({ message: 'Successfully moved' })
    expect((await files.download('top.txt')).error?.message).toMatch(/Object not found|not found/i)
    expect(await (await files.download('moved/top.txt')).data?.text()).toBe('content of top.txt')
    expect((await files.copy('moved/top.txt', 'copies/top.txt')).data).toEqual({ path: 'public-files/copies/top.txt' })
    expect((await files.copy('moved/top.txt', 'copied-across.txt', { destinationBucket: 'private-files' })).error).toBeNull()
    expect(await (await service.storage.from('private-files').download('copied-across.txt')).data?.text()).toBe('content of top.txt')
    expect(await (await files.download('copies/top.txt')).data?.text()).toBe('content of top.txt')
    const removed = await files.remove(['moved/top.txt', 'copies/top.txt', 'never-was.txt'])
    expect(removed.data?.map((object) => object.name).sort()).toEqual(['copies/top.txt', 'moved/top.txt'])
    expect((await files.download('copies/top.txt')).error).not.toBeNull()
    const missingMove = await files.move('never-was.txt', 'x.txt')
    expect(missingMove.error?.message).toBe('Object not found')
  })
})

describe('row level security on storage.objects', () => {
  it('lets anon read only the folder a policy allows, and write nowhere', async () => {
    await sql(main.ref, `create policy "anon reads shared" on storage.objects for select to anon
                         using (bucket_id = 'private-files' and (storage.foldername(name))[1] = 'shared')`)
    const files = service.storage.from('private-files')
    expect((await files.upload('shared/readme.txt', 'for everyone', { contentType: 'text/plain' })).error).toBeNull()
    const visitor = anon.storage.from('private-files')
    expect(await (await visitor.download('shared/readme.txt')).data?.text()).toBe('for everyone')
    const hidden = await visitor.download('notes/today.txt')
    expect(hidden.error).not.toBeNull()
    expect((await visitor.list('')).data?.map((item) => item.name)).toEqual(['shared'])
    expect((await visitor.createSignedUrl('notes/today.txt', 60)).error?.message).toBe('Object not found')
    const write = await visitor.upload('shared/anon.txt', 'nope', { contentType: 'text/plain' })
    expect(write.error?.message).toBe('new row violates row-level security policy')
    expect((await visitor.remove(['shared/readme.txt'])).data).toEqual([])
    expect(await (await files.download('shared/readme.txt')).data?.text()).toBe('for everyone')
  })

  it("records a signed-in user as the object's owner, and policies on auth.uid() hold", async () => {
    await sql(main.ref, `create policy "users write own folder" on storage.objects for insert to authenticated
                           with check (bucket_id = 'private-files' and (storage.foldername(name))[1] = auth.uid()::text);
                         create policy "users read own" on storage.objects for select to authenticated using (owner_id = auth.uid()::text)`)
    const created = await service.auth.admin.createUser({ email: 'uploader@example.com', password: 'uploader-password-1', email_confirm: true })
    expect(created.error).toBeNull()
    const user = client(main, main.anonKey)
    expect((await user.auth.signInWithPassword({ email: 'uploader@example.com', password: 'uploader-password-1' })).error).toBeNull()
    const id = created.data.user!.id
    const mine = await user.storage.from('private-files').upload(`${id}/avatar.txt`, 'mine', { contentType: 'text/plain' })
    expect(mine.error).toBeNull()
    const elsewhere = await user.storage.from('private-files').upload('shared/not-mine.txt', 'x', { contentType: 'text/plain' })
    expect(elsewhere.error?.message).toBe('new row violates row-level security policy')
    const rows = await sql(main.ref, `select owner::text, owner_id, metadata->>'size' as size from storage.objects where name = '${id}/avatar.txt'`)
    expect(rows).toEqual([{ owner: id, owner_id: id, size: '4' }])
    expect(await (await user.storage.from('private-files').download(`${id}/avatar.txt`)).data?.text()).toBe('mine')
  })
})

describe('hostile input', () => {
  it('refuses object names that could be paths elsewhere, and bad bodies, with storage errors', async () => {
    const files = service.storage.from('public-files')
    // storage-js (and fetch) resolve '..' and collapse '//' before sending; what survives URL parsing is checked here.
    for (const name of ['bad\u0001name.txt', 'bell\u0007.txt']) {
      const result = await files.upload(name, 'x', { contentType: 'text/plain' })
      expect(result.error?.message, name).toMatch(/Invalid key/)
    }
    for (const rawPath of ['a/..%2F..%2F..%2Fetc%2Fpasswd', 'a/%2e%2e%2Fb.txt', 'a%2F%2Fb.txt', 'nul%00byte.txt']) {
      const response = await fetch(`${main.url}/storage/v1/object/public-files/${rawPath}`, {
        method: 'POST',
        headers: { apikey: main.serviceKey, authorization: `Bearer ${main.serviceKey}`, 'content-type': 'text/plain' },
        body: 'x',
      })
      expect(response.status, rawPath).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'InvalidKey' })
    }
    const badJson = await fetch(`${main.url}/storage/v1/object/list/public-files`, {
      method: 'POST',
      headers: { apikey: main.serviceKey, authorization: `Bearer ${main.serviceKey}`, 'content-type': 'application/json' },
      body: '{"limit": "all"',
    })
    expect(badJson.status).toBe(400)
    expect(await badJson.json()).toMatchObject({ statusCode: '400', message: 'The body must be a JSON object' })
    const badLimit = await files.list('', { limit: -5 })
    expect(badLimit.error?.message).toMatch(/limit/)
    expect((await files.createSignedUrl('docs/a.txt', -1)).error?.message).toMatch(/expiresIn/)
    // Nothing landed outside the project's storage directory.
    expect(fs.existsSync(path.join(t.dataDir, 'storage', 'escape.txt'))).toBe(false)
  })

  it("does not let one project's keys or tokens reach another project's files", async () => {
    const theirs = client(other, other.serviceKey)
    expect((await theirs.storage.createBucket('theirs', { public: false })).error).toBeNull()
    expect((await theirs.storage.from('theirs').upload('secret.txt', 'other project', { contentType: 'text/plain' })).error).toBeNull()
    // main's service key against other's URL: the gateway refuses the key.
    const crossed = client(other, main.serviceKey)
    expect((await crossed.storage.from('theirs').download('secret.txt')).error).not.toBeNull()
    // other's apikey with main's service-role JWT as bearer: the token does not verify there.
    const mixed = await fetch(`${other.url}/storage/v1/object/theirs/secret.txt`, { headers: { apikey: other.anonKey, authorization: `Bearer ${main.serviceKey}` } })
    expect(mixed.status).toBe(400)
    expect(await mixed.json()).toMatchObject({ code: 'InvalidJWT' })
    // A URL signed by main does not open other's object.
    const signed = await service.storage.from('public-files').createSignedUrl('docs/a.txt', 60)
    const token = new URL(signed.data!.signedUrl).searchParams.get('token')
    expect((await fetch(`${other.url}/storage/v1/object/sign/theirs/secret.txt?token=${token}`)).status).toBe(400)
  })
})
