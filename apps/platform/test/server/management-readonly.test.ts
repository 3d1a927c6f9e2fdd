import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MANAGEMENT_SURFACE, type SurfacePair } from '../../src/http/management-surface.js'
import { ADMIN_EMAIL, api, memberWithRole, startTestPlatform, tokenFor, waitForStatus, type TestPlatform } from './harness.js'

/*
 * The whole claimed Management API surface (http/management-surface.ts) against two promises of the
 * Management API issue: a Read-only member's token gets 403 on every mutating /v1 route (with a body
 * that would otherwise be accepted, so the refusal is the permission's, not the input's) and nothing
 * changes; bad input on every route gets a 4xx with {message}, never a 5xx.
 */
let t: TestPlatform
let ownerToken: string
let readOnlyToken: string
let slug: string
let ref: string

/** Mutations a Read-only member may make by design, and why. */
const OPEN_TO_EVERY_MEMBER = new Map<string, string>([
  // Anyone may create an organization of their own (installation settings permitting); it is not the org they read.
  ['POST /v1/organizations', 'creates an organization of the caller'],
  // Runs in a read-only transaction: it cannot change anything.
  ['POST /v1/projects/{ref}/database/query/read-only', 'read-only by construction'],
])

/** A body each mutating route would accept from an allowed caller. */
function bodyFor(pair: SurfacePair): unknown {
  const key = `${pair.method} ${pair.path}`
  const bodies: Record<string, unknown> = {
    'POST /v1/projects': { name: 'Not allowed', organization_slug: slug, db_pass: 'not-allowed-password-1' },
    'PATCH /v1/projects/{ref}': { name: 'Renamed by read-only' },
    'POST /v1/projects/{ref}/upgrade': { target_version: '17' },
    'POST /v1/projects/{ref}/database/query': { query: 'create table read_only_was_here (id int)' },
    'POST /v1/projects/{ref}/database/migrations': { name: 'read_only_migration', query: 'create table read_only_migration (id int)' },
    'PUT /v1/projects/{ref}/database/migrations': { name: 'read_only_migration', query: 'create table read_only_migration (id int)' },
    'PATCH /v1/projects/{ref}/database/migrations/{version}': { name: 'renamed' },
    'PATCH /v1/projects/{ref}/database/password': { password: 'read-only-new-password-1' },
    'PUT /v1/projects/{ref}/config/database/postgres': { statement_timeout: '3min' },
    'PUT /v1/projects/{ref}/ssl-enforcement': { requestedConfig: { database: true } },
    'PATCH /v1/projects/{ref}/network-restrictions': { add: { dbAllowedCidrs: ['10.0.0.0/8'] } },
    'POST /v1/projects/{ref}/network-restrictions/apply': { dbAllowedCidrs: ['10.0.0.0/8'] },
    'POST /v1/projects/{ref}/api-keys': { type: 'secret', name: 'read_only_key' },
    'PATCH /v1/projects/{ref}/api-keys/{id}': { name: 'renamed_key' },
    'POST /v1/projects/{ref}/secrets': [{ name: 'READ_ONLY_SECRET', value: 'x' }],
    'DELETE /v1/projects/{ref}/secrets': ['SOME_SECRET'],
    'PATCH /v1/projects/{ref}/config/auth': { site_url: 'https://read-only.example.com' },
    'PATCH /v1/projects/{ref}/postgrest': { max_rows: 5 },
    'PATCH /v1/projects/{ref}/config/storage': { fileSizeLimit: 1024 },
    'POST /v1/projects/{ref}/branches': { branch_name: 'read-only' },
    'PATCH /v1/branches/{branch_id_or_ref}': { persistent: true },
    'POST /v1/branches/{branch_id_or_ref}/merge': {},
    'POST /v1/branches/{branch_id_or_ref}/push': {},
    'POST /v1/branches/{branch_id_or_ref}/reset': {},
    'PATCH /v1/projects/{ref}/billing/addons': { addon_type: 'pitr', addon_variant: 'pitr_7' },
    'POST /v1/projects/{ref}/database/backups/restore-pitr': { recovery_time_target_unix: 1 },
  }
  return bodies[key]
}

/** The path with its placeholders filled (a project, an org, a plausible id). */
function fill(path: string, values: Record<string, string>): string {
  return path.replace(/\{([a-z_]+)\}/g, (_all, name: string) => values[name] ?? 'x')
}

/** What the projects, keys, secrets and settings look like: a refused call must leave it as it was. */
async function snapshot() {
  const db = t.platform.ctx.db
  const rows = await Promise.all([
    db.query('SELECT ref, name, status, postgres_config, db_allowed_cidrs, ssl_enforced FROM projects ORDER BY ref'),
    db.query('SELECT project_ref, name, type FROM project_named_keys ORDER BY 1, 2'),
    db.query('SELECT project_ref, name FROM function_secrets ORDER BY 1, 2'),
    db.query('SELECT slug, name FROM organizations ORDER BY 1'),
    db.query('SELECT project_ref, legacy_enabled FROM project_api_keys ORDER BY 1'),
  ])
  return JSON.stringify(rows.map((result) => result.rows))
}

beforeAll(async () => {
  t = await startTestPlatform()
  ownerToken = await tokenFor(t, ADMIN_EMAIL)
  slug = (await api(t, 'GET', '/v1/organizations', { token: ownerToken })).body[0].slug
  const created = await api(t, 'POST', '/v1/projects', { token: ownerToken }, { name: 'Surface', organization_slug: slug, db_pass: 'surface-password-1' })
  ref = created.body.ref
  await waitForStatus(t, ref, { token: ownerToken }, 'ACTIVE_HEALTHY', 60_000)
  readOnlyToken = (await memberWithRole(t, slug, 'read_only')).token
  // Branching enabled on the project: the branch routes then find its production branch (by the project's ref) and
  // reach their permission check.
  expect((await api(t, 'PUT', `/platform/organizations/${slug}/billing/subscription`, { token: ownerToken }, { plan: 'pro' })).status).toBe(200)
  expect((await api(t, 'POST', `/v1/projects/${ref}/branches`, { token: ownerToken }, { branch_name: 'main', is_default: true })).status).toBe(201)
}, 120_000)
afterAll(() => t?.cleanup())

describe('the claimed Management API surface', () => {
  const mutating = MANAGEMENT_SURFACE.filter((pair) => pair.method !== 'GET')
  const values = () => ({ ref, slug, version: '20240101000000', id: crypto.randomUUID(), function_slug: 'hello', branch_id_or_ref: ref, addon_variant: 'pitr_7', name: 'main' })

  it('refuses every mutating route to a Read-only member with 403 and {message}, changing nothing', async () => {
    const before = await snapshot()
    const checked: string[] = []
    for (const pair of mutating) {
      const key = `${pair.method} ${pair.path}`
      if (OPEN_TO_EVERY_MEMBER.has(key)) continue
      const answer = await api(t, pair.method, fill(pair.path, values()), { token: readOnlyToken }, bodyFor(pair))
      expect(answer.status, key).toBe(403)
      expect(answer.body, key).toHaveProperty('message')
      checked.push(key)
    }
    expect(await snapshot()).toBe(before)
    expect(checked.length).toBe(mutating.length - OPEN_TO_EVERY_MEMBER.size)
  })

  it('answers bad input on every claimed route with a 4xx and {message}, never a 5xx', async () => {
    const problems: string[] = []
    for (const pair of MANAGEMENT_SURFACE) {
      const key = `${pair.method} ${pair.path}`
      // Bad input of three kinds, none of which may act on the real project: a malformed ref, slug or id (every route);
      // a body of the wrong shape (routes that take one); a query string of nonsense (reads only).
      const attempts = [
        { path: fill(pair.path, { ...values(), ref: 'NOT-A-REF', slug: 'no slug', version: 'v1', id: 'not-an-id', function_slug: '../x' }), body: bodyFor(pair) },
        ...(bodyFor(pair) === undefined ? [] : [{ path: fill(pair.path, values()), body: { definitely: ['not', 'a', 'valid', 'body'] } }]),
        ...(pair.method === 'GET' ? [{ path: `${fill(pair.path, values())}?limit=-1&reveal=perhaps&services=nothing&sql=&cursor=%00`, body: undefined }] : []),
      ]
      for (const attempt of attempts) {
        const answer = await api(t, pair.method, attempt.path, { token: ownerToken }, attempt.body)
        if (answer.status >= 500) problems.push(`${key} ${attempt.path}: ${answer.status} ${JSON.stringify(answer.body)}`)
        else if (answer.status >= 400 && !(answer.body && typeof answer.body === 'object' && 'message' in answer.body)) {
          problems.push(`${key} ${attempt.path}: ${answer.status} without a message`)
        }
      }
    }
    expect(problems).toEqual([])
  })
})
