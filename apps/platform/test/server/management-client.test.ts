import { SupabaseManagementAPI } from 'supabase-management-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, startTestPlatform, tokenFor, waitForStatus, type TestPlatform } from './harness.js'

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
  })
})
