import { SupabaseManagementAPI } from 'supabase-management-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, memberWithRole, startTestPlatform, tokenFor, waitForStatus, type Caller, type TestPlatform } from './harness.js'

/*
 * GET /v1/snippets and /v1/snippets/{id} (the SQL editor's snippets across the caller's projects,
 * with the content store's visibility rule), GET /v1/projects/available-regions (a fixed path that
 * wins over /v1/projects/{ref}) and the New project form's available versions, through
 * supabase-management-js (unmodified) where it has the call.
 */
let t: TestPlatform
let ownerToken: string
let owner: SupabaseManagementAPI
let ownerSession: Caller
let slug: string
let ref: string
let developer: { email: string; token: string }

/** Saves a snippet as `caller` through the dashboard's content route (Version: 2, as the dashboard sends it). */
async function saveSnippet(caller: { token: string }, name: string, sql: string, visibility: 'user' | 'project') {
  const response = await fetch(`${t.platform.url}/platform/projects/${ref}/content`, {
    method: 'POST',
    headers: { authorization: `Bearer ${caller.token}`, 'content-type': 'application/json', version: '2' },
    body: JSON.stringify({ id: crypto.randomUUID(), name, type: 'sql', visibility, content: { schema_version: '1.0', sql } }),
  })
  expect(response.status, await response.clone().text()).toBe(201)
  return ((await response.json()) as { id: string }).id
}

beforeAll(async () => {
  t = await startTestPlatform()
  ownerToken = await tokenFor(t, ADMIN_EMAIL)
  ownerSession = { cookie: await login(t) }
  owner = new SupabaseManagementAPI({ accessToken: ownerToken, baseUrl: t.platform.url })
  slug = (await owner.listAllOrganizations()).data[0]!.slug
  ref = (await owner.createAProject({ name: 'Snippets', organization_slug: slug, db_pass: 'snippets-password-1' })).data.ref
  await waitForStatus(t, ref, { token: ownerToken }, 'ACTIVE_HEALTHY', 60_000)
  developer = await memberWithRole(t, slug, 'developer')
})
afterAll(() => t?.cleanup())

describe('GET /v1/snippets', () => {
  it("lists my snippets and the shared ones, never another member's private one, in the reference shape", async () => {
    const mine = await saveSnippet({ token: ownerToken }, 'b owner private', 'select 1', 'user')
    const shared = await saveSnippet({ token: ownerToken }, 'a owner shared', 'select 2', 'project')
    const theirs = await saveSnippet(developer, 'c developer private', 'select 3', 'user')

    const list = await owner.listAllSnippets({ project_ref: ref, sort_by: 'name', sort_order: 'asc' })
    expect(list.data.data.map((snippet) => snippet.name)).toEqual(['a owner shared', 'b owner private'])
    const first = list.data.data[0]!
    expect(first).toEqual({
      id: shared,
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
      type: 'sql',
      visibility: 'project',
      name: 'a owner shared',
      description: null,
      project: { id: expect.any(Number), name: 'Snippets' },
      owner: { id: expect.any(Number), username: expect.any(String) },
      updated_by: { id: expect.any(Number), username: expect.any(String) },
      favorite: false,
    })

    const developerClient = new SupabaseManagementAPI({ accessToken: developer.token, baseUrl: t.platform.url })
    const developerList = await developerClient.listAllSnippets()
    expect(developerList.data.data.map((snippet) => snippet.id).sort()).toEqual([shared, theirs].sort())

    const one = await owner.getASnippet(mine)
    expect(one.data.content).toEqual({ favorite: false, schema_version: '1.0', sql: 'select 1' })
    // Another member's private snippet reads as not found.
    const hidden = await api(t, 'GET', `/v1/snippets/${theirs}`, { token: ownerToken })
    expect(hidden.status).toBe(404)
    expect(hidden.body).toHaveProperty('message')
  })

  it('pages with a cursor and refuses bad input with {message}', async () => {
    const names: string[] = []
    let cursor: string | undefined
    do {
      const page = await api(t, 'GET', `/v1/snippets?project_ref=${ref}&limit=1&sort_by=name&sort_order=asc${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        token: ownerToken,
      })
      expect(page.status).toBe(200)
      names.push(...page.body.data.map((snippet: { name: string }) => snippet.name))
      cursor = page.body.cursor
    } while (cursor)
    expect(names).toEqual(['a owner shared', 'b owner private'])

    for (const query of ['limit=0', 'limit=101', 'limit=x', 'sort_by=size', 'sort_order=up', 'project_ref=NOPE', 'cursor=garbage']) {
      const refused = await api(t, 'GET', `/v1/snippets?${query}`, { token: ownerToken })
      expect(refused.status, query).toBe(400)
      expect(refused.body, query).toHaveProperty('message')
    }
    expect((await api(t, 'GET', '/v1/snippets/not-a-uuid', { token: ownerToken })).status).toBe(400)
    expect((await api(t, 'GET', '/v1/snippets')).status).toBe(401)
  })
})

describe('GET /v1/projects/available-regions', () => {
  it('answers the regions (not read as a project ref), recommending by continent', async () => {
    const regions = await owner.getAvailableRegions({ organization_slug: slug, continent: 'EU' })
    expect(regions.status).toBe(200)
    expect(regions.data.recommendations.smartGroup).toEqual({ name: expect.any(String), code: 'emea', type: 'smartGroup' })
    expect(regions.data.recommendations.specific).toEqual([{ name: 'eu-central-1', code: 'eu-central-1', type: 'specific', provider: 'AWS' }])
    expect(regions.data.all.smartGroup.map((group) => group.code)).toEqual(['americas', 'emea', 'apac'])
    expect(regions.data.all.specific.map((region) => region.code)).toContain('us-east-1')

    expect((await api(t, 'GET', '/v1/projects/available-regions', { token: ownerToken })).status).toBe(400)
    expect((await api(t, 'GET', `/v1/projects/available-regions?organization_slug=${slug}&continent=XX`, { token: ownerToken })).status).toBe(400)
    expect((await api(t, 'GET', '/v1/projects/available-regions?organization_slug=not-mine', { token: ownerToken })).status).toBe(404)
  })
})

describe('POST /platform/organizations/{slug}/available-versions', () => {
  it("answers the installed Postgres majors, newest first, to the organization's members", async () => {
    const versions = await api(t, 'POST', `/platform/organizations/${slug}/available-versions`, ownerSession, { provider: 'local', region: 'local' })
    expect(versions.status).toBe(200)
    const engines = versions.body.available_versions.map((entry: { postgres_engine: string }) => entry.postgres_engine)
    expect(engines).toEqual([...engines].sort((a: string, b: string) => Number(b) - Number(a)))
    expect(engines).toContain('17')
    for (const entry of versions.body.available_versions) expect(entry).toEqual({ version: expect.stringMatching(/^\d+\.\d+$/), postgres_engine: expect.any(String), release_channel: 'ga' })
    expect((await api(t, 'POST', `/platform/organizations/${slug}/available-versions`, ownerSession, { provider: 'x'.repeat(41) })).status).toBe(400)
    expect((await api(t, 'POST', '/platform/organizations/not-mine/available-versions', ownerSession, {})).status).toBe(404)
  })
})
