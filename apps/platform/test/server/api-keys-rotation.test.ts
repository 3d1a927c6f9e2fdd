import { randomUUID } from 'node:crypto'
import { jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, memberWithRole, startTestPlatform, tokenFor, type TestPlatform } from './harness.js'

let t: TestPlatform
let cookie: string
let ref: string
let slug: string

const encode = (secret: string) => new TextEncoder().encode(secret)
const UPDATING = 0
const UPDATED = 1
const FAILED = 2

interface Settings {
  jwt_secret: string
  service_api_keys: { api_key: string; tags: string }[]
}

const settings = async () => (await api<Settings>(t, 'GET', `/platform/projects/${ref}/settings`, { cookie })).body
const updateStatus = async () => (await api(t, 'GET', `/platform/projects/${ref}/config/secrets/update-status`, { cookie })).body

async function waitForUpdate(status: number, timeoutMs = 15_000) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    const body = await updateStatus()
    if (body.update_status?.status === status) return body.update_status
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`JWT secret update did not reach ${status}: ${JSON.stringify(await updateStatus())}`)
}

async function waitForProgress(progress: number, timeoutMs = 15_000) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    if ((await updateStatus()).update_status?.progress === progress) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`JWT secret update did not reach progress ${progress}`)
}

async function expectKeysSignedWith(secret: string, keys: Settings['service_api_keys']) {
  for (const key of keys) {
    const { payload } = await jwtVerify(key.api_key, encode(secret), { issuer: 'stratum', algorithms: ['HS256'] })
    expect(payload).toMatchObject({ ref, role: key.tags })
  }
}

beforeAll(async () => {
  // Each step of an update waits 500 ms: long enough to see Updating, or to stop the platform half-way.
  t = await startTestPlatform({ STRATUM_OPERATION_STEP_DELAY_MS: '500' })
  cookie = await login(t)
  slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Rotation', organization_slug: slug, db_pass: 'rotation-password-1' })
  ref = created.body.ref
})
afterAll(() => t?.cleanup())

describe('JWT secret rotation', () => {
  it('has no update status before the first update', async () => {
    expect(await updateStatus()).toEqual({ update_status: null })
  })

  it('rotates: Updating -> Updated, new secret and keys, the old keys no longer verify', async () => {
    const before = await settings()
    const started = await api(t, 'POST', `/platform/projects/${ref}/config/secrets`, { cookie }, {})
    expect(started.status).toBe(200)
    expect(started.body.update_status).toMatchObject({ status: UPDATING, progress: 0, error: null })
    const trackingId = started.body.update_status.change_tracking_id
    expect((await updateStatus()).update_status).toMatchObject({ change_tracking_id: trackingId, status: UPDATING })
    // While it runs, the old secret and keys are still the project's.
    expect((await settings()).jwt_secret).toBe(before.jwt_secret)
    // One update at a time.
    const second = await api(t, 'POST', `/platform/projects/${ref}/config/secrets`, { cookie }, {})
    expect(second).toMatchObject({ status: 409, body: { message: 'A JWT secret update is already in progress for this project' } })

    expect(await waitForUpdate(UPDATED)).toEqual({ change_tracking_id: trackingId, status: UPDATED, progress: 2, error: null })
    const after = await settings()
    expect(after.jwt_secret).not.toBe(before.jwt_secret)
    expect(after.jwt_secret.length).toBeGreaterThanOrEqual(32)
    for (const [i, key] of after.service_api_keys.entries()) expect(key.api_key).not.toBe(before.service_api_keys[i]!.api_key)
    await expectKeysSignedWith(after.jwt_secret, after.service_api_keys)
    for (const key of before.service_api_keys) await expect(jwtVerify(key.api_key, encode(after.jwt_secret))).rejects.toThrow()
    // The Management API serves the new keys too.
    const v1 = await api(t, 'GET', `/v1/projects/${ref}/api-keys`, { cookie })
    expect(v1.body.map((k: { api_key: string }) => k.api_key)).toEqual(after.service_api_keys.map((k) => k.api_key))
  })

  it('takes a chosen secret and the client change_tracking_id (PATCH, as the reference client)', async () => {
    const secret = 'my-own-secret-that-is-long-enough-0123456789'
    const id = randomUUID()
    const result = await api(t, 'PATCH', `/platform/projects/${ref}/config/secrets`, { cookie }, { jwt_secret: secret, change_tracking_id: id })
    expect(result.status).toBe(200)
    expect(result.body.update_status.change_tracking_id).toBe(id)
    await waitForUpdate(UPDATED)
    const after = await settings()
    expect(after.jwt_secret).toBe(secret)
    await expectKeysSignedWith(secret, after.service_api_keys)
    const reused = await api(t, 'POST', `/platform/projects/${ref}/config/secrets`, { cookie }, { change_tracking_id: id })
    expect(reused).toMatchObject({ status: 409, body: { message: 'This change_tracking_id was already used' } })
  })

  it('refuses roles without secrets.write and bad input, writing nothing', async () => {
    const before = await settings()
    const last = await updateStatus()
    for (const role of ['developer', 'read_only'] as const) {
      const { token } = await memberWithRole(t, slug, role)
      const denied = await api(t, 'POST', `/platform/projects/${ref}/config/secrets`, { token }, {})
      expect(denied).toMatchObject({ status: 403, body: { message: 'You need additional permissions to change the secrets of this project' } })
      // Everyone may poll the status (the panel shows it), nobody without the permission sees the secret.
      expect((await api(t, 'GET', `/platform/projects/${ref}/config/secrets/update-status`, { token })).body).toEqual(last)
    }
    const cases: [unknown, string][] = [
      [{ jwt_secret: 'too-short' }, 'JWT secret must be at least 32 characters long'],
      [{ jwt_secret: 'has a space in it but is long enough to pass' }, 'JWT secret can only contain printable ASCII characters without spaces'],
      [{ jwt_secret: 42 }, 'jwt_secret must be a string'],
      [{ change_tracking_id: 'not-a-uuid' }, 'change_tracking_id must be a UUID'],
      [{ jwt_secret: 'x'.repeat(40), extra: 1 }, 'Unrecognized key: "extra"'],
    ]
    for (const [body, message] of cases) {
      const bad = await api(t, 'POST', `/platform/projects/${ref}/config/secrets`, { cookie }, body)
      expect(bad.status, JSON.stringify(body)).toBe(400)
      expect(bad.body.message).toContain(message)
    }
    expect(await updateStatus()).toEqual(last)
    expect(await settings()).toEqual(before)
  })

  it('fails with the error and keeps the old secret when a step fails', async () => {
    const before = await settings()
    const started = await api(t, 'POST', `/platform/projects/${ref}/config/secrets`, { cookie }, {})
    // Inside the first step's delay: the sealed new secret becomes unreadable.
    await t.platform.ctx.db.query(`UPDATE jwt_secret_updates SET new_secret_sealed = 'v1:AAAA' WHERE id = $1`, [
      started.body.update_status.change_tracking_id,
    ])
    const failed = await waitForUpdate(FAILED)
    expect(failed).toMatchObject({ status: FAILED, progress: 0, error: expect.stringMatching(/^sign-keys: /) })
    expect(await settings()).toEqual(before)
    await expectKeysSignedWith(before.jwt_secret, before.service_api_keys)
    // A new update may start after a failed one.
    await api(t, 'POST', `/platform/projects/${ref}/config/secrets`, { cookie }, {})
    await waitForUpdate(UPDATED)
  })

  it.each([0, 1])('finishes an update stopped after step %i at the next boot', async (stoppedAt) => {
    const secret = `secret-set-right-before-a-restart-${stoppedAt}-0123456789`
    const before = await settings()
    const token = await tokenFor(t, ADMIN_EMAIL)
    const started = await api(t, 'POST', `/platform/projects/${ref}/config/secrets`, { cookie }, { jwt_secret: secret })
    expect(started.body.update_status.status).toBe(UPDATING)
    if (stoppedAt === 1) await waitForProgress(1)
    const id = started.body.update_status.change_tracking_id
    const pending = async () =>
      (await t.platform.ctx.db.query('SELECT new_secret_sealed, new_anon_key FROM jwt_secret_updates WHERE id = $1', [id])).rows[0]
    // Step 1 signs the new keys and keeps them beside the secret: a resumed update must not sign them again.
    const signedBeforeTheStop = stoppedAt === 1 ? (await pending()).new_anon_key : null
    await t.platform.close()
    await t.restart()
    // The resumed update runs at its own pace (the boot does not wait for it): what holds however fast it goes is that
    // it never goes back, and that the old secret is in use until the transaction that takes the new one (and clears
    // the pending one) commits. Read in that order: settings first, then whether the new secret is still pending.
    const resumed = (await api(t, 'GET', `/platform/projects/${ref}/config/secrets/update-status`, { token })).body.update_status
    expect(resumed.status === UPDATED || (resumed.status === UPDATING && resumed.progress >= stoppedAt), JSON.stringify(resumed)).toBe(true)
    const inUse = (await api(t, 'GET', `/platform/projects/${ref}/settings`, { token })).body.jwt_secret
    if ((await pending()).new_secret_sealed !== null) expect(inUse).toBe(before.jwt_secret)
    else expect([before.jwt_secret, secret]).toContain(inUse)
    // ...then it completes.
    cookie = await login(t)
    const done = await waitForUpdate(UPDATED)
    expect(done.change_tracking_id).toBe(id)
    const after = await settings()
    expect(after.jwt_secret).toBe(secret)
    if (signedBeforeTheStop) expect(after.service_api_keys.find((key) => key.tags === 'anon')?.api_key).toBe(signedBeforeTheStop)
    await expectKeysSignedWith(secret, after.service_api_keys)
    const { rows } = await t.platform.ctx.db.query('SELECT new_secret_sealed FROM jwt_secret_updates WHERE id = $1', [done.change_tracking_id])
    expect(rows[0].new_secret_sealed).toBeNull()
  })
})
