import { jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChildPlatform } from './child-platform.js'
import type { TestPlatform } from './harness.js'
import { api, login } from './harness.js'

/** Polls until the condition holds (never a fixed sleep: the machine may be busy). */
async function waitFor(condition: () => Promise<boolean>, { timeoutMs = 15_000, intervalMs = 100, what = 'the condition' } = {}) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/**
 * kill -9 of the platform in the middle of a JWT secret update, then a new start on the same data
 * directory: the job runner resumes the update after its last recorded step and completes it. The
 * keys signed with the old secret no longer verify; the new ones do (as api-keys-rotation.test.ts).
 */
const UPDATING = 0
const UPDATED = 1
// Each step waits this long first: the test kills the platform inside that wait.
const STEP_DELAY = { STRATUM_OPERATION_STEP_DELAY_MS: '1500' }
const encode = (secret: string) => new TextEncoder().encode(secret)

interface Settings {
  jwt_secret: string
  service_api_keys: { api_key: string; tags: string }[]
}

let platform: ChildPlatform
let t: TestPlatform
let cookie: string
let ref: string

const settings = async () => (await api<Settings>(t, 'GET', `/platform/projects/${ref}/settings`, { cookie })).body
const updateStatus = async () => (await api(t, 'GET', `/platform/projects/${ref}/config/secrets/update-status`, { cookie })).body.update_status

async function expectKeysSignedWith(secret: string, keys: Settings['service_api_keys']) {
  for (const key of keys) {
    const { payload } = await jwtVerify(key.api_key, encode(secret), { issuer: 'stratum', algorithms: ['HS256'] })
    expect(payload).toMatchObject({ ref, role: key.tags })
  }
}

beforeAll(async () => {
  platform = new ChildPlatform()
  await platform.start()
  t = { platform: { url: platform.url } } as unknown as TestPlatform
  cookie = await login(t)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  ref = (await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Rotation crash', organization_slug: slug, db_pass: 'rotation-crash-1' })).body.ref
  await platform.stop()
})
afterAll(() => platform?.cleanup())

describe('a platform killed in the middle of a JWT secret update', () => {
  it.each([
    ['before its first step', 0],
    ['between its two steps', 1],
  ])('completes the update killed %s at the next start', async (_when, killedAfterSteps) => {
    await platform.start(STEP_DELAY)
    cookie = await login(t)
    const before = await settings()
    const started = await api(t, 'POST', `/platform/projects/${ref}/config/secrets`, { cookie }, {})
    expect(started.status).toBe(200)
    const trackingId = started.body.update_status.change_tracking_id
    // The recorded progress says where it stands: kill it while it waits before the next step.
    await waitFor(async () => (await updateStatus())?.progress === killedAfterSteps, { intervalMs: 20, what: `progress ${killedAfterSteps}` })
    await platform.crash()

    await platform.start()
    cookie = await login(t)
    await waitFor(async () => (await updateStatus())?.status !== UPDATING, { timeoutMs: 30_000, what: 'the update to end' })
    expect(await updateStatus()).toEqual({ change_tracking_id: trackingId, status: UPDATED, progress: 2, error: null })
    const after = await settings()
    expect(after.jwt_secret).not.toBe(before.jwt_secret)
    await expectKeysSignedWith(after.jwt_secret, after.service_api_keys)
    for (const key of before.service_api_keys) await expect(jwtVerify(key.api_key, encode(after.jwt_secret))).rejects.toThrow()
    // The operation's own record agrees, in the progress shape every operation has.
    const progress = (await api(t, 'GET', `/platform/projects/${ref}/operations/${trackingId}`, { cookie })).body
    expect(progress).toMatchObject({ kind: 'jwt_secret_rotation', status: 'succeeded', steps_done: 2, steps_total: 2, error: null })
    await platform.stop()
  })
})
