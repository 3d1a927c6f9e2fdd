import { SupabaseManagementAPI } from 'supabase-management-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, startTestPlatform, tokenFor, waitForStatus, type TestPlatform } from './harness.js'

/**
 * An existing, published Management API client (supabase-community/supabase-management-js),
 * unchanged, pointed at the platform with a base URL and a personal access token.
 */
let t: TestPlatform
let client: SupabaseManagementAPI
let token: string

beforeAll(async () => {
  t = await startTestPlatform()
  token = await tokenFor(t, ADMIN_EMAIL)
  client = new SupabaseManagementAPI({ accessToken: token, baseUrl: t.platform.url })
})
afterAll(() => t?.cleanup())

describe('an existing Management API client', () => {
  let ref: string

  it('lists organizations, creates a project, lists and reads it', async () => {
    const orgs = await client.listAllOrganizations()
    expect(orgs.status).toBe(200)
    const slug = orgs.data[0]!.slug

    const created = await client.createAProject({ name: 'From the client', organization_slug: slug, db_pass: 'client-password-1', postgres_engine: '15' })
    expect(created.status).toBe(201)
    expect(created.data.ref).toMatch(/^[a-z]{20}$/)
    await waitForStatus(t, created.data.ref, { token }, 'ACTIVE_HEALTHY')

    const projects = await client.listAllProjects()
    expect(projects.status).toBe(200)
    expect(projects.data.map((p) => p.ref)).toContain(created.data.ref)

    const project = await client.getProject(created.data.ref)
    expect(project.status).toBe(200)
    expect(project.data.status).toBe('ACTIVE_HEALTHY')
    expect(project.data.database.postgres_engine).toBe('15')
    ref = created.data.ref
  })

  it('deploys, lists and gets an edge function', async () => {
    const source = 'Deno.serve(() => new Response("hello"))\n'
    const deployed = await client.deployAFunction(ref, { metadata: { entrypoint_path: 'index.ts', name: 'hello' }, file: [source] }, { slug: 'hello' })
    expect(deployed.status).toBe(201)
    expect(deployed.data).toMatchObject({ slug: 'hello', version: 1, status: 'ACTIVE' })
    const listed = await client.listAllFunctions(ref)
    expect(listed.data.map((f) => f.slug)).toEqual(['hello'])
    const one = await client.getAFunction(ref, 'hello')
    expect(one.data).toMatchObject({ slug: 'hello', name: 'hello', verify_jwt: true })
  })

  it('generates TypeScript types of the project', async () => {
    await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token }, { query: 'CREATE TABLE notes (id bigint primary key, body text not null)' })
    const types = await client.generateTypescriptTypes(ref, { included_schemas: 'public' })
    expect(types.status).toBe(200)
    expect(types.data.types).toContain('notes: {')
    expect(types.data.types).toContain('body: string')
  })

  it('reads and toggles the legacy API keys, and lists the keys', async () => {
    expect((await client.getProjectLegacyApiKeys(ref)).data).toEqual({ enabled: true })
    expect((await client.updateProjectLegacyApiKeys(ref, { enabled: false })).data).toEqual({ enabled: false })
    expect((await client.getProjectLegacyApiKeys(ref)).data).toEqual({ enabled: false })
    await client.updateProjectLegacyApiKeys(ref, { enabled: true })
    const keys = await client.getProjectApiKeys(ref)
    expect(keys.data.map((k) => k.name).sort()).toEqual(['anon', 'service_role'])
  })
})
