import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { E2E_GITHUB_REPOSITORY, E2E_GITHUB_TOKEN, e2eGitHubRepos, startGitHubLoopback, type GitHubLoopback } from '../../../../e2e/github-loopback.mjs'
import { api, login, memberWithRole, projectApi, querySuperuser, startTestPlatform, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/**
 * Branches are real copies: a physical online copy of the parent's instance, a project of its own (own
 * ref, port, passwords), with or without the parent's rows; merge and push move migrations between
 * them, and diff and merge carry schema changes made outside migrations too (refusing conflicts); reset
 * copies the parent again; deleting the parent deletes its branches.
 */
const PASSWORD = 'branch-password-1'
let t: TestPlatform
let cookie: string
let slug: string
let parent: { ref: string; port: number }
let github: GitHubLoopback

const sql = <T = any>(port: number, text: string) => querySuperuser<T>(port, PASSWORD, text)
const checksum = async (port: number) => (await sql(port, `SELECT count(*)::int AS n, md5(string_agg(id::text || note, ',' ORDER BY id)) AS sum FROM notes`))[0]

async function branchReady(name: string): Promise<{ id: string; project_ref: string; port: number }> {
  let branch: any
  await waitFor(
    async () => {
      branch = (await api(t, 'GET', `/v1/projects/${parent.ref}/branches/${name}`, { cookie })).body
      if (branch.status === 'MIGRATIONS_FAILED' || branch.preview_project_status === 'INIT_FAILED') throw new Error(`branch failed: ${JSON.stringify(branch)}`)
      return branch.preview_project_status === 'ACTIVE_HEALTHY' && branch.status === 'MIGRATIONS_PASSED'
    },
    { timeoutMs: 120_000, intervalMs: 200, what: `branch ${name} to be ready` },
  )
  const detail = (await api(t, 'GET', `/v1/branches/${branch.id}`, { cookie })).body
  return { id: branch.id, project_ref: branch.project_ref, port: detail.db_port }
}

beforeAll(async () => {
  github = await startGitHubLoopback({ repos: e2eGitHubRepos() })
  t = await startTestPlatform({ STRATUM_GITHUB_API_URL: github.url })
  cookie = await login(t)
  slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Trunk', organization_slug: slug, db_pass: PASSWORD })
  parent = { ref: created.body.ref, port: created.body.db_port }
  await waitForStatus(t, parent.ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  await sql(parent.port, `CREATE TABLE notes (id int PRIMARY KEY, note text NOT NULL); INSERT INTO notes SELECT i, md5(i::text) FROM generate_series(1, 20000) i`)
}, 120_000)
afterAll(async () => {
  await t?.cleanup()
  await github?.close()
})

describe('branching', () => {
  it('is refused on the free plan, with a message', async () => {
    const refused = await api(t, 'POST', `/v1/projects/${parent.ref}/branches`, { cookie }, { branch_name: 'main', is_default: true })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toContain('Pro plan')
    const badName = await api(t, 'POST', `/v1/projects/${parent.ref}/branches`, { cookie }, { branch_name: 'no spaces', is_default: true })
    expect(badName.status).toBe(400)
    expect(badName.body.message).toContain('Branch name can only contain alphanumeric characters, hyphens, and underscores.')
    expect((await api(t, 'PUT', `/platform/organizations/${slug}/billing/subscription`, { cookie }, { plan: 'pro' })).status).toBe(200)
  })

  it('enables branching with a production branch', async () => {
    const enabled = await api(t, 'POST', `/v1/projects/${parent.ref}/branches`, { cookie }, { branch_name: 'main', is_default: true })
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(201)
    expect(enabled.body).toMatchObject({ name: 'main', is_default: true, project_ref: parent.ref, parent_project_ref: parent.ref })
    const again = await api(t, 'POST', `/v1/projects/${parent.ref}/branches`, { cookie }, { branch_name: 'main', is_default: true })
    expect(again.status).toBe(409)
  })

  it('makes a branch with the parent data as a project of its own; writes stay in the branch', async () => {
    const before = await checksum(parent.port)
    const created = await api(t, 'POST', `/v1/projects/${parent.ref}/branches`, { cookie }, { branch_name: 'with-data', with_data: true })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body).toMatchObject({ name: 'with-data', status: 'CREATING_PROJECT', with_data: true, is_default: false })
    // The parent keeps serving while it is copied.
    await sql(parent.port, 'SELECT count(*) FROM notes')
    const branch = await branchReady('with-data')
    expect(branch.project_ref).not.toBe(parent.ref)
    expect(branch.port).not.toBe(parent.port)
    expect(await checksum(branch.port)).toEqual(before)
    await sql(branch.port, `DELETE FROM notes WHERE id <= 10`)
    expect((await checksum(branch.port)).n).toBe(before.n - 10)
    expect(await checksum(parent.port)).toEqual(before)
    // Its own platform passwords: the parent's superuser password does not open it.
    const list = (await api(t, 'GET', `/v1/projects/${parent.ref}/branches`, { cookie })).body
    expect(list.map((row: { name: string }) => row.name)).toEqual(['main', 'with-data'])
    // Its own keys and data API: the branch's service key reads the branch's rows, the parent's key is refused there.
    const [branchApi, parentApi] = await Promise.all([projectApi(t, branch.project_ref, { cookie }), projectApi(t, parent.ref, { cookie })])
    expect(branchApi.serviceKey).not.toBe(parentApi.serviceKey)
    expect((await api(t, 'GET', `/platform/projects/${branch.project_ref}`, { cookie })).body.parent_project_ref).toBe(parent.ref)
    expect((await api(t, 'GET', `/platform/projects/${parent.ref}`, { cookie })).body.parent_project_ref).toBeUndefined()
    const rows = await fetch(`${branchApi.url}/rest/v1/notes?select=id&id=lte.12&order=id`, { headers: { apikey: branchApi.serviceKey, authorization: `Bearer ${branchApi.serviceKey}` } })
    expect(rows.status).toBe(200)
    expect(await rows.json()).toEqual([{ id: 11 }, { id: 12 }])
    const foreign = await fetch(`${branchApi.url}/rest/v1/notes?select=id`, { headers: { apikey: parentApi.serviceKey, authorization: `Bearer ${parentApi.serviceKey}` } })
    expect(foreign.status).toBe(401)
  })

  it('lets only owners and administrators change branches; every member reads them', async () => {
    const developer = await memberWithRole(t, slug, 'developer')
    const readOnly = await memberWithRole(t, slug, 'read_only')
    const branch = await branchReady('with-data')
    expect((await api(t, 'GET', `/v1/projects/${parent.ref}/branches`, { token: readOnly.token })).status).toBe(200)
    for (const [method, path, body] of [
      ['POST', `/v1/projects/${parent.ref}/branches`, { branch_name: 'by-developer' }],
      ['POST', `/v1/branches/${branch.id}/reset`, {}],
      ['POST', `/v1/branches/${branch.id}/merge`, {}],
      ['PATCH', `/v1/branches/${branch.id}`, { persistent: true }],
      ['DELETE', `/v1/branches/${branch.id}`, undefined],
      ['DELETE', `/v1/projects/${parent.ref}/branches`, undefined],
      ['PATCH', `/v1/projects/${parent.ref}/billing/addons`, { addon_type: 'pitr', addon_variant: 'pitr_7' }],
      ['POST', `/platform/database/${parent.ref}/backups/pitr`, { recovery_time_target_unix: 1 }],
    ] as const) {
      const refused = await api(t, method, path, { token: developer.token }, body)
      expect(refused.status, `${method} ${path}`).toBe(403)
    }
    expect((await api(t, 'GET', `/v1/projects/${parent.ref}/branches`, { cookie })).body).toHaveLength(2)
  })

  it('makes a schema-only branch by default: tables there, rows not; the parent edge functions, secrets and auth settings too', async () => {
    const deployForm = new FormData()
    deployForm.append('metadata', JSON.stringify({ entrypoint_path: 'index.ts', verify_jwt: false }))
    deployForm.append('file', new Blob([`Deno.serve(() => new Response(Deno.env.get('GREETING')))\n`]), 'index.ts')
    const deployed = await fetch(`${t.platform.url}/v1/projects/${parent.ref}/functions/deploy?slug=greet`, { method: 'POST', headers: { cookie, origin: t.platform.url }, body: deployForm })
    expect(deployed.status, await deployed.text()).toBe(201)
    expect((await api(t, 'POST', `/v1/projects/${parent.ref}/secrets`, { cookie }, [{ name: 'GREETING', value: 'hello from the parent' }])).status).toBe(201)
    expect((await api(t, 'PATCH', `/v1/projects/${parent.ref}/config/auth`, { cookie }, { site_url: 'https://parent.example.com' })).status).toBe(200)

    const created = await api(t, 'POST', `/v1/projects/${parent.ref}/branches`, { cookie }, { branch_name: 'schema-only' })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const branch = await branchReady('schema-only')
    expect((await checksum(branch.port)).n).toBe(0)
    const columns = await sql(branch.port, `SELECT column_name FROM information_schema.columns WHERE table_name = 'notes' ORDER BY ordinal_position`)
    expect(columns.map((row: { column_name: string }) => row.column_name)).toEqual(['id', 'note'])

    const secrets = (await api(t, 'GET', `/v1/projects/${branch.project_ref}/secrets`, { cookie })).body
    expect(secrets.find((secret: { name: string }) => secret.name === 'GREETING')).toBeTruthy()
    expect((await api(t, 'GET', `/v1/projects/${branch.project_ref}/config/auth`, { cookie })).body.site_url).toBe('https://parent.example.com')
    // The function runs on the branch's own URL with the copied secret.
    const branchApi = await projectApi(t, branch.project_ref, { cookie })
    const invoked = await fetch(`${branchApi.url}/functions/v1/greet`, { headers: { apikey: branchApi.anonKey } })
    expect(await invoked.text()).toBe('hello from the parent')
  })

  it('applies the linked Git branch migrations to a new branch, recorded as the Supabase CLI records them', async () => {
    const orgId = (await api(t, 'GET', `/platform/organizations/${slug}`, { cookie })).body.id
    const connected = await api(t, 'POST', '/platform/integrations/github/connections', { cookie }, {
      organization_id: orgId, project_ref: parent.ref, repository: E2E_GITHUB_REPOSITORY, token: E2E_GITHUB_TOKEN,
    })
    expect(connected.status, JSON.stringify(connected.body)).toBe(201)
    const created = await api(t, 'POST', `/v1/projects/${parent.ref}/branches`, { cookie }, { branch_name: 'feature-x', git_branch: 'feature-x' })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.git_branch).toBe('feature-x')
    const branch = await branchReady('feature-x')
    const columns = await sql(branch.port, `SELECT column_name FROM information_schema.columns WHERE table_name = 'products' ORDER BY ordinal_position`)
    expect(columns.map((row: { column_name: string }) => row.column_name)).toEqual(['id', 'name', 'price'])
    const history = await sql(branch.port, `SELECT version, name, statements FROM supabase_migrations.schema_migrations ORDER BY version`)
    expect(history).toEqual([
      { version: '20240101000000', name: 'init', statements: ['create table public.products (id bigint primary key, name text not null)'] },
      { version: '20240201000000', name: 'prices', statements: ['alter table public.products add column price numeric'] },
    ])
    // A Git branch whose migration fails leaves the branch up, saying which migration failed and why.
    github.repos[E2E_GITHUB_REPOSITORY]!.branches.broken = { sha: 'c'.repeat(40), files: { 'supabase/migrations/20240301000000_bad.sql': 'alter table nowhere add column x int;\n' } }
    await api(t, 'POST', `/v1/projects/${parent.ref}/branches`, { cookie }, { branch_name: 'broken', git_branch: 'broken' })
    let failed: any
    // The branch's status says MIGRATIONS_FAILED from inside the job's last step, a moment before its project is marked up.
    await waitFor(async () => {
      failed = (await api(t, 'GET', `/v1/projects/${parent.ref}/branches/broken`, { cookie })).body
      if (failed.preview_project_status === 'INIT_FAILED') throw new Error(`branch failed: ${JSON.stringify(failed)}`)
      return failed.status === 'MIGRATIONS_FAILED' && failed.preview_project_status !== 'COMING_UP'
    }, { timeoutMs: 120_000, intervalMs: 200, what: 'the broken branch migrations to fail' })
    expect(failed.preview_project_status).toBe('ACTIVE_HEALTHY')
    expect(failed.error_message).toContain('Migration 20240301000000 (bad) failed: relation "nowhere" does not exist')
    const removed = await api(t, 'DELETE', `/v1/branches/${failed.id}`, { cookie })
    expect(removed.status).toBe(200)
    const gone = await api(t, 'DELETE', `/v1/branches/${branch.id}`, { cookie })
    expect(gone.status).toBe(200)
  })

  it('merges the branch migrations into the parent, shows them as a diff, pushes the parent ones back', async () => {
    const branch = await branchReady('schema-only')
    const migration = await api(t, 'POST', `/v1/projects/${branch.project_ref}/database/migrations`, { cookie }, { name: 'add_labels', query: 'CREATE TABLE labels (id int PRIMARY KEY, label text)' })
    expect(migration.status, JSON.stringify(migration.body)).toBeLessThan(300)
    const diff = await api(t, 'GET', `/v1/branches/${branch.id}/diff`, { cookie })
    expect(diff.status).toBe(200)
    expect(String(diff.body)).toContain('CREATE TABLE labels')
    // A diff runs nothing on the parent: the schema part is compared before the migration, and says so.
    expect(String(diff.body)).toContain('-- A merge runs the migrations above first,\n-- then only what still differs')
    expect(await sql(parent.port, `SELECT to_regclass('public.labels') IS NULL AS absent`)).toEqual([{ absent: true }])
    const merged = await api(t, 'POST', `/v1/branches/${branch.id}/merge`, { cookie }, {})
    expect(merged.status, JSON.stringify(merged.body)).toBe(201)
    expect(await sql(parent.port, `SELECT to_regclass('public.labels') IS NOT NULL AS present`)).toEqual([{ present: true }])
    const history = (await api(t, 'GET', `/v1/projects/${parent.ref}/database/migrations`, { cookie })).body
    expect(history.map((row: { name: string }) => row.name)).toContain('add_labels')
    const empty = await api(t, 'GET', `/v1/branches/${branch.id}/diff`, { cookie })
    expect(empty.body ?? '').toBe('')
    // Push: a migration made on the parent reaches the branch.
    await api(t, 'POST', `/v1/projects/${parent.ref}/database/migrations`, { cookie }, { name: 'add_flags', query: 'CREATE TABLE flags (id int)' })
    expect((await api(t, 'POST', `/v1/branches/${branch.id}/push`, { cookie }, {})).status).toBe(201)
    expect(await sql(branch.port, `SELECT to_regclass('public.flags') IS NOT NULL AS present`)).toEqual([{ present: true }])
  })

  it('diffs and merges schema changes made outside migrations: a table with its index and policy from the SQL editor', async () => {
    const branch = await branchReady('schema-only')
    const ran = await api(t, 'POST', `/v1/projects/${branch.project_ref}/database/query`, { cookie }, {
      query: `create table public.tags (id bigint generated always as identity primary key, label text not null check (label <> ''));
        create index tags_label_idx on public.tags (label);
        alter table public.tags enable row level security;
        create policy "tags are readable" on public.tags for select to authenticated using (true);
        create table public."x""; drop table notes; --" ("a""b" int check ("a""b" > 0));`,
    })
    expect(ran.status, JSON.stringify(ran.body)).toBe(201)
    const diff = String((await api(t, 'GET', `/v1/branches/${branch.id}/diff`, { cookie })).body)
    expect(diff).toContain('CREATE TABLE public.tags (\n  id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,\n  label text NOT NULL\n)')
    expect(diff).toContain('CREATE INDEX tags_label_idx ON public.tags USING btree (label)')
    expect(diff).toContain('ALTER TABLE public.tags ENABLE ROW LEVEL SECURITY')
    expect(diff).toContain('CREATE POLICY "tags are readable" ON public.tags')
    // The parent's own tables (notes, labels, flags) are neither dropped nor made again; the new table's grants are the
    // parent's default privileges, which it gets by itself.
    expect(diff.replaceAll('drop table notes', '')).not.toMatch(/notes|labels|flags|GRANT|REVOKE/)
    const merged = await api(t, 'POST', `/v1/branches/${branch.id}/merge`, { cookie }, {})
    expect(merged.status, JSON.stringify(merged.body)).toBe(201)
    expect(await sql(parent.port, `SELECT c.relrowsecurity AS rls,
        (SELECT array_agg(indexname::text ORDER BY indexname) FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'tags') AS indexes,
        (SELECT array_agg(policyname::text) FROM pg_policies WHERE schemaname = 'public' AND tablename = 'tags') AS policies
      FROM pg_class c WHERE c.oid = 'public.tags'::regclass`)).toEqual([{ rls: true, indexes: ['tags_label_idx', 'tags_pkey'], policies: ['tags are readable'] }])
    // A hostile name reaches the parent as a name, nothing else.
    expect(await sql(parent.port, `SELECT to_regclass('public."x""; drop table notes; --"') IS NOT NULL AS hostile, to_regclass('public.notes') IS NOT NULL AS notes`)).toEqual([{ hostile: true, notes: true }])
    expect((await api(t, 'GET', `/v1/branches/${branch.id}/diff`, { cookie })).body ?? '').toBe('')
  })

  it('diffs and merges domains, comments, owners, column and function privileges in dependency order; names what it does not compare', async () => {
    const branch = await branchReady('schema-only')
    // Roles belong to a server: the tenant's role is made on both sides, and `postgres` may hand objects to it.
    for (const port of [parent.port, branch.port]) await sql(port, 'CREATE ROLE app_owner NOLOGIN; GRANT app_owner TO postgres; GRANT USAGE, CREATE ON SCHEMA public TO app_owner')
    const ran = await api(t, 'POST', `/v1/projects/${branch.project_ref}/database/query`, { cookie }, {
      query: `create domain public.positive as integer default 1 not null constraint positive_check check (value > 0);
        create table public.scores (id int primary key, points public.positive, note text);
        create view public.score_points as select id, points from public.scores;
        create function public.score_total() returns bigint language sql stable begin atomic select coalesce(sum(points), 0) from public.score_points; end;
        create table public.score_snapshots (id int, total bigint default public.score_total());
        comment on table public.scores is 'Scores; per player';
        comment on column public.scores.note is 'free text';
        comment on function public.score_total() is 'sum of points';
        alter table public.scores owner to app_owner;
        revoke all on public.scores from anon;
        grant select (id, points) on public.scores to anon;
        revoke execute on function public.score_total() from public, anon;
        grant execute on function public.score_total() to authenticated;
        create operator public.=== (leftarg = int, rightarg = int, function = int4eq);`,
    })
    expect(ran.status, JSON.stringify(ran.body)).toBe(201)
    const diff = String((await api(t, 'GET', `/v1/branches/${branch.id}/diff`, { cookie })).body)
    const at = (text: string) => {
      expect(diff).toContain(text)
      return diff.indexOf(text)
    }
    // What each object needs comes first: the domain before its table, the view before the function reading it, that
    // function before the table whose default calls it.
    expect(at('CREATE DOMAIN public.positive AS integer DEFAULT 1 NOT NULL CONSTRAINT positive_check CHECK ((VALUE > 0))')).toBeLessThan(at('CREATE TABLE public.scores ('))
    expect(at('CREATE TABLE public.scores (')).toBeLessThan(at('CREATE VIEW public.score_points AS'))
    expect(at('CREATE VIEW public.score_points AS')).toBeLessThan(at('CREATE OR REPLACE FUNCTION public.score_total()'))
    expect(at('CREATE OR REPLACE FUNCTION public.score_total()')).toBeLessThan(at('CREATE TABLE public.score_snapshots ('))
    at('ALTER TABLE public.scores OWNER TO app_owner')
    expect(at('REVOKE ALL ON TABLE public.scores FROM anon')).toBeLessThan(at('GRANT SELECT (points) ON TABLE public.scores TO anon'))
    at('REVOKE ALL ON FUNCTION public.score_total() FROM PUBLIC')
    at("COMMENT ON TABLE public.scores IS 'Scores; per player'")
    at("COMMENT ON COLUMN public.scores.note IS 'free text'")
    at("COMMENT ON FUNCTION public.score_total() IS 'sum of points'")
    at('-- Not compared (make it in a migration to merge it): operator public.===(integer,integer) (made on the branch)')
    // Never merged without the operator: refused, naming it, and nothing reaches the parent.
    const refused = await api(t, 'POST', `/v1/branches/${branch.id}/merge`, { cookie }, {})
    expect(refused.status).toBe(400)
    expect(refused.body.message).toContain('operator public.===(integer,integer)')
    expect(await sql(parent.port, `SELECT to_regclass('public.scores') IS NULL AS absent`)).toEqual([{ absent: true }])

    await sql(branch.port, 'DROP OPERATOR public.=== (int, int)')
    const merged = await api(t, 'POST', `/v1/branches/${branch.id}/merge`, { cookie }, {})
    expect(merged.status, JSON.stringify(merged.body)).toBe(201)
    expect(await sql(parent.port, `SELECT
        (SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE contypid = 'public.positive'::regtype AND contype = 'c') AS domain_check,
        (SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'public.score_snapshots'::regclass) AS snapshot_default,
        obj_description('public.scores'::regclass, 'pg_class') AS table_comment,
        col_description('public.scores'::regclass, 3) AS note_comment,
        obj_description('public.score_total()'::regprocedure, 'pg_proc') AS function_comment,
        (SELECT relowner::regrole::text FROM pg_class WHERE oid = 'public.scores'::regclass) AS owner,
        has_table_privilege('anon', 'public.scores', 'SELECT') AS anon_table,
        has_column_privilege('anon', 'public.scores', 'points', 'SELECT') AS anon_points,
        has_column_privilege('anon', 'public.scores', 'note', 'SELECT') AS anon_note,
        has_function_privilege('anon', 'public.score_total()', 'EXECUTE') AS anon_execute,
        has_function_privilege('authenticated', 'public.score_total()', 'EXECUTE') AS authenticated_execute`)).toEqual([{
      domain_check: 'CHECK ((VALUE > 0))',
      snapshot_default: 'score_total()',
      table_comment: 'Scores; per player',
      note_comment: 'free text',
      function_comment: 'sum of points',
      owner: 'app_owner',
      anon_table: false,
      anon_points: true,
      anon_note: false,
      anon_execute: false,
      authenticated_execute: true,
    }])
    expect((await api(t, 'GET', `/v1/branches/${branch.id}/diff`, { cookie })).body ?? '').toBe('')
  })

  it('refuses to merge an object both sides changed differently, naming it, and merges nothing', async () => {
    const branch = await branchReady('schema-only')
    await sql(parent.port, 'ALTER TABLE notes ADD COLUMN extra int')
    await sql(branch.port, 'ALTER TABLE notes ADD COLUMN extra text; CREATE TABLE side (id int)')
    const diff = String((await api(t, 'GET', `/v1/branches/${branch.id}/diff`, { cookie })).body)
    expect(diff).toContain('-- Conflict (changed on both sides, not merged): column public.notes.extra')
    expect(diff).toContain('CREATE TABLE public.side')
    const refused = await api(t, 'POST', `/v1/branches/${branch.id}/merge`, { cookie }, {})
    expect(refused.status).toBe(409)
    expect(refused.body.message).toContain('column public.notes.extra')
    expect(await sql(parent.port, `SELECT to_regclass('public.side') IS NULL AS absent`)).toEqual([{ absent: true }])
  })

  it('resets a branch to the parent current state', async () => {
    const branch = await branchReady('with-data')
    const parentNow = await checksum(parent.port)
    const reset = await api(t, 'POST', `/v1/branches/${branch.id}/reset`, { cookie }, {})
    expect(reset.status, JSON.stringify(reset.body)).toBe(201)
    // Accepted: the branch's project shows COMING_UP at once, until the new copy is up.
    expect((await api(t, 'GET', `/platform/projects/${branch.project_ref}/status`, { cookie })).body.status).toBe('COMING_UP')
    const again = await branchReady('with-data')
    expect(await checksum(again.port)).toEqual(parentNow)
  })

  it('deletes a branch, and the parent deletion takes its branches along', async () => {
    const schemaOnly = await branchReady('schema-only')
    const deleted = await api(t, 'DELETE', `/v1/branches/${schemaOnly.id}`, { cookie })
    expect(deleted.status).toBe(200)
    expect((await api(t, 'GET', `/platform/projects/${schemaOnly.project_ref}`, { cookie })).status).toBe(404)
    const withData = await branchReady('with-data')
    expect((await api(t, 'DELETE', `/platform/projects/${parent.ref}`, { cookie })).status).toBe(200)
    expect((await api(t, 'GET', `/platform/projects/${withData.project_ref}`, { cookie })).status).toBe(404)
  })
})
