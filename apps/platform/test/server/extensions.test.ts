import type { Extension, OrgRole } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withAdminClient } from '../../src/control/bootstrap-roles.js'
import { api, login, memberWithRole, startTestPlatform, waitForStatus, type Caller, type TestPlatform } from './harness.js'

/**
 * Database > Extensions: the listing, enabling and disabling through the platform (as its
 * superuser, within the deny list of control/extension-policy.ts), on Postgres 15 and 17; and
 * Postgres's own rule for SQL: trusted extensions only.
 */

/** Refused on both majors, with a word their reason must contain. */
const REFUSED: Array<[string, RegExp]> = [
  ['dblink', /connections to other databases/],
  ['postgres_fdw', /connections to other databases/],
  ['file_fdw', /files and the output of programs/],
  ['plperlu', /untrusted language/],
  ['plpython3u', /untrusted language/],
  ['pltclu', /untrusted language/],
  ['hstore_plperlu', /requires plperlu/],
  ['jsonb_plpython3u', /requires plpython3u/],
  ['pageinspect', /raw table pages/],
  ['pg_walinspect', /write-ahead log/],
  ['pg_surgery', /heap tuples/],
]

const WRITE_DENIED = 'You do not have sufficient permissions to run queries that write to this database'

let t: TestPlatform
let cookie: string
let orgSlug: string
const members = new Map<OrgRole, Caller>()

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  for (const role of ['developer', 'read_only'] as const) {
    const member = await memberWithRole(t, orgSlug, role)
    members.set(role, { token: member.token, origin: null })
  }
})
afterAll(() => t?.cleanup())

describe.each(['15', '17'] as const)('extensions on Postgres %s', (major) => {
  let ref: string
  const path = () => `/platform/pg-meta/${ref}/extensions`
  const developer = () => members.get('developer')!
  const readOnly = () => members.get('read_only')!

  const list = async (caller: Caller = { cookie }) => {
    const result = await api<Extension[]>(t, 'GET', path(), caller)
    expect(result.status).toBe(200)
    return result.body
  }
  const one = async (name: string) => (await list()).find((extension) => extension.name === name)!
  const sql = (query: string, caller: Caller = { cookie }) => api(t, 'POST', `/platform/pg-meta/${ref}/query`, caller, { query, read_only: false })
  /** Who owns an installed extension, read as the platform's superuser. */
  const ownerOf = async (name: string) => {
    const row = (await t.platform.ctx.db.query('SELECT * FROM projects WHERE ref = $1', [ref])).rows[0]
    return withAdminClient(t.platform.ctx.projects.adminConnection(row), async (client) => {
      const { rows } = await client.query<{ owner: string }>('SELECT extowner::regrole::text AS owner FROM pg_extension WHERE extname = $1', [name])
      return rows[0]?.owner ?? null
    })
  }

  beforeAll(async () => {
    const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: `Extensions ${major}`, organization_slug: orgSlug, db_pass: 'extension-password-1', postgres_engine: major })
    expect(created.status).toBe(201)
    ref = created.body.ref
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  })

  it('lists every extension the server ships in the field shape, the refused ones flagged with their reason', async () => {
    const extensions = await list()
    expect(extensions.length).toBeGreaterThan(50)
    const pgcrypto = extensions.find((extension) => extension.name === 'pgcrypto')!
    expect(pgcrypto).toEqual({
      name: 'pgcrypto',
      schema: null,
      default_version: expect.stringMatching(/^\d+\.\d+$/),
      installed_version: null,
      comment: 'cryptographic functions',
      allowed: true,
      reason: null,
      trusted: true,
      required_schema: null,
    })
    const plpgsql = extensions.find((extension) => extension.name === 'plpgsql')!
    expect(plpgsql).toMatchObject({ schema: 'pg_catalog', installed_version: '1.0', allowed: true, required_schema: 'pg_catalog' })
    for (const [name, reason] of REFUSED) {
      const refused = extensions.find((extension) => extension.name === name)
      expect(refused, name).toMatchObject({ allowed: false, installed_version: null })
      expect(refused!.reason, name).toMatch(reason)
    }
    // Each listed extension has a reason exactly when it is refused, and nothing refused is trusted.
    for (const extension of extensions) {
      expect(extension.reason === null, extension.name).toBe(extension.allowed)
      if (!extension.allowed) expect(extension.trusted, extension.name).toBe(false)
    }
    const names = extensions.map((extension) => extension.name)
    if (major === '15') {
      expect(names).toContain('adminpack')
      expect(extensions.find((extension) => extension.name === 'adminpack')).toMatchObject({ allowed: false, reason: expect.stringMatching(/files/) })
      expect(extensions.find((extension) => extension.name === 'old_snapshot')).toMatchObject({ allowed: true })
    } else {
      expect(names).not.toContain('adminpack')
    }
    // Read-only members see the same list.
    expect(await list(readOnly())).toEqual(extensions)
  })

  it('enables pgcrypto into the extensions schema, owned by postgres, and disables it', async () => {
    const enabled = await api<Extension>(t, 'POST', path(), developer(), { name: 'pgcrypto' })
    expect(enabled.status).toBe(201)
    expect(enabled.headers.get('content-type')).toContain('application/json')
    expect(enabled.body).toMatchObject({ name: 'pgcrypto', schema: 'extensions', installed_version: enabled.body.default_version, allowed: true })
    expect(await ownerOf('pgcrypto')).toBe('postgres')
    const hashed = await sql(`select extensions.crypt('secret', extensions.gen_salt('bf')) like '$2a$%' as ok`, developer())
    expect(hashed.body.results[0].rows).toEqual([{ ok: true }])

    const disabled = await api<Extension>(t, 'DELETE', `${path()}?id=pgcrypto`, developer())
    expect(disabled.status).toBe(200)
    expect(disabled.body).toMatchObject({ name: 'pgcrypto', schema: 'extensions' })
    expect(await one('pgcrypto')).toMatchObject({ schema: null, installed_version: null })
    expect(await ownerOf('pgcrypto')).toBeNull()
  })

  it('enables an untrusted but allowed extension as the platform, usable by postgres, and disables it by path', async () => {
    const enabled = await api<Extension>(t, 'POST', path(), { cookie }, { name: 'pgstattuple', schema: 'public' })
    expect(enabled.status).toBe(201)
    expect(enabled.body).toMatchObject({ schema: 'public', trusted: false })
    expect(await ownerOf('pgstattuple')).toBe('supabase_admin')
    const stats = await sql(`create table measured(id int); select tuple_count::int from public.pgstattuple('measured')`, developer())
    expect(stats.status).toBe(201)
    expect(stats.body.results.at(-1).rows).toEqual([{ tuple_count: 0 }])
    // From SQL, postgres cannot drop what the platform created; the route can.
    const dropBySql = await sql('drop extension pgstattuple', developer())
    expect(dropBySql.status).toBe(400)
    expect(dropBySql.body.error.code).toBe('42501')
    const disabled = await api(t, 'DELETE', `${path()}/pgstattuple`, developer())
    expect(disabled.status).toBe(200)
    expect((await one('pgstattuple')).installed_version).toBeNull()
  })

  it('enables what an extension requires only with cascade', async () => {
    const without = await api(t, 'POST', path(), { cookie }, { name: 'earthdistance' })
    expect(without.status).toBe(400)
    expect(without.body.message).toMatch(/required extension "cube" is not installed/)
    const withCascade = await api(t, 'POST', path(), { cookie }, { name: 'earthdistance', cascade: true })
    expect(withCascade.status).toBe(201)
    expect(await one('cube')).toMatchObject({ schema: 'extensions', installed_version: expect.any(String) })
    expect((await api(t, 'DELETE', `${path()}?id=earthdistance`, { cookie })).status).toBe(200)
    expect((await api(t, 'DELETE', `${path()}?id=cube`, { cookie })).status).toBe(200)
  })

  it('drops dependent objects only with cascade', async () => {
    expect((await api(t, 'POST', path(), { cookie }, { name: 'hstore' })).status).toBe(201)
    expect((await sql(`create table tagged(id int, tags extensions.hstore)`)).status).toBe(201)
    const restricted = await api(t, 'DELETE', `${path()}?id=hstore`, { cookie })
    expect(restricted.status).toBe(400)
    expect(restricted.body.message).toMatch(/other objects depend on it/)
    const cascaded = await api(t, 'DELETE', `${path()}?id=hstore&cascade=true`, { cookie })
    expect(cascaded.status).toBe(200)
    const columns = await sql(`select column_name from information_schema.columns where table_name = 'tagged' order by 1`)
    expect(columns.body.results[0].rows).toEqual([{ column_name: 'id' }])
  })

  it('refuses every extension of the deny list with 403 and its reason, even with cascade', async () => {
    const refused = major === '15' ? [...REFUSED, ['adminpack', /files/] as [string, RegExp]] : REFUSED
    for (const [name, reason] of refused) {
      for (const cascade of [false, true]) {
        const result = await api(t, 'POST', path(), { cookie }, { name, cascade })
        expect(result.status, name).toBe(403)
        expect(result.body.message, name).toMatch(new RegExp(`^Extension ${name} cannot be enabled on this platform: `))
        expect(result.body.message, name).toMatch(reason)
      }
    }
    const installed = (await list()).filter((extension) => extension.installed_version !== null).map((extension) => extension.name)
    expect(installed).toEqual(['plpgsql'])
  })

  it('lets a Read-only member list but neither enable nor disable', async () => {
    expect((await api(t, 'POST', path(), { cookie }, { name: 'citext' })).status).toBe(201)
    const enable = await api(t, 'POST', path(), readOnly(), { name: 'pg_trgm' })
    expect(enable.status).toBe(403)
    expect(enable.body.message).toBe(WRITE_DENIED)
    // Permission comes before validation: an invalid body says nothing more.
    expect((await api(t, 'POST', path(), readOnly(), { name: 42 })).status).toBe(403)
    for (const url of [`${path()}?id=citext`, `${path()}/citext`]) {
      const disable = await api(t, 'DELETE', url, readOnly())
      expect(disable.status, url).toBe(403)
      expect(disable.body.message).toBe(WRITE_DENIED)
    }
    expect((await one('pg_trgm')).installed_version).toBeNull()
    expect((await one('citext')).installed_version).not.toBeNull()
    expect((await api(t, 'DELETE', `${path()}/citext`, developer())).status).toBe(200)
    // Without a session or token: 401.
    expect((await api(t, 'GET', path(), { origin: null })).status).toBe(401)
  })

  it('answers bad input and unknown extensions with a 4xx and a message', async () => {
    const post = (body: unknown) => api(t, 'POST', path(), { cookie }, body)
    const cases: Array<[unknown, number, RegExp]> = [
      [{}, 400, /^Extension name is required$/],
      [{ name: '' }, 400, /cannot be empty/],
      [{ name: 'pgcrypto; drop table x' }, 400, /letters, digits/],
      [{ name: 'x'.repeat(64) }, 400, /at most 63/],
      [{ name: 'pgcrypto', schema: '' }, 400, /Schema names cannot be empty/],
      [{ name: 'pgcrypto', schema: 'a\u0000b' }, 400, /NUL|null|invalid/i],
      [{ name: 'pgcrypto', version: "1.3' cascade" }, 400, /version may only hold/],
      [{ name: 'pgcrypto', cascade: 'yes' }, 400, /cascade must be true or false/],
      ['{"name": ', 400, /./],
      [{ name: 'no_such_extension' }, 404, /^Extension no_such_extension is not available on this project's Postgres server$/],
      [{ name: 'pgcrypto', schema: 'no_such_schema' }, 400, /^Schema no_such_schema does not exist$/],
      [{ name: 'pgcrypto', schema: 'auth' }, 400, /cannot create objects in schema auth/],
      [{ name: 'pgcrypto', schema: 'pg_catalog' }, 400, /cannot create objects in schema pg_catalog/],
      [{ name: 'pgcrypto', version: '9.9' }, 400, /version "9.9"/],
      [{ name: 'pltcl', schema: 'public' }, 400, /^Extension pltcl is always installed in schema pg_catalog$/],
      [{ name: 'plpgsql' }, 409, /^Extension plpgsql is already enabled \(version 1.0 in schema pg_catalog\)$/],
    ]
    for (const [body, status, message] of cases) {
      const result = await post(body)
      expect(result.status, JSON.stringify(body)).toBe(status)
      expect(result.body.message, JSON.stringify(body)).toMatch(message)
    }
    const del = (url: string) => api(t, 'DELETE', url, { cookie })
    const deletes: Array<[string, number, RegExp]> = [
      [path(), 400, /^id is required/],
      [`${path()}?id=pgcrypto&cascade=maybe`, 400, /cascade must be true or false/],
      [`${path()}?id=bad%20name`, 400, /letters, digits/],
      [`${path()}/no_such_extension`, 404, /not available/],
      [`${path()}?id=pgcrypto`, 404, /^Extension pgcrypto is not enabled$/],
      [`${path()}/plpgsql`, 400, /^plpgsql is part of every database and cannot be disabled$/],
      [`/platform/pg-meta/NOT-A-REF/extensions?id=pgcrypto`, 400, /ref/i],
      [`/platform/pg-meta/${'z'.repeat(20)}/extensions?id=pgcrypto`, 404, /not found/],
    ]
    for (const [url, status, message] of deletes) {
      const result = await del(url)
      expect(result.status, url).toBe(status)
      expect(result.body.message, url).toMatch(message)
    }
    expect((await api(t, 'GET', `/platform/pg-meta/${'z'.repeat(20)}/extensions`, { cookie })).status).toBe(404)
    // Nothing was enabled by any of it.
    const installed = (await list()).filter((extension) => extension.installed_version !== null).map((extension) => extension.name)
    expect(installed).toEqual(['plpgsql'])
  })

  it('lets postgres create trusted extensions straight from SQL, and drop them', async () => {
    const created = await sql('CREATE EXTENSION hstore', developer())
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const used = await sql(`select ('a=>1'::hstore) -> 'a' as a`, developer())
    expect(used.body.results[0].rows).toEqual([{ a: '1' }])
    expect(await one('hstore')).toMatchObject({ schema: 'public', installed_version: expect.any(String) })
    expect(await ownerOf('hstore')).toBe('postgres')
    expect((await sql('DROP EXTENSION hstore', developer())).status).toBe(201)
    // pgcrypto into the extensions schema, as Supabase projects do it.
    expect((await sql('CREATE EXTENSION pgcrypto SCHEMA extensions')).status).toBe(201)
    expect((await api(t, 'DELETE', `${path()}?id=pgcrypto`, { cookie })).status).toBe(200)
  })

  it('keeps the allowed extensions that touch files or code away from the host', async () => {
    for (const name of ['xml2', 'dict_xsyn', 'pg_prewarm']) expect((await api(t, 'POST', path(), { cookie }, { name })).status, name).toBe(201)
    // xml2: an XSLT document() read and an external entity give nothing of the file.
    const xslt = await sql(
      `select extensions.xslt_process('<a/>', '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><xsl:copy-of select="document(''/etc/passwd'')"/></xsl:template></xsl:stylesheet>')`,
      developer(),
    )
    expect(JSON.stringify(xslt.body)).not.toMatch(/root:/)
    const entity = await sql(`select extensions.xpath_string('<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>', '/a') as text`, developer())
    expect(entity.body.results[0].rows).toEqual([{ text: '' }])
    // dict_xsyn reads rule files by bare name from the server's share directory only.
    const rules = await sql(`create text search dictionary escape_xsyn (template = extensions.xsyn_template, rules = '../../../../etc/passwd')`, developer())
    expect(rules.status).toBe(400)
    expect(rules.body.message).toMatch(/invalid text search configuration file name/)
    // pg_prewarm asks for SELECT on what it loads.
    const prewarm = await sql(`select extensions.pg_prewarm('pg_authid')`, developer())
    expect(prewarm.body.error.code).toBe('42501')
    // pltcl runs in Tcl's safe interpreter (when the host has Tcl for it to load at all).
    const pltcl = await api(t, 'POST', path(), { cookie }, { name: 'pltcl' })
    if (pltcl.status === 201) {
      await sql(`create function tcl_exec() returns text language pltcl as $$ return [exec id] $$`, developer())
      const exec = await sql('select tcl_exec()', developer())
      expect(exec.body.message).toMatch(/invalid command name "exec"/)
      expect((await api(t, 'DELETE', `${path()}/pltcl?cascade=true`, { cookie })).status).toBe(200)
    } else {
      expect(pltcl.body.message).toMatch(/could not load library/)
    }
    for (const name of ['xml2', 'dict_xsyn', 'pg_prewarm']) expect((await api(t, 'DELETE', `${path()}/${name}`, { cookie })).status, name).toBe(200)
  })

  it('leaves untrusted extensions to Postgres\'s refusal from SQL', async () => {
    for (const name of ['dblink', 'postgres_fdw', 'pgstattuple']) {
      const result = await sql(`CREATE EXTENSION ${name}`)
      expect(result.status, name).toBe(400)
      expect(result.body.error.code, name).toBe('42501')
      expect(result.body.message, name).toMatch(new RegExp(`permission denied to create extension "${name}"`))
    }
    expect((await one('dblink')).installed_version).toBeNull()
  })
})
