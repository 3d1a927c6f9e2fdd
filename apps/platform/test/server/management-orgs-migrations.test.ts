import { SupabaseManagementAPI } from 'supabase-management-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, memberWithRole, startTestPlatform, tokenFor, waitForStatus, type TestPlatform } from './harness.js'

/*
 * Organizations, the read-only query and the migration history through supabase-management-js
 * (unmodified, from the npm registry): the calls the official MCP server makes for get_organization,
 * list_projects, execute_sql (read-only), apply_migration and list_migrations.
 */
let t: TestPlatform
let owner: string
let client: SupabaseManagementAPI
let slug: string
let ref: string
let readOnly: SupabaseManagementAPI
let readOnlyToken: string

beforeAll(async () => {
  t = await startTestPlatform()
  owner = await tokenFor(t, ADMIN_EMAIL)
  client = new SupabaseManagementAPI({ accessToken: owner, baseUrl: t.platform.url })
  slug = (await client.listAllOrganizations()).data[0]!.slug
  ref = (await client.createAProject({ name: 'Beta', organization_slug: slug, db_pass: 'migrations-password-1' })).data.ref
  await client.createAProject({ name: 'alpha', organization_slug: slug, db_pass: 'migrations-password-1' })
  await waitForStatus(t, ref, { token: owner }, 'ACTIVE_HEALTHY', 60_000)
  readOnlyToken = (await memberWithRole(t, slug, 'read_only')).token
  readOnly = new SupabaseManagementAPI({ accessToken: readOnlyToken, baseUrl: t.platform.url })
})
afterAll(() => t?.cleanup())

describe('organizations', () => {
  it('answers one organization, its members and its projects with paging, search and sort', async () => {
    const org = await client.getAnOrganization(slug)
    expect(org.status).toBe(200)
    // opt_in_tags follow the organization's assistant level: the default, 'schema', is the SQL generator's tag.
    expect(org.data).toEqual({ id: slug, name: expect.any(String), plan: 'free', opt_in_tags: ['AI_SQL_GENERATOR_OPT_IN'], allowed_release_channels: ['ga'] })

    const members = await client.listOrganizationMembers(slug)
    expect(members.data).toEqual(
      expect.arrayContaining([
        { user_id: expect.any(String), user_name: expect.any(String), email: ADMIN_EMAIL, role_name: 'Owner', mfa_enabled: false },
        expect.objectContaining({ role_name: 'Read-only' }),
      ]),
    )

    const all = await client.getAllProjectsForOrganization(slug)
    expect(all.data.pagination).toEqual({ count: 2, limit: 100, offset: 0 })
    expect(all.data.projects.map((project) => project.name)).toEqual(['alpha', 'Beta'])
    expect(all.data.projects.find((project) => project.ref === ref)).toMatchObject({
      is_branch: false,
      status: 'ACTIVE_HEALTHY',
      databases: [{ identifier: ref, type: 'PRIMARY', status: 'ACTIVE_HEALTHY', infra_compute_size: expect.any(String) }],
    })
    const page = await client.getAllProjectsForOrganization(slug, { sort: 'name_desc', limit: 1, offset: 1 })
    expect(page.data.projects.map((project) => project.name)).toEqual(['alpha'])
    expect(page.data.pagination).toEqual({ count: 2, limit: 1, offset: 1 })
    expect((await client.getAllProjectsForOrganization(slug, { search: 'bet' })).data.projects.map((project) => project.ref)).toEqual([ref])

    expect((await api(t, 'GET', `/v1/organizations/${slug}/projects?limit=500`, { token: owner })).status).toBe(400)
    expect((await api(t, 'GET', `/v1/organizations/${slug}/projects?sort=size`, { token: owner })).body.message).toMatch(/sort must be one of/)
    expect((await api(t, 'GET', '/v1/organizations/not-mine-at-all', { token: owner })).status).toBe(404)
  })
})

describe('projects', () => {
  it('renames a project (owners and administrators), refusing bad names and Read-only members', async () => {
    const renamed = await client.updateAProject(ref, { name: '  Beta renamed ' })
    expect(renamed.status).toBe(200)
    expect(renamed.data).toEqual({ id: expect.any(Number), ref, name: 'Beta renamed' })
    expect((await client.getProject(ref)).data.name).toBe('Beta renamed')
    expect((await api(t, 'PATCH', `/v1/projects/${ref}`, { token: readOnlyToken }, { name: 'Nope' })).status).toBe(403)
    expect((await api(t, 'PATCH', `/v1/projects/${ref}`, { token: owner }, { name: '' })).body.message).toMatch(/name cannot be empty/)
    expect((await api(t, 'PATCH', `/v1/projects/${ref}`, { token: owner }, { name: 'x', ref: 'other' })).status).toBe(400)
    await client.updateAProject(ref, { name: 'Beta' })
  })
})

describe('the read-only query', () => {
  it('reads with numbers for int8, and refuses writes', async () => {
    const read = await readOnly.readOnlyQuery(ref, { query: 'select 1::int8 as one, current_user as who' })
    expect(read.status).toBe(201)
    expect(read.data).toEqual([{ one: 1, who: 'stratum_readonly' }])
    const write = await api(t, 'POST', `/v1/projects/${ref}/database/query/read-only`, { token: owner }, { query: 'create table nope (id int)' })
    expect(write.status).toBe(400)
    expect(write.body.message).toMatch(/read-only/)
  })
})

describe('migrations', () => {
  it('applies a migration and its record in one transaction, lists and reads them', async () => {
    expect((await client.listMigrationHistory(ref)).data).toEqual([])
    const applied = await client.applyAMigration(ref, { name: 'create_todos', query: 'create table todos (id bigint primary key, task text);\ninsert into todos values (1, $$first$$) -- seed' })
    expect(applied.status).toBe(200)
    const history = await client.listMigrationHistory(ref)
    expect(history.data).toEqual([{ version: expect.stringMatching(/^\d{14}$/), name: 'create_todos' }])
    const version = history.data[0]!.version
    const one = await client.getAMigration(ref, version)
    expect(one.data).toMatchObject({ version, name: 'create_todos', statements: ['create table todos (id bigint primary key, task text)', 'insert into todos values (1, $$first$$) -- seed'], created_by: ADMIN_EMAIL })
    expect((await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token: owner }, { query: 'select task from todos' })).body).toEqual([{ task: 'first' }])

    // A failing migration leaves neither its changes nor a record.
    const failing = await api(t, 'POST', `/v1/projects/${ref}/database/migrations`, { token: owner }, { name: 'broken', query: 'create table half (id int); select * from missing_table' })
    expect(failing.status).toBe(400)
    expect(failing.body.message).toMatch(/missing_table/)
    expect((await client.listMigrationHistory(ref)).data.map((row) => row.name)).toEqual(['create_todos'])
    expect((await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token: owner }, { query: "select to_regclass('half') as t" })).body).toEqual([{ t: null }])

    // The same Idempotency-Key applies once.
    const headers = { authorization: `Bearer ${owner}`, 'content-type': 'application/json', 'idempotency-key': 'add-done-1' }
    const body = JSON.stringify({ name: 'add_done', query: 'alter table todos add column done boolean not null default false', rollback: 'alter table todos drop column done' })
    const first = await fetch(`${t.platform.url}/v1/projects/${ref}/database/migrations`, { method: 'POST', headers, body })
    const again = await fetch(`${t.platform.url}/v1/projects/${ref}/database/migrations`, { method: 'POST', headers, body })
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(((await again.json()) as { version: string }).version).toBe(((await first.json()) as { version: string }).version)
    expect((await client.listMigrationHistory(ref)).data.map((row) => row.name)).toEqual(['create_todos', 'add_done'])

    // Upsert records without running; patch renames; rollback runs the rollback statements.
    expect((await client.upsertAMigration(ref, { name: 'recorded_only', query: 'create table never_run (id int)' })).status).toBe(200)
    expect((await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token: owner }, { query: "select to_regclass('never_run') as t" })).body).toEqual([{ t: null }])
    const versions = (await client.listMigrationHistory(ref)).data.map((row) => row.version)
    expect((await client.patchAMigration(ref, versions[2]!, { name: 'recorded_only_renamed', rollback: 'select 1' })).status).toBe(200)
    const rolledBack = await client.rollbackMigrations(ref, { gte: versions[1]! })
    expect(rolledBack.status).toBe(200)
    expect((await client.listMigrationHistory(ref)).data.map((row) => row.name)).toEqual(['create_todos'])
    const columns = await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token: owner }, { query: "select column_name from information_schema.columns where table_name = 'todos' order by 1" })
    expect(columns.body).toEqual([{ column_name: 'id' }, { column_name: 'task' }])
  })

  it('refuses writes to Read-only members and bad input with a 4xx message', async () => {
    const refused = await api(t, 'POST', `/v1/projects/${ref}/database/migrations`, { token: readOnlyToken }, { query: 'create table x (id int)' })
    expect(refused.status).toBe(403)
    expect((await api(t, 'DELETE', `/v1/projects/${ref}/database/migrations?gte=0`, { token: readOnlyToken })).status).toBe(403)
    expect((await readOnly.listMigrationHistory(ref)).status).toBe(200)
    expect((await api(t, 'POST', `/v1/projects/${ref}/database/migrations`, { token: owner }, { query: '' })).body.message).toMatch(/query cannot be empty/)
    expect((await api(t, 'GET', `/v1/projects/${ref}/database/migrations/not-a-version`, { token: owner })).status).toBe(400)
    expect((await api(t, 'GET', `/v1/projects/${ref}/database/migrations/12345`, { token: owner })).status).toBe(404)
    expect((await api(t, 'DELETE', `/v1/projects/${ref}/database/migrations`, { token: owner })).status).toBe(400)
    // Text that tries to close the record's quoting stays text.
    const tricky = await client.applyAMigration(ref, { name: "x'); drop table todos; --", query: 'select 1' })
    expect(tricky.status).toBe(200)
    expect((await client.listMigrationHistory(ref)).data.at(-1)?.name).toBe("x'); drop table todos; --")
    expect((await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token: owner }, { query: "select to_regclass('todos') is not null as kept" })).body).toEqual([{ kept: true }])
  })
})
