import { jwtVerify, decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login, memberWithRole, startTestPlatform, type TestPlatform } from './harness.js'

let t: TestPlatform
let cookie: string
let ref: string
let developer: string
let readOnly: string
let admin: string

const secretOf = (secret: string) => new TextEncoder().encode(secret)

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Keys', organization_slug: slug, db_pass: 'keys-password-1' })
  ref = created.body.ref
  developer = (await memberWithRole(t, slug, 'developer')).token
  readOnly = (await memberWithRole(t, slug, 'read_only')).token
  admin = (await memberWithRole(t, slug, 'administrator')).token
})
afterAll(() => t?.cleanup())

describe('API keys and the JWT secret', () => {
  it('signs anon and service_role keys (HS256) with the project secret, stored sealed', async () => {
    const settings = await api(t, 'GET', `/platform/projects/${ref}/settings`, { cookie })
    expect(settings.status).toBe(200)
    expect(settings.headers.get('content-type')).toContain('application/json')
    const { jwt_secret, service_api_keys, app_config } = settings.body
    expect(jwt_secret.length).toBeGreaterThanOrEqual(32)
    expect(app_config).toEqual({ endpoint: expect.stringContaining(`/projects/${ref}`), protocol: 'http', db_schema: 'public' })
    expect(service_api_keys.map((k: { tags: string }) => k.tags)).toEqual(['anon', 'service_role'])
    const nowSeconds = Date.now() / 1000
    for (const key of service_api_keys) {
      expect(decodeProtectedHeader(key.api_key)).toMatchObject({ alg: 'HS256', typ: 'JWT' })
      const { payload } = await jwtVerify(key.api_key, secretOf(jwt_secret), { issuer: 'stratum', algorithms: ['HS256'] })
      expect(payload).toMatchObject({ iss: 'stratum', ref, role: key.tags })
      expect(payload.iat).toBeLessThanOrEqual(nowSeconds + 1)
      expect(payload.exp! - nowSeconds).toBeGreaterThan(5 * 365 * 24 * 3600)
    }
    // A key signed with another secret does not verify.
    await expect(jwtVerify(service_api_keys[0].api_key, secretOf('x'.repeat(40)))).rejects.toThrow()
    // Stable across calls, and nothing readable in the platform database.
    const again = await api(t, 'GET', `/platform/projects/${ref}/settings`, { cookie })
    expect(again.body.jwt_secret).toBe(jwt_secret)
    const { rows } = await t.platform.ctx.db.query('SELECT * FROM project_api_keys WHERE project_ref = $1', [ref])
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows[0])).not.toContain(jwt_secret)
    expect(JSON.stringify(rows[0])).not.toContain(service_api_keys[1].api_key)
  })

  it('lists the keys in the Management API shape; the service key only for roles that may read it', async () => {
    const owner = await api(t, 'GET', `/v1/projects/${ref}/api-keys`, { cookie })
    expect(owner.status).toBe(200)
    expect(owner.body).toHaveLength(2)
    expect(owner.body[0]).toMatchObject({ name: 'anon', id: 'anon', type: 'legacy', hash: null, prefix: null, description: 'Legacy anon API key' })
    expect(owner.body[1]).toMatchObject({ name: 'service_role', id: 'service_role', type: 'legacy' })
    const settings = (await api(t, 'GET', `/platform/projects/${ref}/settings`, { cookie })).body
    expect(owner.body.map((k: { api_key: string }) => k.api_key)).toEqual(settings.service_api_keys.map((k: { api_key: string }) => k.api_key))

    for (const reveal of ['true', 'false']) {
      const revealed = await api(t, 'GET', `/v1/projects/${ref}/api-keys?reveal=${reveal}`, { token: admin })
      expect(revealed.body.map((k: { name: string }) => k.name)).toEqual(['anon', 'service_role'])
    }
    for (const token of [developer, readOnly]) {
      const listed = await api(t, 'GET', `/v1/projects/${ref}/api-keys?reveal=true`, { token })
      expect(listed.status).toBe(200)
      expect(listed.body).toEqual([owner.body[0]])
      const config = await api(t, 'GET', `/platform/projects/${ref}/settings`, { token })
      expect(config.status).toBe(200)
      expect(config.body.jwt_secret).toBeUndefined()
      expect(config.body.service_api_keys).toEqual([{ api_key: owner.body[0].api_key, name: 'anon', tags: 'anon' }])
      expect(JSON.stringify(config.body)).not.toContain(settings.jwt_secret)
    }
    const bad = await api(t, 'GET', `/v1/projects/${ref}/api-keys?reveal=yes`, { cookie })
    expect(bad).toMatchObject({ status: 400, body: { message: 'reveal must be true or false' } })
  })

  it('answers 404 to non-members and for unknown projects, 400 for a malformed ref', async () => {
    expect((await api(t, 'GET', `/v1/projects/${'z'.repeat(20)}/api-keys`, { cookie })).status).toBe(404)
    expect((await api(t, 'GET', `/platform/projects/ABC/settings`, { cookie })).body).toEqual({ message: 'Project ref must be 20 lowercase letters' })
    expect((await api(t, 'GET', `/v1/projects/${ref}/api-keys`, {})).status).toBe(401)
  })

  it('toggles legacy keys with string booleans, for secrets.write only', async () => {
    expect((await api(t, 'GET', `/v1/projects/${ref}/api-keys/legacy`, { token: readOnly })).body).toEqual({ enabled: true })

    for (const token of [developer, readOnly]) {
      const denied = await api(t, 'PUT', `/v1/projects/${ref}/api-keys/legacy?enabled=false`, { token })
      expect(denied).toMatchObject({ status: 403, body: { message: 'You need additional permissions to change the secrets of this project' } })
    }
    const disabled = await api(t, 'PUT', `/v1/projects/${ref}/api-keys/legacy?enabled=false`, { token: admin })
    expect(disabled).toMatchObject({ status: 200, body: { enabled: false } })
    expect((await api(t, 'GET', `/v1/projects/${ref}/api-keys/legacy`, { cookie })).body).toEqual({ enabled: false })

    for (const query of ['', '?enabled=', '?enabled=1', '?enabled=TRUE', '?enabled=yes']) {
      const bad = await api(t, 'PUT', `/v1/projects/${ref}/api-keys/legacy${query}`, { cookie })
      expect(bad).toMatchObject({ status: 400, body: { message: 'enabled must be true or false' } })
    }
    expect((await api(t, 'GET', `/v1/projects/${ref}/api-keys/legacy`, { cookie })).body).toEqual({ enabled: false })

    const reenabled = await api(t, 'POST', `/v1/projects/${ref}/api-keys/legacy?enabled=true`, { cookie })
    expect(reenabled).toMatchObject({ status: 200, body: { enabled: true } })
    expect((await api(t, 'GET', `/v1/projects/${ref}/api-keys/legacy`, { cookie })).body).toEqual({ enabled: true })
  })

  it('does not invent last-used times: no gateway serves the keys yet', async () => {
    const lastUsed = await api(t, 'GET', `/platform/projects/${ref}/api-keys/last-used`, { token: readOnly })
    expect(lastUsed).toMatchObject({ status: 200, body: { anon: null, service_role: null } })
  })
})
