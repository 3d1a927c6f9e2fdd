import { CONTENT_TEXTS, ContentItem, ContentListResponse, FolderListResponse } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login, memberWithRole, startTestPlatform, waitForStatus, type Caller, type TestPlatform } from './harness.js'

let t: TestPlatform
let owner: Caller
let ownerId: string
let ref: string
let dev: Caller & { id: string }
let dev2: Caller & { id: string }
let readOnly: Caller

const path = (rest = '') => `/platform/projects/${ref}/content${rest}`
const V2 = { version: '2' }

/** POST with the Version header (the harness's api() has no header option). */
async function post(caller: Caller, body: unknown, headers: Record<string, string> = V2) {
  const response = await fetch(t.platform.url + path(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${caller.token}`, ...headers },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

const snippet = (sql: string, extra: Record<string, unknown> = {}) => ({ type: 'sql', name: sql.slice(0, 20), content: { schema_version: '1.0', sql }, ...extra })
const contentCount = async () => (await t.platform.ctx.db.query('SELECT count(*)::int AS n FROM content')).rows[0].n
const folderCount = async () => (await t.platform.ctx.db.query('SELECT count(*)::int AS n FROM content_folders')).rows[0].n

beforeAll(async () => {
  t = await startTestPlatform()
  const cookie = await login(t)
  const orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Snippets', organization_slug: orgSlug, db_pass: 'snip-password-1' })
  ref = created.body.ref
  const member = async (role: 'administrator' | 'developer' | 'read_only') => {
    const m = await memberWithRole(t, orgSlug, role)
    const id = (await api(t, 'GET', '/platform/profile', { token: m.token })).body.id
    return { token: m.token, origin: null, id }
  }
  const admin = await member('administrator')
  owner = admin
  ownerId = admin.id
  dev = await member('developer')
  dev2 = await member('developer')
  readOnly = await member('read_only')
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 20_000)
})
afterAll(() => t?.cleanup())

describe('snippets', () => {
  it('creates, reads, updates (upsert) and deletes a snippet', async () => {
    const created = await post(dev, snippet('select 1', { description: 'first' }))
    expect(created.status).toBe(201)
    const item = ContentItem.parse(created.body)
    expect(item).toMatchObject({ type: 'sql', visibility: 'user', owner_id: dev.id, folder_id: null, favorite: false, description: 'first' })
    expect(item.content).toEqual({ schema_version: '1.0', content_id: item.id, sql: 'select 1', favorite: false })
    expect(item.owner).toEqual({ id: dev.id, username: expect.any(String) })

    const read = await api(t, 'GET', path(`/item/${item.id}`), dev)
    expect(read.body).toEqual(created.body)

    const updated = await api(t, 'PUT', path(), dev, { ...snippet('select 2'), id: item.id, owner_id: dev.id, name: 'Renamed', favorite: true })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ id: item.id, name: 'Renamed', favorite: true, description: 'first', last_updated_by: dev.id })
    expect(updated.body.content).toMatchObject({ sql: 'select 2', favorite: true })
    expect(Date.parse(updated.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(item.updated_at))

    // PUT of an unknown id creates it.
    const id = crypto.randomUUID()
    const upserted = await api(t, 'PUT', path(), dev, { ...snippet('select 3'), id, owner_id: dev.id })
    expect(upserted.body).toMatchObject({ id, name: 'select 3', owner_id: dev.id })

    const deleted = await api(t, 'DELETE', path(`?ids=${item.id},${id}`), dev)
    expect(deleted.body).toEqual(expect.arrayContaining([{ id: item.id }, { id }]))
    expect(deleted.body).toHaveLength(2)
    expect((await api(t, 'GET', path(`/item/${item.id}`), dev)).status).toBe(404)
  })

  it('names a new snippet Untitled query and needs the Version: 2 header', async () => {
    const created = await post(dev, { type: 'sql', content: { sql: 'select 1' } })
    expect(created.body.name).toBe('Untitled query')
    const before = await contentCount()
    const noHeader = await post(dev, snippet('select 1'), {})
    expect(noHeader.status).toBe(400)
    expect(noHeader.body.message).toBe('This endpoint needs the header Version: 2')
    expect(await contentCount()).toBe(before)
  })

  it('shows private snippets to their owner only and shared ones to every member', async () => {
    const mine = (await post(dev, snippet('select private'))).body
    const shared = (await post(dev, snippet('select shared', { visibility: 'project' }))).body

    expect((await api(t, 'GET', path(`/item/${mine.id}`), dev2)).status).toBe(404)
    expect((await api(t, 'GET', path(`/item/${shared.id}`), readOnly)).status).toBe(200)
    const seen = ContentListResponse.parse((await api(t, 'GET', path('?type=sql'), dev2)).body).data.map((c) => c.id)
    expect(seen).toContain(shared.id)
    expect(seen).not.toContain(mine.id)

    const privateOnly = (await api(t, 'GET', path('?visibility=private'), dev)).body.data
    expect(privateOnly.every((c: any) => c.visibility === 'user' && c.owner_id === dev.id)).toBe(true)
    const sharedOnly = (await api(t, 'GET', path('?visibility=shared'), dev2)).body.data
    expect(sharedOnly.map((c: any) => c.id)).toEqual([shared.id])

    // Another member can neither see nor change the private one; a developer cannot change another's shared one.
    expect((await api(t, 'PUT', path(), dev2, { ...snippet('x'), id: mine.id, owner_id: dev.id })).status).toBe(404)
    const foreign = await api(t, 'PUT', path(), dev2, { ...snippet('x'), id: shared.id, owner_id: dev.id, visibility: 'project' })
    expect(foreign.status).toBe(403)
    expect(foreign.body.message).toBe('Only the owner of this snippet can change it')
    expect((await api(t, 'DELETE', path(`?ids=${shared.id}`), dev2)).status).toBe(403)
    expect((await api(t, 'DELETE', path(`?ids=${mine.id}`), dev2)).status).toBe(404)
    // An administrator (projects.update) may change a shared snippet; the owner stays.
    const byAdmin = await api(t, 'PUT', path(), owner, { ...snippet('select fixed'), id: shared.id, owner_id: dev.id, visibility: 'project' })
    expect(byAdmin.status).toBe(200)
    expect(byAdmin.body).toMatchObject({ owner_id: dev.id, last_updated_by: ownerId, updated_by: { id: ownerId } })
    expect((await api(t, 'DELETE', path(`?ids=${shared.id}`), owner)).body).toEqual([{ id: shared.id }])
    // Saving as someone else is refused.
    expect((await post(dev2, snippet('select 1', { owner_id: dev.id }))).status).toBe(403)
  })

  it('refuses a Read-only member with the spec text and writes nothing', async () => {
    const before = await contentCount()
    const refused = await post(readOnly, snippet('select 1'))
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe(CONTENT_TEXTS.cannotSave)
    expect(refused.body.message).toBe('Your queries will not be saved as you do not have sufficient permissions')
    expect((await api(t, 'PUT', path(), readOnly, { ...snippet('x'), id: crypto.randomUUID(), owner_id: dev.id })).status).toBe(403)
    expect((await api(t, 'POST', path('/folders'), readOnly, { name: 'Nope' })).body.message).toBe(CONTENT_TEXTS.cannotSave)
    expect(await contentCount()).toBe(before)
  })

  it('counts favorites, private and shared snippets the caller sees', async () => {
    const fresh = await memberWithRole(t, (await api(t, 'GET', '/platform/organizations', owner)).body[0].slug, 'developer')
    const me: Caller = { token: fresh.token, origin: null }
    const base = (await api(t, 'GET', path('/count'), me)).body
    await post(me, snippet('a', { favorite: true }))
    await post(me, snippet('b'))
    await post(me, snippet('c', { visibility: 'project', content: { sql: 'c', favorite: true } }))
    const count = await api(t, 'GET', path('/count'), me)
    expect(count.body).toEqual({ favorites: base.favorites + 2, private: base.private + 2, shared: base.shared + 1 })
    const favorites = (await api(t, 'GET', path('?favorite=true'), me)).body.data
    expect(favorites.every((c: any) => c.favorite)).toBe(true)
  })

  it('keeps favorites per member: starring a shared snippet changes only the caller\'s lists', async () => {
    const shared = (await post(dev, snippet('select per member', { visibility: 'project', favorite: true }))).body
    expect(shared.favorite).toBe(true)
    // Another Developer sees it, not starred for them; they may star it (not change it), and the owner's star stays theirs.
    expect((await api(t, 'GET', path(`/item/${shared.id}`), dev2)).body.favorite).toBe(false)
    const starred = await api(t, 'PUT', path(), dev2, { id: shared.id, owner_id: dev.id, type: 'sql', favorite: true })
    expect(starred.status).toBe(200)
    expect(starred.body).toMatchObject({ favorite: true, content: { favorite: true, sql: 'select per member' }, last_updated_by: dev.id })
    const unstarredByOwner = await api(t, 'PUT', path(), dev, { id: shared.id, owner_id: dev.id, type: 'sql', favorite: false })
    expect(unstarredByOwner.body.favorite).toBe(false)
    expect((await api(t, 'GET', path(`/item/${shared.id}`), dev2)).body.favorite).toBe(true)
    const favoritesOf = async (caller: Caller) => (await api(t, 'GET', path('?type=sql&favorite=true'), caller)).body.data.map((c: any) => c.id)
    expect(await favoritesOf(dev2)).toContain(shared.id)
    expect(await favoritesOf(dev)).not.toContain(shared.id)
    // A Read-only member may star what they see (their own list), and nothing else.
    expect((await api(t, 'PUT', path(), readOnly, { id: shared.id, owner_id: dev.id, type: 'sql', favorite: true })).body.favorite).toBe(true)
    const renamed = await api(t, 'PUT', path(), readOnly, { id: shared.id, owner_id: dev.id, type: 'sql', name: 'Mine now', favorite: true })
    expect(renamed.status).toBe(403)
    expect(renamed.body.message).toBe(CONTENT_TEXTS.cannotSave)
    // A star with a change in it is still a change: refused to a Developer who does not own it.
    expect((await api(t, 'PUT', path(), dev2, { id: shared.id, owner_id: dev.id, type: 'sql', name: 'x', favorite: false })).status).toBe(403)
    // Another's private snippet cannot be starred (it is not seen).
    const hidden = (await post(dev, snippet('select hidden'))).body
    expect((await api(t, 'PUT', path(), dev2, { id: hidden.id, owner_id: dev.id, type: 'sql', favorite: true })).status).toBe(404)
    const rows = await t.platform.ctx.db.query('SELECT user_id FROM content_favorites WHERE content_id = $1 ORDER BY user_id', [shared.id])
    expect(rows.rows.map((r: any) => r.user_id).sort()).toEqual([dev2.id, (await api(t, 'GET', '/platform/profile', readOnly)).body.id].sort())
    // The Management API view says the caller's own star.
    expect((await api(t, 'GET', `/v1/snippets/${shared.id}`, dev2)).body.favorite).toBe(true)
    expect((await api(t, 'GET', `/v1/snippets/${shared.id}`, dev)).body.favorite).toBe(false)
  })

  it('searches snippets by name and by SQL, case-insensitively, among those the caller sees', async () => {
    const tag = `srch${Date.now()}`
    const byName = (await post(dev, { type: 'sql', name: `Weekly ${tag} report`, content: { sql: 'select 1' } })).body
    const bySql = (await post(dev, { type: 'sql', name: 'Orders', content: { sql: `select * from ${tag.toUpperCase()}_orders` } })).body
    const sharedOne = (await post(dev, { type: 'sql', name: 'Shared', visibility: 'project', content: { sql: `-- ${tag}\nselect 2` } })).body
    const hidden = (await post(dev2, { type: 'sql', name: `Private ${tag}`, content: { sql: 'select 3' } })).body
    const found = async (caller: Caller, text: string) =>
      ContentListResponse.parse((await api(t, 'GET', path(`?type=sql&search=${encodeURIComponent(text)}`), caller)).body).data.map((c) => c.id).sort()
    expect(await found(dev, tag)).toEqual([byName.id, bySql.id, sharedOne.id].sort())
    expect(await found(dev2, tag)).toEqual([sharedOne.id, hidden.id].sort())
    expect(await found(dev, `${tag}_ORDERS`)).toEqual([bySql.id])
    // LIKE's wildcards are searched as text.
    expect(await found(dev, `${tag}%`)).toEqual([])
    expect((await api(t, 'GET', path(`?search=${'x'.repeat(300)}`), dev)).status).toBe(400)
  })

  it('does not store an untitled snippet without SQL', async () => {
    const before = await contentCount()
    for (const body of [{ type: 'sql' }, { type: 'sql', content: { sql: '  \n ' } }, { type: 'sql', name: 'Untitled query', content: { sql: '' } }]) {
      const refused = await post(dev, body)
      expect(refused.status).toBe(400)
      expect(refused.body.message).toBe(CONTENT_TEXTS.emptyUntitledSnippet)
      expect((await api(t, 'PUT', path(), dev, { ...body, id: crypto.randomUUID(), owner_id: dev.id })).status).toBe(400)
    }
    expect(await contentCount()).toBe(before)
    // With SQL or a name of its own it is kept.
    expect((await post(dev, { type: 'sql', content: { sql: 'select 1' } })).status).toBe(201)
    expect((await post(dev, { type: 'sql', name: 'Scratch', content: { sql: '' } })).status).toBe(201)
  })

  it('pages listings with a cursor (default 100) and filters by name', async () => {
    const pager = await memberWithRole(t, (await api(t, 'GET', '/platform/organizations', owner)).body[0].slug, 'developer')
    const me: Caller = { token: pager.token, origin: null }
    for (let i = 0; i < 105; i++) await post(me, snippet(`page query ${String(i).padStart(3, '0')}`))
    const first = await api(t, 'GET', path('?visibility=private'), me)
    expect(first.body.data).toHaveLength(100)
    expect(first.body.cursor).toEqual(expect.any(String))
    const second = await api(t, 'GET', path(`?visibility=private&cursor=${first.body.cursor}`), me)
    expect(second.body.data).toHaveLength(5)
    expect(second.body.cursor).toBeUndefined()
    const all = [...first.body.data, ...second.body.data].map((c: any) => c.id)
    expect(new Set(all).size).toBe(105)

    const byName = await api(t, 'GET', path('?visibility=private&sort_by=name&sort_order=asc&limit=10'), me)
    expect(byName.body.data.map((c: any) => c.name)).toEqual(Array.from({ length: 10 }, (_, i) => `page query ${String(i).padStart(3, '0')}`))
    const next = await api(t, 'GET', path(`?visibility=private&sort_by=name&sort_order=asc&limit=10&cursor=${byName.body.cursor}`), me)
    expect(next.body.data[0].name).toBe('page query 010')
    expect((await api(t, 'GET', path('?name=query 10'), me)).body.data.map((c: any) => c.name).sort()).toEqual([
      'page query 100',
      'page query 101',
      'page query 102',
      'page query 103',
      'page query 104',
    ])
    expect((await api(t, 'GET', path('?cursor=garbage'), me)).body.message).toBe('cursor is not valid: pass the cursor of a previous page')
  })

  it('answers 400 with a message on bad input and writes nothing', async () => {
    const before = await contentCount()
    for (const [body, message] of [
      [{ name: 'x' }, expect.stringContaining('type')],
      [snippet('x', { type: 'chart' }), 'type must be one of sql, report, log_sql'],
      [snippet('x', { visibility: 'everyone' }), 'visibility must be one of user, project, org, public'],
      [snippet('x', { name: '   ' }), 'name cannot be empty'],
      [snippet('x', { id: 'not-a-uuid' }), 'id must be a UUID'],
      [snippet('x', { content: { schema_version: '2.0', sql: 'x' } }), 'content.schema_version must be 1.0'],
      [snippet('x', { content: { sql: 42 } }), 'content.sql must be a string'],
    ] as const) {
      const result = await post(dev, body)
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body.message).toEqual(message)
    }
    expect((await api(t, 'PUT', path(), dev, snippet('x'))).body.message).toBe('id must be a UUID')
    expect((await api(t, 'DELETE', path('?ids=nope'), dev)).body.message).toBe('Each id must be a UUID')
    expect((await api(t, 'DELETE', path(), dev)).body.message).toBe('ids is required')
    expect((await api(t, 'GET', path('?limit=5000'), dev)).body.message).toBe('limit must be at most 1000')
    expect((await api(t, 'GET', path('/item/xyz'), dev)).status).toBe(400)
    expect(await contentCount()).toBe(before)
  })
})

describe('folders', () => {
  it('creates, lists, renames, moves and deletes folders with the spec rules', async () => {
    const created = await api(t, 'POST', path('/folders'), dev, { name: 'Reports' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'Reports', owner_id: dev.id, parent_id: null, project_id: expect.any(Number) })
    const reports = created.body.id

    const duplicate = await api(t, 'POST', path('/folders'), dev, { name: 'Reports' })
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.message).toBe('Unable to create new folder: This folder name already exists')
    // Names are unique across all the owner's folders, nested ones too.
    const child = await api(t, 'POST', path('/folders'), dev, { name: 'Monthly', parentId: reports })
    expect(child.body.parent_id).toBe(reports)
    expect((await api(t, 'POST', path('/folders'), dev, { name: 'Monthly' })).body.message).toBe(CONTENT_TEXTS.folderExistsOnCreate)
    // Another member's folders are theirs: the same name is free for them, and ours are invisible to them.
    expect((await api(t, 'POST', path('/folders'), dev2, { name: 'Reports' })).status).toBe(201)
    expect((await api(t, 'GET', path(`/folders/${reports}`), dev2)).status).toBe(404)

    const other = (await api(t, 'POST', path('/folders'), dev, { name: 'Other' })).body
    const rename = await api(t, 'PUT', path(`/folders/${other.id}`), dev, { name: 'Reports' })
    expect(rename.status).toBe(409)
    expect(rename.body.message).toBe('Unable to update folder: This folder name already exists')
    const renamed = await api(t, 'PUT', path(`/folders/${other.id}`), dev, { name: 'Archive' })
    expect(renamed.body).toMatchObject({ id: other.id, name: 'Archive' })
    const moved = await api(t, 'PUT', path(`/folders/${other.id}`), dev, { name: 'Archive', parentId: child.body.id })
    expect(moved.body.parent_id).toBe(child.body.id)
    const cycle = await api(t, 'PUT', path(`/folders/${reports}`), dev, { name: 'Reports', parentId: other.id })
    expect(cycle.status).toBe(400)
    expect(cycle.body.message).toBe('A folder cannot be moved into itself or one of its subfolders')

    // A private snippet in a folder; a shared one may not be.
    const inside = await post(dev, snippet('select in folder', { folder_id: reports }))
    expect(inside.status).toBe(201)
    const before = await contentCount()
    const sharedIn = await post(dev, snippet('select shared', { folder_id: reports, visibility: 'project' }))
    expect(sharedIn.status).toBe(400)
    expect(sharedIn.body.message).toBe('Shared snippet cannot be within a folder')
    const share = await api(t, 'PUT', path(), dev, { ...snippet('select in folder'), id: inside.body.id, owner_id: dev.id, visibility: 'project' })
    expect(share.body.message).toBe(CONTENT_TEXTS.sharedSnippetInFolder)
    expect(await contentCount()).toBe(before)
    expect((await post(dev2, snippet('x', { folder_id: reports }))).status).toBe(404)

    const root = FolderListResponse.parse((await api(t, 'GET', path('/folders'), dev)).body)
    expect(root.data.folders.map((f) => f.name)).toEqual(['Reports'])
    expect(root.data.contents.every((c) => c.folder_id === null)).toBe(true)
    expect(root.data.contents[0]).not.toHaveProperty('content')
    const inReports = await api(t, 'GET', path(`/folders/${reports}`), dev)
    expect(inReports.body.data.folders.map((f: any) => f.name)).toEqual(['Monthly'])
    expect(inReports.body.data.contents.map((c: any) => c.id)).toEqual([inside.body.id])

    // Deleting a folder deletes its subfolders and the snippets it holds.
    const folders = await folderCount()
    expect((await api(t, 'DELETE', path(`/folders?ids=${reports}`), dev2)).status).toBe(404)
    const deleted = await api(t, 'DELETE', path(`/folders?ids=${reports}`), dev)
    expect(deleted.body).toEqual([{ id: reports }])
    expect(await folderCount()).toBe(folders - 3)
    expect((await api(t, 'GET', path(`/item/${inside.body.id}`), dev)).status).toBe(404)
  })

  it('answers 400 on bad folder input and writes nothing', async () => {
    const before = await folderCount()
    expect((await api(t, 'POST', path('/folders'), dev, { name: '' })).body.message).toBe('Folder name cannot be empty')
    expect((await api(t, 'POST', path('/folders'), dev, {})).body.message).toBe('Folder name is required')
    expect((await api(t, 'POST', path('/folders'), dev, { name: 'x', parentId: 'nope' })).body.message).toBe('parentId must be a UUID')
    expect((await api(t, 'POST', path('/folders'), dev, { name: 'x', parentId: crypto.randomUUID() })).status).toBe(404)
    expect(await folderCount()).toBe(before)
  })
})
