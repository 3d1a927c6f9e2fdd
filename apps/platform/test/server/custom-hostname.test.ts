import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login, memberWithRole, startTestPlatform, waitForStatus, type TestPlatform } from './harness.js'

let t: TestPlatform
let cookie: string
let orgSlug: string
let ref: string

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Hostless', organization_slug: orgSlug, db_pass: 'hostname-password-1' })
  ref = created.body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
})

afterAll(async () => {
  await t?.cleanup()
})

describe('GET /v1/projects/{ref}/custom-hostname', () => {
  it('answers that the project is not allowed to set up a custom domain (no add-on), with no hostname', async () => {
    for (const caller of [{ cookie }, { token: (await memberWithRole(t, orgSlug, 'read_only')).token }]) {
      const response = await api(t, 'GET', `/v1/projects/${ref}/custom-hostname`, caller)
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      expect(Object.keys(response.body)).toEqual(['message'])
      // The dashboard's mapping: this text means status 0_not_allowed.
      expect(response.body.message).toContain('not allowed to set up custom domain')
      expect(response.body.message).not.toContain('custom hostname configuration')
    }
  })

  it('checks the caller and the project first', async () => {
    expect((await api(t, 'GET', `/v1/projects/${ref}/custom-hostname`)).status).toBe(401)
    expect((await api(t, 'GET', `/v1/projects/${'q'.repeat(20)}/custom-hostname`, { cookie })).status).toBe(404)
    const badRef = await api(t, 'GET', '/v1/projects/Bad/custom-hostname', { cookie })
    expect(badRef.status).toBe(400)
    expect(badRef.body.message).not.toContain('custom domain')
  })
})
