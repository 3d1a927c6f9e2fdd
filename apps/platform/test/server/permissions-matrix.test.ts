import { AI_SETTINGS_PATH, AI_SETTINGS_TEST_PATH, ORG_ROLES, roleCan, type OrgRole, type Permission } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login, memberWithRole, startTestPlatform, waitForStatus, type TestPlatform } from './harness.js'

/**
 * Every route x every role: mutating routes refuse (403 with a message) the roles the docs/ARCHITECTURE.md
 * table excludes and change nothing; read routes answer every member; outsiders see nothing.
 */
let t: TestPlatform
let orgSlug: string
let ref: string
const tokens = {} as Record<OrgRole | 'outsider', string>

interface RouteCase {
  name: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: () => Promise<string> | string
  body?: () => unknown
  /** null: any member may call it. */
  permission: Permission | null
  /** Bad input that must be refused with a 4xx and write nothing. */
  bad?: Array<{ path?: () => Promise<string> | string; body?: unknown }>
}

/** A fresh developer member to re-role or remove, so each case has its own target. */
async function victimPath(): Promise<string> {
  const victim = await memberWithRole(t, orgSlug, 'developer')
  const { rows } = await t.platform.ctx.db.query('SELECT id FROM users WHERE email = $1', [victim.email])
  return `/platform/organizations/${orgSlug}/members/${rows[0].id}`
}

const endUserEmail = () => `end-${Math.random().toString(36).slice(2)}@example.com`

/** A fresh end user of the project (its auth service), so each delete case has its own. */
async function endUserPath(): Promise<string> {
  const made = await api(t, 'POST', `/platform/auth/${ref}/users`, { token: tokens.owner }, { email: endUserEmail(), email_confirm: true })
  return `/platform/auth/${ref}/users/${made.body.id}`
}

const projectBody = () => ({ name: 'Matrix', organization_slug: orgSlug, db_pass: 'matrix-password-1' })

const ROUTES: RouteCase[] = [
  { name: 'get organization', method: 'GET', path: () => `/platform/organizations/${orgSlug}`, permission: null, bad: [{ path: () => '/platform/organizations/bad%20slug' }] },
  { name: 'list members', method: 'GET', path: () => `/platform/organizations/${orgSlug}/members`, permission: null },
  { name: 'list projects', method: 'GET', path: () => `/platform/projects?organization_slug=${orgSlug}`, permission: null, bad: [{ path: () => '/platform/projects?organization_slug=a%20b' }] },
  { name: 'get project', method: 'GET', path: () => `/platform/projects/${ref}`, permission: null, bad: [{ path: () => '/platform/projects/UPPER' }] },
  { name: 'project status', method: 'GET', path: () => `/platform/projects/${ref}/status`, permission: null, bad: [{ path: () => '/platform/projects/short/status' }] },
  { name: 'v1 project', method: 'GET', path: () => `/v1/projects/${ref}`, permission: null },
  { name: 'auth settings', method: 'GET', path: () => `/v1/projects/${ref}/config/auth`, permission: null, bad: [{ path: () => '/v1/projects/UPPER/config/auth' }] },
  {
    name: 'change auth settings', method: 'PATCH', path: () => `/v1/projects/${ref}/config/auth`, body: () => ({ jwt_exp: 3600 }),
    permission: 'projects.update', bad: [{ body: { jwt_exp: 'soon' } }, { body: { site_url: 'ftp://example.com' } }, { body: { unknown_setting: true } }],
  },
  { name: 'v1 organization', method: 'GET', path: () => `/v1/organizations/${orgSlug}`, permission: null, bad: [{ path: () => '/v1/organizations/bad%20slug' }] },
  { name: 'v1 organization members', method: 'GET', path: () => `/v1/organizations/${orgSlug}/members`, permission: null },
  {
    name: 'v1 organization projects', method: 'GET', path: () => `/v1/organizations/${orgSlug}/projects?limit=10`, permission: null,
    bad: [{ path: () => `/v1/organizations/${orgSlug}/projects?limit=0` }, { path: () => `/v1/organizations/${orgSlug}/projects?sort=size` }],
  },
  {
    name: 'rename project', method: 'PATCH', path: () => `/v1/projects/${ref}`, body: () => ({ name: 'Matrix' }),
    permission: 'projects.update', bad: [{ body: { name: '' } }, { body: {} }, { body: { name: 'x', ref: 'other' } }],
  },
  { name: 'list migrations', method: 'GET', path: () => `/v1/projects/${ref}/database/migrations`, permission: null },
  {
    name: 'apply migration', method: 'POST', path: () => `/v1/projects/${ref}/database/migrations`,
    body: () => ({ name: 'matrix', query: `create table matrix_${Math.random().toString(36).slice(2)} (id int)` }),
    permission: 'sql.write', bad: [{ body: { query: '' } }, { body: { query: 'select 1', name: 5 } }],
  },
  { name: 'storage config', method: 'GET', path: () => `/v1/projects/${ref}/config/storage`, permission: null },
  {
    name: 'change storage config', method: 'PATCH', path: () => `/v1/projects/${ref}/config/storage`, body: () => ({ fileSizeLimit: 5 * 1024 ** 3 }),
    permission: 'projects.update', bad: [{ body: { fileSizeLimit: -1 } }, { body: { features: { s3Protocol: { enabled: true } } } }, { body: { nope: 1 } }],
  },
  { name: 'v1 storage buckets', method: 'GET', path: () => `/v1/projects/${ref}/storage/buckets`, permission: null },
  {
    name: 'list objects', method: 'POST', path: () => `/platform/storage/${ref}/objects/list/matrix`, body: () => ({ prefix: '' }),
    permission: null, bad: [{ body: { limit: 'all' } }, { path: () => `/platform/storage/${ref}/objects/list/no-such-bucket` }],
  },
  {
    name: 'upload object', method: 'POST', path: () => `/platform/storage/${ref}/objects/matrix/file-${Math.random().toString(36).slice(2)}.json`,
    body: () => ({ hello: 'matrix' }), permission: 'sql.write', bad: [{ path: () => `/platform/storage/${ref}/objects/matrix/a/..%2F..%2Fx.json`, body: {} }],
  },
  { name: 'auth outbox', method: 'GET', path: () => `/platform/projects/${ref}/auth/outbox`, permission: 'service_api_keys.read' },
  { name: 'auth users', method: 'GET', path: () => `/platform/auth/${ref}/users`, permission: null, bad: [{ path: () => `/platform/auth/${ref}/users?page=0` }] },
  {
    name: 'create auth user', method: 'POST', path: () => `/platform/auth/${ref}/users`, body: () => ({ email: endUserEmail(), password: 'end-user-password-1', email_confirm: true }),
    permission: 'sql.write', bad: [{ body: { email: 'not-an-email' } }, { body: { email: 'short-password@example.com', password: '1' } }],
  },
  { name: 'invite auth user', method: 'POST', path: () => `/platform/auth/${ref}/invite`, body: () => ({ email: endUserEmail() }), permission: 'sql.write', bad: [{ body: { email: 5 } }] },
  { name: 'send auth recovery', method: 'POST', path: () => `/platform/auth/${ref}/recover`, body: () => ({ email: 'nobody@example.com' }), permission: 'sql.write', bad: [{ body: {} }] },
  {
    name: 'delete auth user', method: 'DELETE', path: endUserPath, permission: 'sql.write',
    bad: [{ path: () => `/platform/auth/${ref}/users/not-a-uuid` }],
  },
  {
    name: 'reset database password', method: 'PATCH', path: () => `/v1/projects/${ref}/database/password`, body: () => ({ password: 'matrix-password-2' }),
    permission: 'projects.update', bad: [{ body: { password: 'short' } }, { body: {} }],
  },
  {
    name: 'rename organization', method: 'PATCH', path: () => `/platform/organizations/${orgSlug}`, body: () => ({ name: 'Renamed' }),
    permission: 'organizations.update', bad: [{ body: { name: '' } }, { body: { name: 'x'.repeat(101) } }, { body: {} }],
  },
  {
    name: 'change plan', method: 'PUT', path: () => `/platform/organizations/${orgSlug}/billing/subscription`, body: () => ({ plan: 'pro' }),
    permission: 'billing.write', bad: [{ body: { plan: 'enterprise' } }, { body: {} }],
  },
  {
    name: 'invite member', method: 'POST', path: () => `/platform/organizations/${orgSlug}/members/invitations`,
    body: () => ({ email: `added-${Math.random().toString(36).slice(2)}@example.com`, role: 'read_only' }),
    permission: 'members.write', bad: [{ body: { email: 'not-an-email', role: 'developer' } }, { body: { email: 'ok@example.com', role: 'god' } }],
  },
  {
    name: 'change member role', method: 'PATCH', path: victimPath, body: () => ({ role: 'read_only' }),
    permission: 'members.write', bad: [{ body: { role: 'superuser' } }, { path: () => `/platform/organizations/${orgSlug}/members/not-a-uuid`, body: { role: 'developer' } }],
  },
  {
    name: 'remove member', method: 'DELETE', path: victimPath, permission: 'members.write',
    bad: [{ path: () => `/platform/organizations/${orgSlug}/members/00000000-0000-4000-8000-000000000000` }],
  },
  {
    name: 'create project', method: 'POST', path: () => '/platform/projects', body: projectBody, permission: 'projects.create',
    bad: [{ body: { ...projectBody(), db_pass: '123' } }, { body: { ...projectBody(), name: '   ' } }, { body: { ...projectBody(), postgres_engine: 14 } }],
  },
  {
    name: 'v1 create project', method: 'POST', path: () => '/v1/projects', body: projectBody, permission: 'projects.create',
    bad: [{ body: { ...projectBody(), region: 'mars-1' } }, { body: { name: 'x' } }],
  },
  // Edge function secrets: names and digests are for those who may read the service key; writing changes what runs.
  { name: 'list function secrets', method: 'GET', path: () => `/v1/projects/${ref}/secrets`, permission: 'service_api_keys.read' },
  {
    name: 'create function secrets', method: 'POST', path: () => `/v1/projects/${ref}/secrets`, body: () => [{ name: 'MATRIX_SECRET', value: 'matrix' }],
    permission: 'sql.write',
    bad: [{ body: [{ name: 'SUPABASE_URL', value: 'x' }] }, { body: [{ name: '1BAD', value: 'x' }] }, { body: { name: 'NOT_A_LIST', value: 'x' } }, { body: [] }],
  },
  {
    name: 'delete function secrets', method: 'DELETE', path: () => `/v1/projects/${ref}/secrets`, body: () => ['MATRIX_SECRET'], permission: 'sql.write',
    bad: [{ body: { name: 'MATRIX_SECRET' } }, { body: [] }],
  },
]

async function snapshot(): Promise<string> {
  const { rows } = await t.platform.ctx.db.query(`SELECT
    (SELECT count(*) FROM projects) AS projects,
    (SELECT count(*) FROM members) AS members,
    (SELECT count(*) FROM users) AS users,
    (SELECT count(*) FROM invitations) AS invitations,
    (SELECT string_agg(user_id || ':' || role, ',' ORDER BY user_id) FROM members) AS roles,
    (SELECT string_agg(name || ':' || plan, ',' ORDER BY id) FROM organizations) AS orgs,
    (SELECT string_agg(project_ref || ':' || name || ':' || value_sha256, ',' ORDER BY project_ref, name) FROM function_secrets) AS function_secrets,
    (SELECT string_agg(provider || ':' || model || ':' || coalesce(api_key_sealed, ''), ',') FROM ai_settings) AS ai_settings`)
  return JSON.stringify(rows[0])
}

/**
 * Installation routes: only the installation's owner (its first account) may call them; no organization
 * role grants them, so every member token and the outsider get 403. In order: the owner's calls build on each other.
 */
const aiSettingsBody = () => ({ provider: 'openai-compatible', model: 'matrix-model', base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-matrix' })
const INSTALLATION_ROUTES: Array<Omit<RouteCase, 'permission'>> = [
  { name: 'AI settings', method: 'GET', path: () => AI_SETTINGS_PATH },
  {
    name: 'save AI settings', method: 'PUT', path: () => AI_SETTINGS_PATH, body: aiSettingsBody,
    bad: [
      { body: { ...aiSettingsBody(), provider: 'gemini' } }, { body: { ...aiSettingsBody(), base_url: null } },
      { body: { ...aiSettingsBody(), base_url: 'ftp://127.0.0.1/v1' } }, { body: { ...aiSettingsBody(), model: 'm'.repeat(201) } },
    ],
  },
  // The model at port 9 refuses the connection: the test answers 200 with ok false and the reason.
  { name: 'test AI settings', method: 'POST', path: () => AI_SETTINGS_TEST_PATH },
  { name: 'reset AI settings', method: 'DELETE', path: () => AI_SETTINGS_PATH },
]

beforeAll(async () => {
  // Organization owners change plans here (billing.write); the installation default, where only the
  // installation's owner does, is tested in invitations.test.ts.
  t = await startTestPlatform({ STRATUM_PLAN_CHANGES: 'organization_owners' })
  const cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, projectBody())
  ref = created.body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
  await api(t, 'POST', `/platform/storage/${ref}/buckets`, { cookie }, { name: 'matrix' })
  for (const role of ORG_ROLES) tokens[role] = (await memberWithRole(t, orgSlug, role)).token
  // An outsider: a member of their own organization only.
  const outsider = await memberWithRole(t, orgSlug, 'owner')
  await t.platform.ctx.db.query(`DELETE FROM members WHERE user_id = (SELECT id FROM users WHERE email = $1)`, [outsider.email])
  tokens.outsider = outsider.token
})
afterAll(() => t?.cleanup())

describe('permission matrix', () => {
  for (const route of ROUTES) {
    for (const role of ORG_ROLES) {
      const allowed = route.permission === null || roleCan(role, route.permission)
      it(`${route.name}: ${role} is ${allowed ? 'allowed' : 'refused'}`, async () => {
        const before = await snapshot()
        const result = await api(t, route.method, await route.path(), { token: tokens[role] }, route.body?.())
        if (allowed) {
          expect(result.status, JSON.stringify(result.body)).toBeGreaterThanOrEqual(200)
          expect(result.status).toBeLessThan(300)
        } else {
          expect(result.status).toBe(403)
          expect(result.body.message).toEqual(expect.any(String))
          // victimPath() adds a member before the call: compare what the call itself could change.
          if (route.method !== 'PATCH' && route.method !== 'DELETE') expect(await snapshot()).toBe(before)
        }
      })
    }
    it(`${route.name}: an outsider gets 404`, async () => {
      const result = await api(t, route.method, await route.path(), { token: tokens.outsider }, route.body?.())
      if (route.name === 'list projects') {
        // Filtering by someone else's organization finds nothing.
        expect(result.status).toBe(200)
        expect(result.body).toEqual([])
      } else {
        expect(result.status).toBe(404)
      }
      expect(result.status).not.toBe(500)
    })
    for (const [index, bad] of (route.bad ?? []).entries()) {
      it(`${route.name}: bad input #${index + 1} gets a 4xx with a message and writes nothing`, async () => {
        const path = bad.path ? await bad.path() : await route.path()
        const before = await snapshot()
        const result = await api(t, route.method, path, { token: tokens.owner }, bad.body)
        expect(result.status, JSON.stringify(result.body)).toBeGreaterThanOrEqual(400)
        expect(result.status).toBeLessThan(500)
        expect(result.body.message).toEqual(expect.any(String))
        expect(await snapshot()).toBe(before)
      })
    }
  }

  it('lets a Read-only member change nothing at all', async () => {
    const before = await snapshot()
    for (const route of ROUTES.filter((r) => r.method !== 'GET' && r.method !== 'PATCH' && r.method !== 'DELETE' && r.permission !== null)) {
      const result = await api(t, route.method, await route.path(), { token: tokens.read_only }, route.body?.())
      expect(result.status, route.name).toBe(403)
    }
    expect(await snapshot()).toBe(before)
  })

  it('reports each role its permissions', async () => {
    for (const role of ORG_ROLES) {
      const result = await api(t, 'GET', '/platform/profile/permissions', { token: tokens[role] })
      const entry = result.body.find((p: { organization_slug: string }) => p.organization_slug === orgSlug)
      expect(entry.role).toBe(role)
      expect(entry.permissions.includes('sql.write')).toBe(roleCan(role, 'sql.write'))
    }
  })
})

describe('installation routes: the installation owner only', () => {
  let installationOwner: { cookie: string }
  beforeAll(async () => {
    installationOwner = { cookie: await login(t) }
  })
  for (const route of INSTALLATION_ROUTES) {
    it(`${route.name}: every organization role and an outsider get 403 and change nothing`, async () => {
      const before = await snapshot()
      for (const caller of [...ORG_ROLES, 'outsider'] as const) {
        const result = await api(t, route.method, await route.path(), { token: tokens[caller] }, route.body?.())
        expect(result.status, caller).toBe(403)
        expect(result.body.message).toEqual(expect.any(String))
      }
      expect(await snapshot()).toBe(before)
    })
    it(`${route.name}: the installation's owner is allowed`, async () => {
      const result = await api(t, route.method, await route.path(), installationOwner, route.body?.())
      expect(result.status, JSON.stringify(result.body)).toBe(200)
    })
    for (const [index, bad] of (route.bad ?? []).entries()) {
      it(`${route.name}: bad input #${index + 1} gets a 400 with a message and writes nothing`, async () => {
        const before = await snapshot()
        const result = await api(t, route.method, await route.path(), installationOwner, bad.body)
        expect(result.status, JSON.stringify(result.body)).toBe(400)
        expect(result.body.message).toEqual(expect.any(String))
        expect(await snapshot()).toBe(before)
      })
    }
  }
})
