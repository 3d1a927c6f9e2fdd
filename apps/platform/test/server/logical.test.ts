import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PostgresMajor } from '@stratum/contracts'
import { ADMIN_ROLE, adminConnection, bootstrapClusterRoles, bootstrapInstance, withAdminClient } from '../../src/control/bootstrap-roles.js'
import { isPortFree } from '../../src/control/ports.js'
import { PostgresServer, platformHba } from '../../src/control/postgres-server.js'
import {
  dumpDatabase,
  dumpToGzipFile,
  restoreDump,
  restoreFromGzipFile,
  RestoreError,
  type LogicalConnection,
} from '../../src/control/logical/index.js'
import { pgDumpArguments } from '../../src/control/logical/dump-options.js'
import { runWasmPgDump } from '../../src/control/logical/wasm-pg-dump.js'

// Real servers: two sources (15 and 17) holding the reference schema, two empty 17 targets.
const PASSWORD = 'logical-test-password'
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-logical-'))
fs.chmodSync(root, 0o755) // the instance user (postgres, when we run as root) must reach its dirs
const servers: PostgresServer[] = []
// A random block of ports below the ephemeral range, one port per server (tests run side by side).
const portBlock = 20_000 + Math.floor(Math.random() * 120) * 100

/**
 * A project-shaped instance: the platform's superuser and roles. Sources also get a new project's
 * database (auth and extensions schemas); targets stay empty, as an upgrade's target database is.
 */
async function startServer(name: string, major: PostgresMajor, index: number): Promise<LogicalConnection> {
  let port = portBlock + index
  while (!(await isPortFree(port))) port += 10
  const server = new PostgresServer(path.join(root, name), major, 'postgres')
  servers.push(server)
  await server.init(ADMIN_ROLE, PASSWORD)
  server.writeSettings({ port, listen_addresses: 'localhost', unix_socket_directories: '' }, platformHba(false))
  await server.start()
  const credentials = { adminPassword: PASSWORD, initialUserPassword: PASSWORD, editorPassword: 'editor-pw', authenticatorPassword: 'auth-pw', readonlyPassword: 'ro-pw' }
  if (name.startsWith('source')) await bootstrapInstance(adminConnection(port, PASSWORD), credentials)
  else await withAdminClient(adminConnection(port, PASSWORD), (client) => bootstrapClusterRoles(client, credentials))
  return { host: '127.0.0.1', port, user: ADMIN_ROLE, password: PASSWORD, database: 'postgres' }
}

async function withClient<T>(conn: LogicalConnection, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(conn)
  client.on('error', () => {})
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

async function createDatabase(conn: LogicalConnection, name: string): Promise<LogicalConnection> {
  await withClient(conn, (client) => client.query(`CREATE DATABASE ${name}`))
  return { ...conn, database: name }
}

/** Everything the reference schema exercises; the same SQL on 15 and 17, and deterministic. */
const REFERENCE_SCHEMA = String.raw`
CREATE EXTENSION pgcrypto;
CREATE EXTENSION hstore;
CREATE ROLE app_owner NOLOGIN;
CREATE ROLE report_reader LOGIN PASSWORD 'reader-pw' IN ROLE app_owner;
ALTER ROLE report_reader SET statement_timeout = '5s';
ALTER ROLE authenticator SET pgrst.db_aggregates_enabled TO 'true';
ALTER ROLE authenticator SET pgrst.jwt_aud TO 'aud$stratum$';
ALTER ROLE authenticator SET pgrst.jwt_secret TO 'a secret of the platform, never carried';
CREATE SCHEMA app;
COMMENT ON SCHEMA app IS 'application schema';
GRANT USAGE ON SCHEMA app TO anon, authenticated, report_reader;
CREATE TYPE app.mood AS ENUM ('sad', 'ok', 'happy');

CREATE TABLE app.people (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  bio text,
  mood app.mood,
  tags text[],
  scores int[],
  profile jsonb,
  settings json,
  avatar bytea,
  attrs hstore,
  born date,
  updated_at timestamptz,
  secret text
);
COMMENT ON TABLE app.people IS 'People; with a ''quote'', a -- dash and a ; semicolon';
COMMENT ON COLUMN app.people.bio IS E'multi\nline comment';
INSERT INTO app.people (name, bio, mood, tags, scores, profile, settings, avatar, attrs, born, updated_at, secret) VALUES
  ('Ada', E'tab\there\nnew line, backslash \\ and quote '' done', 'happy', ARRAY['a', 'b c', '{x}', '"q"', NULL],
   ARRAY[1, 2, 3], '{"k": [1, 2, {"n": null}], "s": "é ☃ 😀"}', '{"raw":  "spacing kept"}', '\x00ff10'::bytea,
   'a=>1, "b c"=>NULL', '1815-12-10', '2024-05-01 12:00:00+00', encode(digest('ada', 'sha256'), 'hex')),
  ('Nobody', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ('Looks like the end of COPY', E'\\.', 'ok', '{}', '{}', '[]', 'null', '', '', NULL, NULL, E'\r\n'),
  ('SET transaction_timeout = 0;', 'SET transaction_timeout = 0;', 'sad', ARRAY[E'\t'], NULL, '"x"', '1', '\x5c2e'::bytea, NULL, NULL, NULL, '$$;$x$'),
  ('Zoë — 日本語 — 😀', E'ends with a backslash \\', 'ok', NULL, ARRAY[NULL, 4]::int[], '{"deep": {"a": [true, false]}}', NULL, NULL, NULL, '2000-02-29', NULL, NULL);
INSERT INTO app.people (name, bio, mood, scores, born)
  SELECT 'person ' || g, repeat('lorem ipsum; ', g % 7), (ARRAY['sad', 'ok', 'happy'])[1 + g % 3]::app.mood,
         ARRAY[g, g * 2], DATE '2000-01-01' + g
    FROM generate_series(1, 3000) g;

CREATE TABLE app.posts (
  id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  author bigint REFERENCES app.people (id) ON DELETE CASCADE,
  title text NOT NULL,
  body text,
  created date DEFAULT '2024-01-01'
);
INSERT INTO app.posts (author, title, body) SELECT 1 + g % 50, 'post ' || g, md5(g::text) FROM generate_series(1, 2000) g;
ALTER TABLE app.posts OWNER TO app_owner;
GRANT SELECT ON app.posts TO report_reader;
CREATE INDEX posts_author_idx ON app.posts (author);
CREATE INDEX people_lower_name_idx ON app.people (lower(name));
CREATE INDEX people_profile_idx ON app.people USING gin (profile);
CREATE UNIQUE INDEX people_happy_name_idx ON app.people (name) WHERE mood = 'happy';

CREATE SEQUENCE app.ticket_seq START 1000 INCREMENT 7;
SELECT nextval('app.ticket_seq') FROM generate_series(1, 5);
CREATE SEQUENCE app.unused_seq;

CREATE VIEW app.happy_people AS SELECT id, name FROM app.people WHERE mood = 'happy';
COMMENT ON VIEW app.happy_people IS 'the happy ones';
CREATE MATERIALIZED VIEW app.post_counts AS SELECT author, count(*) AS n FROM app.posts GROUP BY author;
CREATE UNIQUE INDEX ON app.post_counts (author);

CREATE FUNCTION app.add(a int, b int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT a + b';
CREATE FUNCTION app.touch() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  -- a comment with a ; semicolon and a 'quote'
  NEW.updated_at := '2000-01-01 00:00:00+00';
  RAISE NOTICE 'touched %; ok', NEW.id;
  RETURN NEW;
END
$fn$;
CREATE FUNCTION app.quoting() RETURNS text LANGUAGE plpgsql AS $body$
BEGIN
  RETURN $$ nested; $$ || 'str;' || E'\';' || $x$ $y$ $x$; /* block; /* nested */ comment */
END
$body$;
COMMENT ON FUNCTION app.quoting() IS 'returns quotes';
CREATE TRIGGER people_touch BEFORE UPDATE ON app.people FOR EACH ROW EXECUTE FUNCTION app.touch();

CREATE TABLE public.notes (id serial PRIMARY KEY, body text, owner text);
INSERT INTO public.notes (body, owner) VALUES ('public note', NULL), ('private note', 'ada');
ALTER TABLE public.notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY notes_read ON public.notes FOR SELECT TO anon USING (owner IS NULL);
GRANT SELECT ON public.notes TO anon;
GRANT SELECT, INSERT ON public.notes TO authenticated;
GRANT SELECT ON app.happy_people TO anon;
REVOKE EXECUTE ON FUNCTION app.add(int, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app.add(int, int) TO anon;
SELECT lo_from_bytea(424242, 'large object bytes');
COMMENT ON LARGE OBJECT 424242 IS 'a large object';
`

/** What a restore must carry over, read from a database; equal between source and target. */
async function snapshot(conn: LogicalConnection) {
  return withClient(conn, async (client) => {
    const rows = async (sql: string) => (await client.query(sql)).rows
    const relations = await rows(`
      SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'm') AND n.nspname IN ('public', 'app') ORDER BY 1`)
    const data: Record<string, unknown> = {}
    for (const { name } of relations) {
      const { rows: [sum] } = await client.query(
        `SELECT count(*)::int AS rows, md5(coalesce(string_agg(t::text, E'\n' ORDER BY t::text), '')) AS md5 FROM ${name} t`,
      )
      data[name] = sum
    }
    const system = `NOT IN ('pg_catalog', 'information_schema', 'pg_toast')`
    const notExtensionMember = (oid: string) => `NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = ${oid} AND d.deptype = 'e')`
    return {
      data,
      sequences: await rows(`SELECT schemaname, sequencename, last_value::text, start_value::text, increment_by::text FROM pg_sequences ORDER BY 1, 2`),
      indexes: await rows(`SELECT schemaname, indexname, indexdef FROM pg_indexes WHERE schemaname ${system} ORDER BY 1, 2`),
      views: await rows(`SELECT schemaname, viewname, definition FROM pg_views WHERE schemaname ${system} ORDER BY 1, 2`),
      matviews: await rows(`SELECT schemaname, matviewname, definition, ispopulated FROM pg_matviews ORDER BY 1, 2`),
      functions: await rows(`
        SELECT n.nspname, p.proname, pg_get_function_identity_arguments(p.oid) AS args, pg_get_functiondef(p.oid) AS def,
               p.proacl::text AS acl, pg_get_userbyid(p.proowner) AS owner
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname ${system} AND ${notExtensionMember('p.oid')} ORDER BY 1, 2, 3`),
      triggers: await rows(`SELECT tgrelid::regclass::text AS rel, tgname, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2`),
      extensions: await rows(`SELECT extname, extversion, extnamespace::regnamespace::text AS schema FROM pg_extension ORDER BY 1`),
      comments: await rows(`
        SELECT pg_describe_object(classoid, objoid, objsubid) AS object, description FROM pg_description
         WHERE objoid >= 16384 ORDER BY 1`),
      relations: await rows(`
        SELECT format('%I.%I', n.nspname, c.relname) AS name, c.relkind, pg_get_userbyid(c.relowner) AS owner, c.relacl::text AS acl,
               c.relrowsecurity
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname IN ('public', 'app') ORDER BY 1`),
      schemas: await rows(`SELECT nspname, pg_get_userbyid(nspowner) AS owner, nspacl::text AS acl FROM pg_namespace WHERE nspname ${system} ORDER BY 1`),
      policies: await rows(`SELECT schemaname, tablename, policyname, roles::text, cmd, qual FROM pg_policies ORDER BY 1, 2, 3`),
      types: await rows(`SELECT t.typname, array_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid GROUP BY 1 ORDER BY 1`),
      largeObjects: await rows(`SELECT oid::text, encode(lo_get(oid), 'escape') AS content FROM pg_largeobject_metadata ORDER BY 1`),
      roles: await rows(`
        SELECT r.rolname, r.rolcanlogin, a.rolpassword, r.rolconfig::text AS config,
               (SELECT array_agg(g.rolname ORDER BY g.rolname) FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid) AS member_of
          FROM pg_roles r JOIN pg_authid a ON a.oid = r.oid WHERE r.rolname IN ('app_owner', 'report_reader') ORDER BY 1`),
      postgrestSettings: await rows(`SELECT unnest(rolconfig) AS setting FROM pg_roles WHERE rolname = 'authenticator' ORDER BY 1`),
    }
  })
}

/** The PostgREST settings on authenticator a restore carries: the project's, and none of the platform's (the jwt secret). */
const CARRIED_POSTGREST_SETTINGS = [{ setting: 'pgrst.db_aggregates_enabled=true' }, { setting: 'pgrst.jwt_aud=aud$stratum$' }]

/** What a restore gives back: the snapshot of the source, but for the PostgREST settings that are not the project's. */
function restoredFrom(state: Awaited<ReturnType<typeof snapshot>>) {
  return { ...state, postgrestSettings: CARRIED_POSTGREST_SETTINGS }
}

/** Roles are per cluster: the two sources have the same roles with different password salts. */
function withoutRoles(state: Awaited<ReturnType<typeof snapshot>>) {
  const { roles: _roles, postgrestSettings: _postgrestSettings, ...rest } = state
  return rest
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

let source15: LogicalConnection
let source17: LogicalConnection
let target15to17: LogicalConnection
let target17to17: LogicalConnection
let expected15: Awaited<ReturnType<typeof snapshot>>
let expected17: Awaited<ReturnType<typeof snapshot>>

beforeAll(async () => {
  ;[source15, source17, target15to17, target17to17] = await Promise.all([
    startServer('source15', '15', 0),
    startServer('source17', '17', 1),
    startServer('target15to17', '17', 2),
    startServer('target17to17', '17', 3),
  ])
  // As a user's session would: the platform's superuser has only pg_catalog on its path (bootstrap-roles.ts).
  await Promise.all([source15, source17].map((conn) => withClient(conn, (client) => client.query(`SET search_path TO public; ${REFERENCE_SCHEMA}`))))
  ;[expected15, expected17] = await Promise.all([snapshot(source15), snapshot(source17)])
}, 180_000)

afterAll(async () => {
  await Promise.allSettled(servers.map((server) => server.stop()))
  fs.rmSync(root, { recursive: true, force: true })
})

describe('logical dump and restore', () => {
  it('upgrades: dumps PG 15 and restores into an empty PG 17, streaming from one to the other', async () => {
    const summary = await restoreDump(target15to17, dumpDatabase(source15))
    expect(summary.copiedRows).toBeGreaterThan(5000)
    const restored = await snapshot(target15to17)
    // Rows, sequences, large objects and roles as they were on 15 ...
    expect(restored.data).toEqual(expected15.data)
    expect(restored.sequences).toEqual(expected15.sequences)
    expect(restored.largeObjects).toEqual(expected15.largeObjects)
    expect(restored.roles).toEqual(expected15.roles)
    // The PostgREST settings a project may set on authenticator, and none of the platform's (the jwt secret).
    expect(restored.postgrestSettings).toEqual(CARRIED_POSTGREST_SETTINGS)
    // ... and every definition as the same schema created on 17 has it, but for MAINTAIN (new in
    // 17), which GRANT ALL through the default privileges gives on 17 and could not give on 15.
    const withoutMaintain = <T>(snap: T): T => JSON.parse(JSON.stringify(snap).replace(/=arwdDxtm\//g, '=arwdDxt/'))
    expect(withoutMaintain(withoutRoles(restored))).toEqual(withoutMaintain(withoutRoles(expected17)))
  })

  it('backs up PG 17 to .sql.gz and restores the file into an empty PG 17, ownership and grants included', async () => {
    const file = path.join(root, 'backup17.sql.gz')
    const written = await dumpToGzipFile(source17, file)
    expect(written.fileBytes).toBe(fs.statSync(file).size)
    expect(written.fileBytes).toBeLessThan(written.sqlBytes)
    expect(fs.existsSync(`${file}.partial`)).toBe(false)
    await restoreFromGzipFile(target17to17, file)
    expect(await snapshot(target17to17)).toEqual(restoredFrom(expected17))
    // The API roles see what they saw before: grants and row-level security came along.
    await withClient(target17to17, async (client) => {
      await client.query('BEGIN; SET LOCAL ROLE anon')
      expect((await client.query('SELECT body FROM public.notes')).rows).toEqual([{ body: 'public note' }])
      expect((await client.query('SELECT app.add(2, 3) AS sum')).rows).toEqual([{ sum: 5 }])
      await expect(client.query('SELECT 1 FROM app.posts')).rejects.toThrow(/permission denied/)
      await client.query('ROLLBACK')
    })
    // A role the user created logs in with its old password.
    await withClient({ ...target17to17, user: 'report_reader', password: 'reader-pw' }, async (client) => {
      expect((await client.query('SELECT count(*)::int AS n FROM app.posts')).rows[0].n).toBe(2000)
    })
  })

  it('backs up PG 15 and restores the backup into PG 15 (the settings pg_dump 18 adds for newer servers are left out)', async () => {
    const file = path.join(root, 'backup15.sql.gz')
    await dumpToGzipFile(source15, file)
    const copy = await createDatabase(source15, 'restored_copy')
    await restoreFromGzipFile(copy, file)
    // A database of the same cluster: its roles, authenticator's settings included, are the source's own.
    expect(await snapshot(copy)).toEqual(expected15)
  })

  it.skipIf(!fs.existsSync('/usr/bin/psql'))('writes .sql.gz files that the psql client restores', async () => {
    const file = path.join(root, 'backup17.sql.gz')
    if (!fs.existsSync(file)) await dumpToGzipFile(source17, file)
    const viaPsql = await createDatabase(target17to17, 'via_psql')
    const sql = execFileSync('gunzip', ['-c', file])
    execFileSync('/usr/bin/psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', viaPsql.host, '-p', String(viaPsql.port), '-U', ADMIN_ROLE, '-d', 'via_psql', '-f', '-'], {
      input: sql,
      env: { ...process.env, PGPASSWORD: PASSWORD },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const restored = await snapshot(viaPsql)
    expect(restored.data).toEqual(expected17.data)
    expect(restored.sequences).toEqual(expected17.sequences)
    expect(restored.functions).toEqual(expected17.functions)
    expect(restored.relations).toEqual(expected17.relations)
  })

  it('dumps the schema alone, and the data alone into that schema', async () => {
    const schemaOnly = await readAll(dumpDatabase(source17, { section: 'schema' }))
    expect(schemaOnly).toContain('CREATE TABLE "app"."people"')
    expect(schemaOnly).not.toMatch(/^COPY /m)
    const dataOnly = await readAll(dumpDatabase(source17, { section: 'data' }))
    expect(dataOnly).toMatch(/^COPY "app"\."people"/m)
    expect(dataOnly).not.toContain('CREATE TABLE')
    expect(dataOnly).not.toContain('CREATE ROLE')

    const target = await createDatabase(source17, 'two_steps')
    await restoreDump(target, Readable.from([schemaOnly]))
    await withClient(target, async (client) => {
      expect((await client.query('SELECT count(*)::int AS n FROM app.people')).rows[0].n).toBe(0)
      // A materialized view's rows are data: it waits for the data-only part to be refreshed.
      expect((await client.query(`SELECT ispopulated FROM pg_matviews WHERE matviewname = 'post_counts'`)).rows[0].ispopulated).toBe(false)
    })
    await restoreDump(target, Readable.from([dataOnly]))
    // pg_dump counts the refresh of a materialized view as neither schema nor data (post-data).
    await withClient(target, (client) => client.query('REFRESH MATERIALIZED VIEW app.post_counts'))
    const restored = await snapshot(target)
    expect(restored.data).toEqual(expected17.data)
    expect(restored.sequences).toEqual(expected17.sequences)
  })

  it('stops at the first error, names the statement and its line, and leaves the database as it was', async () => {
    const dump = await readAll(dumpDatabase(source17, { section: 'schema' }))
    // Restoring again over a restored database: the schema exists.
    const error = await restoreDump(target17to17, Readable.from([dump])).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RestoreError)
    const { message, line, statement } = error as RestoreError
    expect(message).toMatch(/^Restore stopped at line \d+: schema "app" already exists/)
    expect(message).toContain('Statement: CREATE SCHEMA "app";')
    expect(statement).toBe('CREATE SCHEMA "app";')
    expect(dump.split('\n')[line - 1]).toBe('CREATE SCHEMA "app";')

    // A failure late in the script rolls back everything before it, even past the BEGIN/COMMIT
    // pg_dump puts around large objects.
    const full = await readAll(dumpDatabase(source17))
    expect(full).toMatch(/^BEGIN;\n[\s\S]*lo_open[\s\S]*^COMMIT;$/m)
    const target = await createDatabase(target17to17, 'rolled_back')
    const broken = full + '\nCREATE TABLE public.last_one (id int);\nSELECT 1 / 0;\n'
    await expect(restoreDump(target, Readable.from([broken]))).rejects.toThrow(/division by zero\nStatement: SELECT 1 \/ 0;$/)
    await withClient(target, async (client) => {
      const { rows } = await client.query(
        `SELECT to_regnamespace('app') AS app, to_regclass('public.last_one') AS last_one, (SELECT count(*)::int FROM pg_largeobject_metadata) AS blobs`,
      )
      expect(rows[0]).toEqual({ app: null, last_one: null, blobs: 0 })
    })
  })

  it('follows \\connect when not in a single transaction, and refuses other psql commands', async () => {
    const first = await createDatabase(target15to17, 'connect_first')
    await createDatabase(target15to17, 'connect_second')
    // Names qualified, as pg_dump writes them: the platform's superuser has only pg_catalog on its path.
    const script = 'CREATE TABLE public.here (id int);\n\\connect -reuse-previous=on "dbname=\'connect_second\'"\nCREATE TABLE public.there (id int);\n'
    await expect(restoreDump(first, Readable.from([script]))).rejects.toThrow(/\\connect cannot be part of a single-transaction restore/)
    await restoreDump(first, Readable.from([script]), { singleTransaction: false })
    const tables = (conn: LogicalConnection) =>
      withClient(conn, async (client) => (await client.query(`SELECT relname FROM pg_class WHERE relname IN ('here', 'there')`)).rows)
    expect(await tables(first)).toEqual([{ relname: 'here' }])
    expect(await tables({ ...first, database: 'connect_second' })).toEqual([{ relname: 'there' }])

    await expect(restoreDump(first, Readable.from(['SELECT 1;\n\\! rm -rf /\n']))).rejects.toThrow(
      /^Restore stopped at line 2: the psql command \\! is not supported\nStatement: \\! rm -rf \/$/,
    )
    await expect(restoreDump(first, Readable.from(['\\restrict abc\n\\connect other\n']))).rejects.toThrow(/restricted/)
  })

  it('fails with the server\'s message when the dump cannot connect or log in', async () => {
    await expect(readAll(dumpDatabase({ ...source17, password: 'wrong' }))).rejects.toThrow(/password authentication failed for user "supabase_admin"/)
    // The same from the WASM pg_dump itself, past the roles query.
    await expect(readAll(runWasmPgDump({ ...source15, password: 'wrong' }, pgDumpArguments()))).rejects.toThrow(
      /^pg_dump failed \(exit code 1\): pg_dump: error: connection to server at "127\.0\.0\.1", port \d+ failed: FATAL: +password authentication failed for user "supabase_admin"/,
    )
    // A failed backup leaves no file behind, not even a partial one.
    const file = path.join(root, 'failed.sql.gz')
    await expect(dumpToGzipFile({ ...source17, password: 'wrong' }, file)).rejects.toThrow(/password authentication failed/)
    expect(fs.readdirSync(root).filter((name) => name.startsWith('failed'))).toEqual([])
    let closed = source17.port + 50
    while (!(await isPortFree(closed))) closed++
    await expect(readAll(dumpDatabase({ ...source17, port: closed }))).rejects.toThrow(/ECONNREFUSED/)
    await expect(readAll(runWasmPgDump({ ...source17, port: closed }, pgDumpArguments()))).rejects.toThrow(/pg_dump could not connect to 127\.0\.0\.1:\d+: .*ECONNREFUSED/)
  })

  it('refuses a backup file that is missing or not gzip, before running anything', async () => {
    const target = await createDatabase(target15to17, 'bad_files')
    await expect(restoreFromGzipFile(target, path.join(root, 'missing.sql.gz'))).rejects.toThrow(/ENOENT/)
    const notGzip = path.join(root, 'plain.sql.gz')
    fs.writeFileSync(notGzip, 'CREATE TABLE should_not_exist (id int);\n')
    await expect(restoreFromGzipFile(target, notGzip)).rejects.toThrow(/^Restore failed before the first statement: incorrect header check/)
    const { rows } = await withClient(target, (client) => client.query(`SELECT to_regclass('should_not_exist') AS t`))
    expect(rows[0].t).toBeNull()
  })

  it('stops pg_dump when the consumer stops reading', async () => {
    const stream = dumpDatabase(source17)
    for await (const _chunk of stream) break // for-await destroys the stream on break
    expect(stream.destroyed).toBe(true)
    // The server sees the dump's session go away.
    await expect.poll(async () => withClient(source17, async (client) => {
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'stratum logical dump'`)
      return rows[0].n
    }), { timeout: 10_000 }).toBe(0)
  })
})
