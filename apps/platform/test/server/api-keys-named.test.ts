import { createClient } from '@supabase/supabase-js'
import { SupabaseManagementAPI } from 'supabase-management-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, memberWithRole, projectApi, startTestPlatform, tokenFor, waitFor, waitForStatus, type ProjectApi, type TestPlatform } from './harness.js'

/*
 * Publishable and secret API keys (sb_publishable_..., sb_secret_...): made, revealed, renamed and
 * deleted through supabase-management-js (unmodified), then used by supabase-js (unmodified) against
 * the project's data API, auth admin and storage, with the gateway's rules: publishable acts as anon,
 * secret as service_role and never from a browser, both independent of the legacy keys.
 */
let t: TestPlatform
let ownerToken: string
let owner: SupabaseManagementAPI
let readOnly: SupabaseManagementAPI
let readOnlyToken: string
let ref: string
let project: ProjectApi
let publishable: string
let secret: string
let secretId: string

// Node 20 has no WebSocket of its own: supabase-js's realtime client needs one given.
const noSession = { realtime: { transport: WebSocket as never }, auth: { persistSession: false, autoRefreshToken: false } }
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'

beforeAll(async () => {
  t = await startTestPlatform()
  ownerToken = await tokenFor(t, ADMIN_EMAIL)
  owner = new SupabaseManagementAPI({ accessToken: ownerToken, baseUrl: t.platform.url })
  const slug = (await owner.listAllOrganizations()).data[0]!.slug
  ref = (await owner.createAProject({ name: 'Named keys', organization_slug: slug, db_pass: 'named-keys-password-1' })).data.ref
  await waitForStatus(t, ref, { token: ownerToken }, 'ACTIVE_HEALTHY', 60_000)
  project = await projectApi(t, ref, { token: ownerToken })
  readOnlyToken = (await memberWithRole(t, slug, 'read_only')).token
  readOnly = new SupabaseManagementAPI({ accessToken: readOnlyToken, baseUrl: t.platform.url })
  const sql = await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token: ownerToken }, {
    query: `create table notes (id bigint primary key, body text, public boolean not null default false);
            alter table notes enable row level security;
            create policy "public notes" on notes for select to anon using (public);
            insert into notes values (1, 'open', true), (2, 'hidden', false);`,
  })
  expect(sql.status).toBe(201)
}, 120_000)
afterAll(() => t?.cleanup())

describe('the keys through the Management API', () => {
  it('creates a publishable and a secret key, masks the secret unless revealed, and lists them by role', async () => {
    const made = await owner.createProjectApiKey(ref, { type: 'publishable', name: 'web_app', description: 'The browser app' })
    expect(made.status).toBe(201)
    expect(made.data).toMatchObject({ type: 'publishable', name: 'web_app', description: 'The browser app', prefix: expect.stringMatching(/^sb_publishable_/) })
    publishable = made.data.api_key!
    expect(publishable).toMatch(/^sb_publishable_[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{8}$/)

    const hiddenSecret = await owner.createProjectApiKey(ref, { type: 'secret', name: 'backend_jobs' })
    expect(hiddenSecret.data.api_key).toMatch(/^sb_secret_.{5}•+$/)
    secretId = hiddenSecret.data.id!
    const revealed = await owner.getProjectApiKey(ref, secretId, { reveal: true })
    secret = revealed.data.api_key!
    expect(secret).toMatch(/^sb_secret_[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{8}$/)

    const all = await owner.getProjectApiKeys(ref)
    expect(all.data.map((key) => `${key.type}:${key.name}`)).toEqual(['legacy:anon', 'legacy:service_role', 'publishable:web_app', 'secret:backend_jobs'])
    // A Read-only member sees the anon and publishable keys, never a secret one.
    const theirs = await readOnly.getProjectApiKeys(ref, { reveal: true })
    expect(theirs.data.map((key) => key.name)).toEqual(['anon', 'web_app'])
    expect((await api(t, 'GET', `/v1/projects/${ref}/api-keys/${secretId}?reveal=true`, { token: readOnlyToken })).status).toBe(403)
    expect((await api(t, 'POST', `/v1/projects/${ref}/api-keys`, { token: readOnlyToken }, { type: 'secret', name: 'sneaky_key' })).status).toBe(403)
  })

  it('renames, refuses bad input and duplicates with {message}, and keeps the legacy keys fixed', async () => {
    const renamed = await owner.updateProjectApiKey(ref, secretId, { name: 'backend_worker', description: null })
    expect(renamed.data).toMatchObject({ name: 'backend_worker', description: null })
    const cases: Array<[string, string, unknown, number]> = [
      ['POST', `/v1/projects/${ref}/api-keys`, { type: 'publishable', name: 'web_app' }, 409],
      ['POST', `/v1/projects/${ref}/api-keys`, { type: 'publishable', name: 'Web App' }, 400],
      ['POST', `/v1/projects/${ref}/api-keys`, { type: 'publishable', name: 'abc' }, 400],
      ['POST', `/v1/projects/${ref}/api-keys`, { type: 'admin', name: 'admin_key' }, 400],
      ['POST', `/v1/projects/${ref}/api-keys`, { type: 'secret', name: 'extra_field', role: 'postgres' }, 400],
      ['PATCH', `/v1/projects/${ref}/api-keys/${secretId}`, { name: 'web_app' }, 409],
      ['PATCH', `/v1/projects/${ref}/api-keys/anon`, { name: 'renamed_anon' }, 400],
      ['DELETE', `/v1/projects/${ref}/api-keys/service_role`, undefined, 400],
      ['GET', `/v1/projects/${ref}/api-keys/not-a-key`, undefined, 400],
      ['GET', `/v1/projects/${ref}/api-keys/${crypto.randomUUID()}`, undefined, 404],
    ]
    for (const [method, path, body, status] of cases) {
      const answer = await api(t, method, path, { token: ownerToken }, body)
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status)
      expect(answer.body).toHaveProperty('message')
    }
  })
})

describe('the keys at the project URL, with supabase-js', () => {
  it('a publishable key acts as anon (RLS applies); a secret key as service_role (RLS bypassed, auth admin allowed)', async () => {
    const asPublic = createClient(project.url, publishable, noSession)
    const open = await asPublic.from('notes').select('id, body').order('id')
    expect(open.error).toBeNull()
    expect(open.data).toEqual([{ id: 1, body: 'open' }])

    const asServer = createClient(project.url, secret, noSession)
    const everything = await asServer.from('notes').select('id').order('id')
    expect(everything.data).toEqual([{ id: 1 }, { id: 2 }])
    const users = await asServer.auth.admin.listUsers()
    expect(users.error).toBeNull()
    const buckets = await asServer.storage.listBuckets()
    expect(buckets.error).toBeNull()
    // Admin calls stay refused to the publishable key.
    expect((await asPublic.auth.admin.listUsers()).error).not.toBeNull()
  })

  it('refuses a secret key sent from a browser, and an unknown or mistyped key', async () => {
    const fromBrowser = await fetch(`${project.url}/rest/v1/notes?select=id`, { headers: { apikey: secret, 'user-agent': BROWSER_UA } })
    expect(fromBrowser.status).toBe(401)
    expect(await fromBrowser.json()).toMatchObject({ message: 'Forbidden use of secret API key in browser' })
    // The publishable key is meant for browsers.
    expect((await fetch(`${project.url}/rest/v1/notes?select=id`, { headers: { apikey: publishable, 'user-agent': BROWSER_UA } })).status).toBe(200)
    const mistyped = `${publishable.slice(0, -1)}${publishable.endsWith('A') ? 'B' : 'A'}`
    expect((await fetch(`${project.url}/rest/v1/notes?select=id`, { headers: { apikey: mistyped } })).status).toBe(401)
  })

  it('keeps working with the legacy keys disabled, and stops at once when deleted', async () => {
    await owner.updateProjectLegacyApiKeys(ref, { enabled: false })
    try {
      await waitFor(async () => (await fetch(`${project.url}/rest/v1/notes?select=id`, { headers: { apikey: project.anonKey } })).status === 401, { what: 'the key to be refused' })
      const stillWorks = await createClient(project.url, publishable, noSession).from('notes').select('id')
      expect(stillWorks.error).toBeNull()
      // Off means off in every position and every service: the legacy service_role JWT as the bearer
      // beside a working key, and as ?apikey=.
      const legacyBearer = { apikey: publishable, authorization: `Bearer ${project.serviceKey}` }
      for (const [method, below] of [
        ['GET', '/rest/v1/notes?select=id'],
        ['POST', '/graphql/v1'],
        ['GET', '/auth/v1/admin/users'],
        ['GET', '/storage/v1/bucket'],
      ] as const) {
        const refused = await fetch(`${project.url}${below}`, { method, headers: { ...legacyBearer, 'content-type': 'application/json' }, body: method === 'POST' ? '{"query":"{ __typename }"}' : undefined })
        expect(refused.status, `${method} ${below}`).toBe(401)
        expect(await refused.text(), below).toContain('Legacy API keys are disabled')
      }
      expect((await fetch(`${project.url}/rest/v1/notes?select=id&apikey=${project.serviceKey}`)).status).toBe(401)
      // The same key with its signature's spare bits changed (base64url decoders accept it; it still verifies).
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
      const last = project.serviceKey.at(-1)!
      const variant = project.serviceKey.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1]
      const refusedVariant = await fetch(`${project.url}/rest/v1/notes?select=id`, { headers: { apikey: publishable, authorization: `Bearer ${variant}` } })
      expect(refusedVariant.status).toBe(401)
    } finally {
      await owner.updateProjectLegacyApiKeys(ref, { enabled: true })
    }

    const removed = await owner.deleteProjectApiKey(ref, secretId)
    expect(removed.data).toMatchObject({ id: secretId, name: 'backend_worker' })
    await waitFor(async () => (await fetch(`${project.url}/rest/v1/notes?select=id`, { headers: { apikey: secret } })).status === 401, { what: 'the key to be refused' })
    expect((await owner.getProjectApiKeys(ref)).data.map((key) => key.name)).not.toContain('backend_worker')
  })
})
