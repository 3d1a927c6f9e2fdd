import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ADMIN_EMAIL, api, login, projectApi, querySuperuser, startTestPlatform, tokenFor, waitForStatus, type ProjectApi, type TestPlatform } from './harness.js'

/*
 * PostgREST's per-role settings (issue 30, part 1), as the official postgrest-js suite sets them in its schema
 * (packages/core/postgrest-js/test/supabase/migrations/00000000000000_schema.sql: `alter role authenticator set
 * pgrst.db_plan_enabled / db_aggregates_enabled / db_tx_end`), run through the Management API's SQL route as the
 * project's owner; then the REST features they turn on, through the gateway. Settings the platform owns, and
 * anything else on authenticator, are refused with the reason.
 */

let t: TestPlatform
let token: string
let ref: string
let port: number
let project: ProjectApi
const PASSWORD = 'role-settings-password-1'

const query = (sql: string) => api(t, 'POST', `/v1/projects/${ref}/database/query`, { token }, { query: sql })

async function sql(text: string) {
  const result = await query(text)
  if (result.status !== 201) throw new Error(`${text}: ${result.status} ${JSON.stringify(result.body)}`)
  return result.body as Record<string, unknown>[]
}

const rest = (path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
  fetch(`${project.url}/rest/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: { apikey: project.serviceKey, authorization: `Bearer ${project.serviceKey}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })

/** authenticator's role settings, as anyone may read them. */
const authenticatorSettings = async () =>
  ((await sql(`select coalesce(array_agg(s), '{}') as settings from pg_db_role_setting, unnest(setconfig) s where setrole = 'authenticator'::regrole`))[0]!
    .settings as string[])

beforeAll(async () => {
  t = await startTestPlatform()
  const cookie = await login(t)
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Role settings', organization_slug: slug, db_pass: PASSWORD })
  ref = created.body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  port = (await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body.db_port
  project = await projectApi(t, ref, { cookie })
  await sql(`
    create table public.items (id int primary key, name text not null);
    insert into public.items values (1, 'one'), (2, 'two'), (3, 'three');
  `)
})
afterAll(() => t?.cleanup())

describe("PostgREST's settings on authenticator, through SQL", () => {
  // postgrest-js relationships-aggregate-operations.test.ts "select with aggregate count function" (and the other
  // aggregate cases of that file, rpc.test.ts and relationships-spread-operations.test.ts).
  it('turns aggregates on with pgrst.db_aggregates_enabled, off by default', async () => {
    const before = await rest('items?select=count()')
    expect(before.status).toBe(400)
    expect(((await before.json()) as { code: string }).code).toBe('PGRST123')

    await sql(`alter role authenticator set pgrst.db_aggregates_enabled to 'true'; notify pgrst, 'reload config'`)
    await vi.waitFor(
      async () => {
        const response = await rest('items?select=count()')
        expect(response.status).toBe(200)
        expect(await response.json()).toEqual([{ count: 3 }])
      },
      { timeout: 15_000, interval: 100 },
    )
  })

  // postgrest-js transforms.test.ts "rollback insert/upsert", "rollback update/rpc", "rollback delete".
  it('lets a request roll back with pgrst.db_tx_end = commit-allow-override', async () => {
    await sql(`alter role authenticator set pgrst.db_tx_end to 'commit-allow-override'; notify pgrst, 'reload config'`)
    // PostgREST says it applied tx=rollback only once the override is allowed: a read is safe to try until then.
    await vi.waitFor(
      async () => {
        const response = await rest('items?select=id', { headers: { prefer: 'tx=rollback' } })
        expect(response.status).toBe(200)
        expect(response.headers.get('preference-applied') ?? '').toContain('tx=rollback')
      },
      { timeout: 15_000, interval: 100 },
    )
    const inserted = await rest('items', { method: 'POST', headers: { prefer: 'return=representation, tx=rollback' }, body: { id: 4, name: 'four' } })
    expect(inserted.status).toBe(201)
    expect(await inserted.json()).toEqual([{ id: 4, name: 'four' }])
    const deleted = await rest('items?id=eq.1', { method: 'DELETE', headers: { prefer: 'return=representation, tx=rollback' } })
    expect(await deleted.json()).toEqual([{ id: 1, name: 'one' }])
    expect(await sql('select id from public.items order by id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }])
  })

  // postgrest-js transforms.test.ts "explain with json/text format" and "explain with options".
  it('answers plans with pgrst.db_plan_enabled, off by default', async () => {
    const plan = { accept: 'application/vnd.pgrst.plan+json' }
    // PostgREST 12.0.2 has no plan media type to offer while plans are off.
    expect((await rest('items?select=*', { headers: plan })).status).toBe(415)

    await sql(`alter role authenticator set pgrst.db_plan_enabled = true; notify pgrst, 'reload config'`)
    await vi.waitFor(
      async () => {
        const response = await rest('items?select=*', { headers: plan })
        expect(response.status).toBe(200)
        const [first] = (await response.json()) as Array<{ Plan?: { 'Node Type'?: string } }>
        expect(first?.Plan?.['Node Type']).toBeTruthy()
      },
      { timeout: 15_000, interval: 100 },
    )
    const text = await rest('items?select=*', { headers: { accept: 'application/vnd.pgrst.plan+text' } })
    expect(await text.text()).toMatch(/cost=/)
    // The supautils spelling users copy (on) is written the way PostgREST reads it.
    await sql(`alter role authenticator set pgrst.db_prepared_statements = on`)
    expect(await authenticatorSettings()).toContain('pgrst.db_prepared_statements=true')
  })

  it('takes RESET of an allowed key, and db_max_rows', async () => {
    await sql(`alter role authenticator set pgrst.db_max_rows to 2; notify pgrst, 'reload config'`)
    await vi.waitFor(
      async () => {
        const response = await rest('items?select=id')
        expect(await response.json()).toHaveLength(2)
      },
      { timeout: 15_000, interval: 100 },
    )
    await sql(`alter role authenticator reset pgrst.db_max_rows; notify pgrst, 'reload config'`)
    await vi.waitFor(
      async () => {
        const response = await rest('items?select=id')
        expect(await response.json()).toHaveLength(3)
      },
      { timeout: 15_000, interval: 100 },
    )
    expect((await authenticatorSettings()).some((setting) => setting.startsWith('pgrst.db_max_rows='))).toBe(false)
  })

  it('refuses what the platform owns, saying why', async () => {
    const refusals: Array<[string, RegExp]> = [
      [`alter role authenticator set pgrst.db_uri to 'postgres://x@evil/postgres'`, /pgrst\.db_uri is set by the platform/],
      [`alter role authenticator set pgrst.server_port = 80`, /pgrst\.server_port is set by the platform/],
      [`alter role authenticator set pgrst.db_schemas to 'public, auth'`, /pgrst\.db_schemas is set by the platform, from the project's API settings/],
      [`alter role authenticator set pgrst.jwt_secret to 'a-secret-that-the-tenant-knows-000000'`, /pgrst\.jwt_secret is set by the platform/],
      [`alter role authenticator set pgrst.db_pre_config to 'public.pre_config'`, /pgrst\.db_pre_config is set by the platform/],
      [`alter role authenticator set pgrst.db_anon_role to 'service_role'`, /pgrst\.db_anon_role is set by the platform/],
      [`alter role authenticator set statement_timeout to '1s'`, /managed by the platform: only its PostgREST settings/],
      [`alter role authenticator set search_path to evil`, /managed by the platform: only its PostgREST settings/],
      [`alter role authenticator reset all`, /RESET ALL would reset the platform's settings/],
      [`alter role authenticator password 'x'`, /managed by the platform: its password, attributes and memberships cannot be changed/],
      [`alter role authenticator superuser`, /managed by the platform: its password, attributes and memberships cannot be changed/],
      [`alter role authenticator nologin`, /managed by the platform/],
      [`grant authenticator to postgres`, /role "authenticator" is managed by the platform: membership in it cannot be granted/],
      [`alter role authenticator set pgrst.db_tx_end to 'sometimes'`, /invalid value for pgrst\.db_tx_end.*commit-allow-override/],
      [`alter role authenticator set pgrst.db_pre_request to 'x; drop table items'`, /invalid value for pgrst\.db_pre_request/],
      [`alter role authenticator set pgrst.not_a_setting to 'x'`, /pgrst\.not_a_setting is not a PostgREST setting/],
    ]
    for (const [statement, reason] of refusals) {
      const result = await query(statement)
      expect(result.status, statement).toBe(400)
      expect((result.body as { message: string }).message, statement).toMatch(reason)
    }
    // A refusal stops the run where it stands, as an error of Postgres would.
    const run = await query(`alter role authenticator set pgrst.db_uri to 'x'; insert into public.items values (9, 'nine')`)
    expect(run.status).toBe(400)
    expect(await sql('select count(*)::int as n from public.items where id = 9')).toEqual([{ n: 0 }])

    const settings = await authenticatorSettings()
    expect(settings.filter((setting) => !/^pgrst\.(db_aggregates_enabled|db_tx_end|db_plan_enabled|db_prepared_statements)=/.test(setting))).toEqual([])
    const [role] = await sql(`select rolsuper, rolcanlogin, pg_has_role('postgres', 'authenticator', 'member') as member from pg_roles where rolname = 'authenticator'`)
    expect(role).toEqual({ rolsuper: false, rolcanlogin: true, member: false })
  })

  it('leaves a direct connection as postgres without the right (the SQL route is the way)', async () => {
    // Postgres itself decides there: postgres holds no ADMIN OPTION on authenticator (16+) nor CREATEROLE (15).
    await expect(querySuperuser(port, PASSWORD, `alter role authenticator set pgrst.db_max_rows = 5`)).rejects.toThrow(/permission denied/)
  })

  it('still serves REST after all that', async () => {
    const response = await rest('items?select=id,name&order=id', { headers: { apikey: project.anonKey, authorization: `Bearer ${project.anonKey}` } })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
      { id: 3, name: 'three' },
    ])
  })
})
