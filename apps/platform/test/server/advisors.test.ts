import { AdvisorsResponse, Lint, ServiceHealth, type LintName } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, memberWithRole, startTestPlatform, tokenFor, waitForStatus, type TestPlatform } from './harness.js'

/**
 * The advisors (GET /v1/projects/{ref}/advisors/security and /performance, the dashboard's run-lints)
 * computed from the project's catalogs: objects that trip each lint appear with the Management API's
 * shape, and go once fixed. And GET /v1/projects/{ref}/health, service by service.
 */
let t: TestPlatform
let token: string
let readOnly: string
let outsider: string
let ref: string

const sql = async (query: string) => {
  const result = await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token }, { query })
  if (result.status !== 201) throw new Error(`query answered ${result.status}: ${JSON.stringify(result.body)}`)
}
const advisors = async (kind: 'security' | 'performance', caller = token) => {
  const result = await api(t, 'GET', `/v1/projects/${ref}/advisors/${kind}`, { token: caller })
  expect(result.status, JSON.stringify(result.body)).toBe(200)
  return AdvisorsResponse.strict().parse(result.body).lints
}
const about = (lints: Lint[], name: LintName, table: string) => lints.filter((lint) => lint.name === name && lint.metadata?.name === table)

beforeAll(async () => {
  t = await startTestPlatform()
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/v1/organizations', { token })).body[0].slug
  ref = (await api(t, 'POST', '/v1/projects', { token }, { name: 'Advised', organization_slug: slug, db_pass: 'advised-db-password-1' })).body.ref
  await waitForStatus(t, ref, { token }, 'ACTIVE_HEALTHY', 60_000)
  readOnly = (await memberWithRole(t, slug, 'read_only')).token
  const stranger = await memberWithRole(t, slug, 'developer')
  await t.platform.ctx.db.query('DELETE FROM members WHERE user_id = (SELECT id FROM users WHERE email = $1)', [stranger.email])
  outsider = stranger.token
}, 120_000)
afterAll(() => t?.cleanup())

describe('advisors', () => {
  it('finds nothing on a fresh project: the platform’s own schemas are not the user’s to fix', async () => {
    expect(await advisors('security')).toEqual([])
    expect(await advisors('performance')).toEqual([])
  })

  it('reports each lint with the document’s shape, and drops it once fixed', async () => {
    await sql(`
      create table public.open_notes (id bigint primary key, body text);
      create table public.locked (id bigint primary key);
      alter table public.locked enable row level security;
      create table public.authors (id bigint primary key, user_id uuid);
      create table public.posts (id bigint primary key, author_id bigint references public.authors (id), owner uuid);
      alter table public.authors enable row level security;
      alter table public.posts enable row level security;
      create policy "own posts" on public.posts for select using (owner = auth.uid());
      create policy "wrapped" on public.authors for select using (user_id = (select auth.uid()));
      create policy "admins by metadata" on public.authors for update using ((auth.jwt() -> 'user_metadata' ->> 'admin') = 'true');
      create policy "jwt wrapped" on public.authors for insert with check ((select auth.jwt() ->> 'role') = 'writer');
      create policy "everyone reads" on public.posts for select to authenticated using (true);
      create table public.events (at timestamptz, name text);
      create index events_at_a on public.events (at);
      create index events_at_b on public.events (at);
      create function public.add_one(x int) returns int language sql as 'select x + 1';
      create function public.add_two(x int) returns int language sql set search_path = '' as 'select x + 2';
      create view public.post_view as select id from public.posts;
      create view public.safe_view with (security_invoker = on) as select id from public.posts;
      create schema private;
      create table private.hidden (id bigint primary key);
    `)

    const security = await advisors('security')
    const performance = await advisors('performance')
    const rlsDisabled = about(security, 'rls_disabled_in_public', 'open_notes')
    expect(rlsDisabled).toEqual([
      {
        name: 'rls_disabled_in_public',
        title: 'RLS Disabled in Public',
        level: 'ERROR',
        facing: 'EXTERNAL',
        categories: ['SECURITY'],
        description: 'Detects cases where row level security (RLS) has not been enabled on tables in schemas exposed to PostgREST',
        detail: 'Table `public.open_notes` is public, but RLS has not been enabled.',
        remediation: 'https://supabase.com/docs/guides/database/database-linter?lint=0013_rls_disabled_in_public',
        metadata: { schema: 'public', name: 'open_notes', type: 'table' },
        cache_key: 'rls_disabled_in_public_public_open_notes',
      },
    ])
    // Not exposed through the data API: private.hidden is not reported; a table with RLS on is not either.
    expect(security.filter((lint) => lint.name === 'rls_disabled_in_public').map((lint) => lint.metadata?.name).sort()).toEqual(['events', 'open_notes'])
    expect(about(security, 'rls_enabled_no_policy', 'locked')).toHaveLength(1)
    expect(about(security, 'rls_enabled_no_policy', 'locked')[0]!.level).toBe('INFO')
    expect(security.filter((lint) => lint.name === 'function_search_path_mutable').map((lint) => lint.metadata)).toEqual([
      { schema: 'public', name: 'add_one', type: 'function' },
    ])
    expect(security.filter((lint) => lint.name === 'security_definer_view').map((lint) => [lint.level, lint.metadata])).toEqual([
      ['ERROR', { schema: 'public', name: 'post_view', type: 'view' }],
    ])
    expect(about(security, 'rls_references_user_metadata', 'authors').map((lint) => lint.level)).toEqual(['ERROR'])

    const initplan = performance.filter((lint) => lint.name === 'auth_rls_initplan')
    expect(initplan.map((lint) => lint.cache_key)).toEqual(['auth_rls_init_plan_public_authors_admins by metadata', 'auth_rls_init_plan_public_posts_own posts'])
    expect(initplan[1]).toMatchObject({ title: 'Auth RLS Initialization Plan', level: 'WARN', categories: ['PERFORMANCE'] })
    expect(initplan[1]!.remediation).toBe('https://supabase.com/docs/guides/database/database-linter?lint=0003_auth_rls_initplan')
    expect(performance.filter((lint) => lint.name === 'unindexed_foreign_keys')).toEqual([
      expect.objectContaining({
        level: 'INFO',
        detail: 'Table `public.posts` has a foreign key `posts_author_id_fkey` without a covering index. This can lead to suboptimal query performance.',
        metadata: { schema: 'public', name: 'posts', type: 'table', fkey_name: 'posts_author_id_fkey', fkey_columns: [2] },
      }),
    ])
    expect(performance.filter((lint) => lint.name === 'duplicate_index')).toEqual([
      expect.objectContaining({ level: 'WARN', detail: 'Table `public.events` has identical indexes {events_at_a,events_at_b}. Drop all except one of them' }),
    ])
    expect(performance.filter((lint) => lint.name === 'no_primary_key').map((lint) => lint.metadata?.name)).toEqual(['events'])
    const permissive = performance.filter((lint) => lint.name === 'multiple_permissive_policies')
    expect(permissive.map((lint) => lint.cache_key)).toEqual(['multiple_permissive_policies_public_posts_authenticated_SELECT'])

    // The dashboard's call answers both kinds at once.
    const runLints = await api(t, 'GET', `/platform/projects/${ref}/run-lints`, { token })
    expect(runLints.status).toBe(200)
    expect(runLints.body).toHaveLength(security.length + performance.length)

    await sql(`
      alter table public.open_notes enable row level security;
      create policy "read notes" on public.open_notes for select using (true);
      create policy "locked read" on public.locked for select using (false);
      drop policy "own posts" on public.posts;
      create policy "own posts" on public.posts for select to anon using (owner = (select auth.uid()));
      drop policy "admins by metadata" on public.authors;
      create index on public.posts (author_id);
      drop index public.events_at_b;
      alter table public.events add column id bigint generated always as identity primary key;
      alter table public.events enable row level security;
      create policy "read events" on public.events for select using (true);
      alter function public.add_one(int) set search_path = '';
      alter view public.post_view set (security_invoker = on);
    `)
    expect(await advisors('security')).toEqual([])
    expect(await advisors('performance')).toEqual([])
  })

  it('answers a Read-only member; an outsider gets 404, a bad ref 400, a paused project 409', async () => {
    await sql('create table public.readonly_sees (id int)')
    expect((await advisors('performance', readOnly)).map((lint) => lint.cache_key)).toContain('no_primary_key_public_readonly_sees')
    const stranger = await api(t, 'GET', `/v1/projects/${ref}/advisors/security`, { token: outsider })
    expect(stranger.status).toBe(404)
    expect(stranger.body.message).toEqual(expect.any(String))
    const bad = await api(t, 'GET', '/v1/projects/NOT-A-REF/advisors/performance', { token })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/20 lowercase letters/)
    expect((await api(t, 'GET', `/v1/projects/${ref}/advisors/security?lint_type=other`, { token })).status).toBe(400)
  })
})

describe('health', () => {
  const health = async (query: string, caller = token) => api(t, 'GET', `/v1/projects/${ref}/health?${query}`, { token: caller })

  it('checks every service of an active project for real', async () => {
    const result = await health('services=db,db_postgres_user,rest,auth,storage,functions', readOnly)
    expect(result.status).toBe(200)
    const services = ServiceHealth.array().parse(result.body)
    expect(services.map((service) => [service.name, service.status, service.healthy])).toEqual([
      ['db', 'ACTIVE_HEALTHY', true],
      ['db_postgres_user', 'ACTIVE_HEALTHY', true],
      ['rest', 'ACTIVE_HEALTHY', true],
      ['auth', 'ACTIVE_HEALTHY', true],
      ['storage', 'ACTIVE_HEALTHY', true],
      ['functions', 'ACTIVE_HEALTHY', true],
    ])
    expect(services.find((service) => service.name === 'auth')!.info).toMatchObject({ name: 'GoTrue', version: expect.any(String) })
    expect(services.find((service) => service.name === 'rest')!.info).toEqual({ db_schema: 'public' })
    // The PostgREST the check started is a real one: it is running now.
    expect(t.platform.ctx.rest.processOf(ref)).not.toBeNull()
    // Repeated parameters (openapi-fetch's form) work too; services Stratum does not run say so.
    const repeated = ServiceHealth.array().parse((await health('services=realtime&services=pooler')).body)
    expect(repeated).toEqual([
      { name: 'realtime', healthy: true, status: 'ACTIVE_HEALTHY' },
      { name: 'pooler', healthy: false, status: 'UNHEALTHY', error: expect.stringContaining('No connection pooler') },
    ])
  })

  it('refuses bad input and outsiders', async () => {
    expect((await health('services=db,kafka')).status).toBe(400)
    expect((await health('')).status).toBe(400)
    expect((await health('services=db&timeout_ms=20000')).status).toBe(400)
    expect((await health('services=db', outsider)).status).toBe(404)
  })

  it('reports a paused project’s database unhealthy, and its advisors refused', async () => {
    expect((await api(t, 'POST', `/v1/projects/${ref}/pause`, { token })).status).toBeLessThan(300)
    await waitForStatus(t, ref, { token }, 'INACTIVE', 60_000)
    const services = ServiceHealth.array().parse((await health('services=db,rest')).body)
    expect(services).toEqual([
      { name: 'db', healthy: false, status: 'UNHEALTHY', error: 'The database is not accepting connections' },
      { name: 'rest', healthy: false, status: 'UNHEALTHY', error: 'The project is not running (status: INACTIVE)' },
    ])
    const refused = await api(t, 'GET', `/v1/projects/${ref}/advisors/security`, { token })
    expect(refused.status).toBe(409)
    expect(refused.body.message).toContain('INACTIVE')
  }, 90_000)
})
