import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login, projectApi, startTestPlatform, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/**
 * The CVE-2018-1058 class (issue 25, item 1): a tenant may create functions in every schema it can
 * create in, and an overload there with `text` arguments wins over pg_catalog's for an untyped
 * argument. Each twin first tries RESET ROLE and RESET SESSION AUTHORIZATION: tenant code run under a
 * role SET over a superuser's session gets the superuser back that way. Here a twin of every catalog function (1 to 3 arguments, all `text`) is planted in each
 * of those schemas; each twin records who called it and, when the caller is a superuser, writes a
 * file with COPY (which only a superuser can, and which no rollback undoes) and makes `postgres` a
 * superuser. Then the platform runs every privileged operation it has on the project. None of the
 * twins may have run as a superuser: no file, `postgres` still not a superuser.
 */

let t: TestPlatform
let cookie: string
let orgSlug: string
const evidenceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-trojans-'))
// The project's Postgres runs as its own OS user (as root): it must be able to write here, as an attacker's COPY would.
fs.chmodSync(evidenceDir, 0o777)

/** The test platform and owner session of the file that calls describeTrojans (set in its beforeAll). */
export const trojanPlatform = () => ({ t, cookie, orgSlug })
/** After a restart of the platform, the owner signs in again. */
export const setTrojanCookie = (value: string) => {
  cookie = value
}

/**
 * One platform for the file; then, per Postgres major, a project full of twins and every privileged operation run on
 * it. `upgrade`: the major upgrade to 17 as well, whose dump and restore of the thousands of twins takes minutes (the
 * soak tier, privileged-sql-trojans-upgrade.soak.test.ts).
 */
export function describeTrojans(majors: Array<{ major: '15' | '17'; upgrade: boolean }>): void {
  beforeAll(async () => {
    t = await startTestPlatform()
    cookie = await login(t)
    orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
    // Branching needs the pro plan.
    expect((await api(t, 'PUT', `/platform/organizations/${orgSlug}/billing/subscription`, { cookie }, { plan: 'pro' })).status).toBe(200)
  }, 180_000)
  afterAll(async () => {
    await t?.cleanup()
    fs.rmSync(evidenceDir, { recursive: true, force: true })
  })
  for (const { major, upgrade } of majors) describeMajor(major, upgrade)
}

/** Every schema the tenant's `postgres` may create in: where the twins go. */
const TENANT_SCHEMAS = `SELECT n.nspname FROM pg_catalog.pg_namespace n
     WHERE pg_catalog.has_schema_privilege('postgres', n.oid, 'CREATE')
       AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'`
/** Concrete types that beat the catalog's polymorphic arguments (anynonarray, "any", anyelement). */
const CONCRETE_TYPES = `ARRAY['text', 'oid', 'int2', 'int4', 'int8', 'name', 'bool', '"char"', 'regtype', 'jsonb', 'numeric', 'timestamptz']`

/** The trojans, as the tenant writes them in the SQL editor (postgres, full connection). */
function plantSql(dir: string): string {
  return `
CREATE TABLE public.trojan_calls (fn text, caller text, superuser boolean);
GRANT INSERT ON public.trojan_calls TO PUBLIC;
CREATE FUNCTION public.trojan_record(fn text) RETURNS void LANGUAGE plpgsql AS $body$
DECLARE su boolean;
BEGIN
  -- Run as a role SET over a superuser's session, the session's own user is one RESET away: try both ways back.
  BEGIN
    EXECUTE 'RESET ROLE';
  EXCEPTION WHEN others THEN NULL;
  END;
  BEGIN
    EXECUTE 'RESET SESSION AUTHORIZATION';
  EXCEPTION WHEN others THEN NULL;
  END;
  su := (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user);
  BEGIN
    INSERT INTO public.trojan_calls VALUES (fn, current_user, su);
  EXCEPTION WHEN others THEN NULL; -- a read-only session: the superuser check below still counts
  END;
  IF su THEN
    EXECUTE pg_catalog.format('COPY (SELECT %L) TO %L', fn, '${dir}/' || fn || '-' || pg_catalog.txid_current_if_assigned()::text || '-' || pg_catalog.clock_timestamp()::text);
    EXECUTE 'ALTER ROLE postgres SUPERUSER';
  END IF;
END $body$;
GRANT EXECUTE ON FUNCTION public.trojan_record(text) TO PUBLIC;
DO $plant$
DECLARE
  target record;
  fn record;
  args text;
BEGIN
  FOR target IN ${TENANT_SCHEMAS} LOOP
    FOR fn IN
      SELECT DISTINCT p.proname, p.pronargs
        FROM pg_catalog.pg_proc p
       WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind = 'f' AND p.pronargs BETWEEN 1 AND 3
         AND p.proname !~ '^(trojan|pg_catalog)'
    LOOP
      args := pg_catalog.array_to_string(pg_catalog.array_fill('text'::text, ARRAY[fn.pronargs]), ', ');
      BEGIN
        EXECUTE pg_catalog.format(
          'CREATE FUNCTION %I.%I(%s) RETURNS text LANGUAGE plpgsql AS $t$ BEGIN PERFORM public.trojan_record(%L); RETURN NULL; END $t$',
          target.nspname, fn.proname, args, fn.proname);
        EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %I.%I(%s) TO PUBLIC', target.nspname, fn.proname, args);
      -- pg_catalog has this text signature already (it wins anyway), or the name is taken by an aggregate
      EXCEPTION WHEN duplicate_function OR wrong_object_type THEN NULL;
      END;
    END LOOP;
  END LOOP;
END $plant$;
-- Exact-type twins of the catalog's polymorphic functions and aggregates (array_agg(anynonarray), count("any")):
-- for an argument of a concrete type they win over the catalog's even when the catalog is searched first.
DO $plant$
DECLARE
  target record;
  fn record;
  concrete text;
  args text;
BEGIN
  FOREACH concrete IN ARRAY ${CONCRETE_TYPES} LOOP
    EXECUTE pg_catalog.format(
      'CREATE FUNCTION public.trojan_sfunc(state text, value %s) RETURNS text LANGUAGE plpgsql AS $t$ BEGIN PERFORM public.trojan_record(''aggregate''); RETURN state; END $t$', concrete);
    EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION public.trojan_sfunc(text, %s) TO PUBLIC', concrete);
  END LOOP;
  FOR target IN ${TENANT_SCHEMAS} LOOP
    FOR fn IN
      SELECT DISTINCT p.proname, p.prokind, p.pronargs
        FROM pg_catalog.pg_proc p
       WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind IN ('f', 'a') AND p.pronargs BETWEEN 1 AND 2
         AND EXISTS (SELECT 1 FROM pg_catalog.unnest(p.proargtypes::oid[]) AS a(t) JOIN pg_catalog.pg_type ty ON ty.oid = a.t WHERE ty.typtype = 'p')
    LOOP
      FOREACH concrete IN ARRAY ${CONCRETE_TYPES} LOOP
        BEGIN
          IF fn.prokind = 'a' AND fn.pronargs = 1 THEN
            EXECUTE pg_catalog.format('CREATE AGGREGATE %I.%I(%s) (sfunc = public.trojan_sfunc, stype = text)', target.nspname, fn.proname, concrete);
          ELSIF fn.prokind = 'f' THEN
            args := pg_catalog.array_to_string(pg_catalog.array_fill(concrete, ARRAY[fn.pronargs]), ', ');
            EXECUTE pg_catalog.format(
              'CREATE FUNCTION %I.%I(%s) RETURNS text LANGUAGE plpgsql AS $t$ BEGIN PERFORM public.trojan_record(%L); RETURN NULL; END $t$',
              target.nspname, fn.proname, args, fn.proname);
          END IF;
        EXCEPTION WHEN duplicate_function OR wrong_object_type OR invalid_function_definition OR undefined_function THEN NULL;
        END;
      END LOOP;
    END LOOP;
  END LOOP;
END $plant$;
-- Operators: exact-type twins of the catalog's polymorphic array operators (an operator resolves by the path too).
DO $plant$
DECLARE
  target record;
  op text;
  elem text;
BEGIN
  FOR target IN ${TENANT_SCHEMAS} LOOP
    FOREACH elem IN ARRAY ARRAY['text', 'oid', 'name', 'int4', 'int2'] LOOP
      EXECUTE pg_catalog.format(
        'CREATE FUNCTION %I.trojan_op(a %s[], b %s[]) RETURNS boolean LANGUAGE plpgsql AS $t$ BEGIN PERFORM public.trojan_record(''operator''); RETURN NULL; END $t$',
        target.nspname, elem, elem);
      FOREACH op IN ARRAY ARRAY['@>', '<@', '&&', '='] LOOP
        BEGIN
          EXECUTE pg_catalog.format('CREATE OPERATOR %I.%s (LEFTARG = %s[], RIGHTARG = %s[], FUNCTION = %I.trojan_op)', target.nspname, op, elem, elem, target.nspname);
        EXCEPTION WHEN duplicate_function OR duplicate_object THEN NULL;
        END;
      END LOOP;
    END LOOP;
  END LOOP;
END $plant$;
SELECT count(*) AS planted FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname <> 'pg_catalog' AND p.prokind = 'f' AND pg_catalog.pg_get_function_identity_arguments(p.oid) ~ '^text(, text)*$'
   AND pg_catalog.pg_get_functiondef(p.oid) LIKE '%trojan_record%';`
}

function describeMajor(major: '15' | '17', upgrade: boolean): void {
  describe(`privileged operations on Postgres ${major} never run a tenant overload`, () => {
    let ref: string
    const dir = path.join(evidenceDir, major)

    const sqlAsOwner = async (query: string) => {
      const result = await api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query, read_only: false })
      expect(result.status, JSON.stringify(result.body?.error ?? result.body?.message ?? result.body).slice(0, 800)).toBe(201)
      return result.body.results.at(-1)?.rows as Array<Record<string, unknown>>
    }
    const ok = async (method: string, url: string, body?: unknown) => {
      const result = await api(t, method, url, { cookie }, body)
      expect(result.status, `${method} ${url}: ${JSON.stringify(result.body).slice(0, 300)}`).toBeLessThan(300)
      return result.body
    }
    /**
     * Introspection prints names as users see them, so it reads the catalogs with the users' search path, as the
     * read-only role: the twins there do run, with no rights, and may spoil the tenant's own listing (its doing).
     * Any answer will do; what counts is that they never run as a superuser.
     */
    const introspect = async (url: string) => {
      const result = await api(t, 'GET', url, { cookie })
      expect(result.status, url).toBeGreaterThanOrEqual(200)
    }
    const healthy = () => waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 120_000)

    beforeAll(async () => {
      fs.mkdirSync(dir, { mode: 0o777 })
      fs.chmodSync(dir, 0o777)
      const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: `Trojans ${major}`, organization_slug: orgSlug, db_pass: 'trojan-password-1', postgres_engine: major })
      expect(created.status).toBe(201)
      ref = created.body.ref
      await healthy()
      const [{ planted }] = (await sqlAsOwner(plantSql(dir))) as [{ planted: string | number }]
      // Code that runs on the rows themselves when a superuser writes them (a restore's COPY, a branch's data):
      // a check constraint, a domain check and a generated column, each calling the tenant's recorder.
      await sqlAsOwner(`
        CREATE FUNCTION public.trojan_check(x int) RETURNS boolean LANGUAGE plpgsql AS $f$ BEGIN PERFORM public.trojan_record('check'); RETURN true; END $f$;
        CREATE FUNCTION public.trojan_generated(x int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $f$ BEGIN PERFORM public.trojan_record('generated'); RETURN x; END $f$;
        CREATE DOMAIN public.trojan_domain AS int CHECK (public.trojan_check(VALUE));
        CREATE TABLE public.trojan_rows (x int CHECK (public.trojan_check(x)), d public.trojan_domain, g int GENERATED ALWAYS AS (public.trojan_generated(x)) STORED);
        INSERT INTO public.trojan_rows (x, d) VALUES (1, 1), (2, 2);`)
      // The platform's bookkeeping in schemas the tenant owns, turned into views that call the tenant (read by the
      // storage service's set-up after every start, pause and restore).
      await sqlAsOwner(`
        CREATE TABLE storage.migrations_kept AS SELECT * FROM storage.migrations;
        DROP TABLE storage.migrations;
        CREATE VIEW storage.migrations AS SELECT * FROM storage.migrations_kept WHERE public.trojan_check(1);`)
      // Thousands of twins in public and extensions (and any other schema postgres may create in).
      expect(Number(planted)).toBeGreaterThan(1000)
    }, 180_000)

    it('the twins are live: the tenant itself calls one with an untyped argument', async () => {
      const rows = await sqlAsOwner(`SELECT pg_cancel_backend('1') AS answer`)
      expect(rows).toEqual([{ answer: null }])
      expect(await sqlAsOwner(`SELECT fn, caller, superuser FROM public.trojan_calls`)).toContainEqual({ fn: 'pg_cancel_backend', caller: 'postgres', superuser: false })
      // And the operators: text[] @> text[] is the tenant's on the users' path.
      expect(await sqlAsOwner(`SELECT ARRAY['a']::text[] @> ARRAY['a']::text[] AS answer`)).toEqual([{ answer: null }])
    })

    it('runs every privileged operation without a superuser call', async () => {
      // The query routes: a long query, listed, cancelled, then another terminated (supabase_admin's pool).
      for (const how of ['cancel', 'terminate'] as const) {
        const running = api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query: 'SELECT pg_catalog.pg_sleep(60)', read_only: false })
        let pid: number | undefined
        await waitFor(async () => {
          const ongoing = (await api<Array<{ pid: number; query: string }>>(t, 'GET', `/platform/pg-meta/${ref}/query/ongoing`, { cookie })).body
          pid = Array.isArray(ongoing) ? ongoing.find((row) => row.query.includes('pg_sleep(60)'))?.pid : undefined
          return pid !== undefined
        }, { what: 'the long query to be listed', timeoutMs: 60_000 })
        await ok('POST', `/platform/pg-meta/${ref}/query/${how}`, { pid })
        expect((await running).status).toBeGreaterThanOrEqual(400)
      }
      // Introspection, API docs, types, advisors, health, upgrade eligibility, read-only state.
      await introspect(`/platform/pg-meta/${ref}/tables?include_columns=true`)
      await ok('GET', `/platform/pg-meta/${ref}/extensions`)
      await introspect(`/platform/projects/${ref}/api/rest`)
      await introspect(`/v1/projects/${ref}/types/typescript`)
      await ok('GET', `/v1/projects/${ref}/advisors/security`)
      await ok('GET', `/v1/projects/${ref}/advisors/performance`)
      await ok('GET', `/v1/projects/${ref}/health?services=db,db_postgres_user,auth,rest,storage`)
      await ok('GET', `/v1/projects/${ref}/upgrade/eligibility`)
      await ok('GET', `/v1/projects/${ref}/readonly`)
      // Extensions, enabled and disabled by the platform's superuser.
      await ok('POST', `/platform/pg-meta/${ref}/extensions`, { name: 'hstore', schema: 'extensions' })
      const hstore = ((await ok('GET', `/platform/pg-meta/${ref}/extensions`)) as Array<{ name: string; installed_version: string | null }>).find((row) => row.name === 'hstore')
      expect(hstore?.installed_version).toBeTruthy()
      await ok('DELETE', `/platform/pg-meta/${ref}/extensions/hstore`)
      // The auth and storage services' privileged set-up, and their own traffic.
      const project = await projectApi(t, ref, { cookie })
      const signup = await fetch(`${project.url}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: project.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `trojan-${major}@example.com`, password: 'trojan-user-password-1' }),
      })
      expect(signup.status).toBeLessThan(300)
      const bucket = await fetch(`${project.url}/storage/v1/bucket`, {
        method: 'POST',
        headers: { apikey: project.serviceKey, authorization: `Bearer ${project.serviceKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'trojans', public: false }),
      })
      expect(bucket.status).toBeLessThan(300)
      const rest = await fetch(`${project.url}/rest/v1/trojan_calls?select=fn&limit=1`, { headers: { apikey: project.serviceKey } })
      expect(rest.status).toBe(200)
      // Realtime: its schema checked again by the superuser (ensureReady), a change streamed and checked for an anon
      // subscriber (authenticator's pool), a broadcast from SQL, old messages pruned.
      await sqlAsOwner(`CREATE TABLE public.trojan_feed (id int PRIMARY KEY, note text); GRANT SELECT ON public.trojan_feed TO anon;
        ALTER PUBLICATION supabase_realtime ADD TABLE public.trojan_feed`)
      const realtime = createClient(project.url, project.anonKey, { realtime: { transport: WebSocket as never } as never, auth: { persistSession: false } })
      const changes: unknown[] = []
      const sent: unknown[] = []
      await new Promise<void>((resolve, reject) => {
        realtime
          .channel('trojans')
          .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'trojan_feed' }, (change) => changes.push(change))
          .on('broadcast', { event: 'from-sql' }, (message) => sent.push(message))
          .on('system', {}, (message: { extension?: string; status?: string; message?: string }) => {
            if (message.extension !== 'postgres_changes') return
            if (message.status === 'ok') resolve()
            else reject(new Error(message.message))
          })
          .subscribe((status, error) => (status === 'CHANNEL_ERROR' ? reject(error ?? new Error(status)) : undefined))
      })
      await sqlAsOwner(`INSERT INTO public.trojan_feed VALUES (1, 'streamed'); SELECT realtime.send('{"n": 1}'::jsonb, 'from-sql', 'trojans', false)`)
      await waitFor(() => changes.length === 1 && sent.length === 1, { what: 'the change and the broadcast from SQL' })
      await realtime.removeAllChannels()
      if (major === '15') {
        // Before 16 an empty table becomes a view with a _RETURN rule: auth's bookkeeping likewise (read again by the
        // auth service's set-up after the restore below; the project's own auth then fails, its own doing).
        await sqlAsOwner(`
          CREATE TABLE public.auth_migrations_kept AS SELECT * FROM auth.schema_migrations;
          GRANT SELECT ON public.auth_migrations_kept TO supabase_auth_admin;
          SET ROLE supabase_auth_admin;
          DELETE FROM auth.schema_migrations;
          DO $d$ DECLARE c record; BEGIN
            FOR c IN SELECT conname FROM pg_catalog.pg_constraint WHERE conrelid = 'auth.schema_migrations'::regclass LOOP
              EXECUTE pg_catalog.format('ALTER TABLE auth.schema_migrations DROP CONSTRAINT %I', c.conname);
            END LOOP;
            FOR c IN SELECT indexrelid::regclass::text AS conname FROM pg_catalog.pg_index WHERE indrelid = 'auth.schema_migrations'::regclass LOOP
              EXECUTE 'DROP INDEX ' || c.conname;
            END LOOP;
          END $d$;`)
        // relhasindex is cleared by VACUUM only.
        await sqlAsOwner(`VACUUM auth.schema_migrations`)
        await sqlAsOwner(`
          SET ROLE supabase_auth_admin;
          CREATE RULE "_RETURN" AS ON SELECT TO auth.schema_migrations DO INSTEAD SELECT * FROM public.auth_migrations_kept WHERE public.trojan_check(1);`)
      }
      // Keys and passwords.
      await ok('PATCH', `/v1/projects/${ref}/database/password`, { password: 'trojan-password-2' })
      await ok('POST', `/platform/projects/${ref}/config/secrets`, {})
      // update_status.status: 0 while updating, 1 once updated (api-keys-rotation.test.ts).
      let rotation: number | undefined
      await waitFor(
        async () => (rotation = (await api(t, 'GET', `/platform/projects/${ref}/config/secrets/update-status`, { cookie })).body?.update_status?.status) !== 0,
        { what: 'the JWT secret rotation to end', timeoutMs: 120_000 },
      )
      expect(rotation).toBe(1)
      await healthy()
      // Lifecycle: restart, pause (a backup), restore.
      await ok('POST', `/platform/projects/${ref}/restart`, {})
      await healthy()
      await ok('POST', `/platform/projects/${ref}/pause`, {})
      await waitForStatus(t, ref, { cookie }, 'INACTIVE', 120_000)
      await ok('POST', `/platform/projects/${ref}/restore`, {})
      await healthy()
      // A branch with the project's data (an online physical copy, then the branch's own bootstrap).
      await ok('POST', `/v1/projects/${ref}/branches`, { branch_name: 'main', is_default: true })
      await ok('POST', `/v1/projects/${ref}/branches`, { branch_name: `trojans-${major}`, with_data: true })
      await waitFor(
        async () => {
          const branch = (await api(t, 'GET', `/v1/projects/${ref}/branches/trojans-${major}`, { cookie })).body
          if (branch?.status === 'MIGRATIONS_FAILED' || branch?.preview_project_status === 'INIT_FAILED') throw new Error(`branch failed: ${JSON.stringify(branch)}`)
          return branch?.preview_project_status === 'ACTIVE_HEALTHY' && branch?.status === 'MIGRATIONS_PASSED'
        },
        { what: 'the branch to be ready', timeoutMs: 120_000, intervalMs: 250 },
      )
      // Its schema compared with the parent's (the branch's catalog read by the superuser; at creation too, for its base).
      await ok('GET', `/v1/branches/${(await ok('GET', `/v1/projects/${ref}/branches/trojans-${major}`) as { id: string }).id}/diff`)
      if (upgrade) {
        // The major upgrade: a dump of every database restored into a new Postgres 17 by the platform's superuser.
        const started = await ok('POST', `/v1/projects/${ref}/upgrade`, { target_version: '17' }) as { tracking_id: string }
        let upgrade: { status: number; error?: string } | undefined
        await waitFor(
          async () => (upgrade = (await api(t, 'GET', `/v1/projects/${ref}/upgrade/status?tracking_id=${started.tracking_id}`, { cookie })).body.databaseUpgradeStatus)?.status !== 0,
          { what: 'the upgrade to end', timeoutMs: 300_000, intervalMs: 250 },
        )
        expect(upgrade, JSON.stringify(upgrade)).toMatchObject({ status: 1 })
        await healthy()
        // The upgrade target's room for locks was for the restore only.
        expect(await sqlAsOwner(`SELECT current_setting('max_locks_per_transaction') AS locks`)).toEqual([{ locks: '64' }])
      }
      // Storage and auth again: their set-up read their bookkeeping again after the restore and the upgrade.
      expect((await fetch(`${project.url}/storage/v1/bucket`, { headers: { apikey: project.serviceKey, authorization: `Bearer ${project.serviceKey}` } })).status).toBeLessThan(500)
      await (await fetch(`${project.url}/auth/v1/settings`, { headers: { apikey: project.anonKey } })).text()
      // Health again after everything, as the dashboard polls it.
      await ok('GET', `/v1/projects/${ref}/health?services=db,db_postgres_user`)

      expect(fs.readdirSync(dir)).toEqual([])
      const [{ rolsuper }] = (await sqlAsOwner(`SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = 'postgres'`)) as [{ rolsuper: boolean }]
      expect(rolsuper).toBe(false)
      expect(await sqlAsOwner(`SELECT DISTINCT fn, caller FROM public.trojan_calls WHERE superuser`)).toEqual([])
    }, 600_000)

    it('leaves no tenant role with REPLICATION, and bounds what a slot may hold', async () => {
      // The one REPLICATION role is realtime's login, which the tenant can neither become nor change.
      expect(await sqlAsOwner(`SELECT rolname FROM pg_catalog.pg_roles WHERE rolreplication AND NOT rolsuper`)).toEqual([{ rolname: 'supabase_replication_admin' }])
      expect(await sqlAsOwner(`SELECT pg_catalog.pg_has_role('postgres', 'supabase_replication_admin', 'MEMBER') AS member`)).toEqual([{ member: false }])
      const altered = await api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query: `ALTER ROLE supabase_replication_admin PASSWORD 'mine'`, read_only: false })
      expect(altered.body?.error?.code).toBe('42501')
      expect(await sqlAsOwner(`SELECT current_setting('max_slot_wal_keep_size') AS bound`)).toEqual([{ bound: '1GB' }])
      const refused = await api(t, 'POST', `/platform/pg-meta/${ref}/query`, { cookie }, { query: `SELECT pg_create_physical_replication_slot('mine')`, read_only: false })
      expect(refused.body?.error?.code).toBe('42501')
    })
  })
}
