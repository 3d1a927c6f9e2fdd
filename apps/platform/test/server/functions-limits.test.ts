import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, startTestPlatform, tokenFor, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/**
 * Edge function limits that need their own settings: a short idle time (the process stops, the next
 * request starts another) and a small heap (a function that outgrows it crashes with a 502, then the
 * next request is served by a fresh process).
 */
let t: TestPlatform
let token: string
let ref: string

beforeAll(async () => {
  t = await startTestPlatform({ STRATUM_API_IDLE_MS: '1000', STRATUM_FUNCTION_MEMORY_MB: '48' })
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { token })).body[0].slug
  ref = (await api(t, 'POST', '/platform/projects', { token }, { name: 'Limits', organization_slug: slug, db_pass: 'limits-password-1' })).body.ref
  await waitForStatus(t, ref, { token }, 'ACTIVE_HEALTHY', 60_000)
}, 120_000)
afterAll(() => t?.cleanup())

async function deploy(slug: string, source: string) {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ entrypoint_path: 'index.ts', verify_jwt: false }))
  form.append('file', new Blob([source]), 'index.ts')
  const response = await fetch(`${t.platform.url}/v1/projects/${ref}/functions/deploy?slug=${slug}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
  expect(response.status).toBe(201)
}

async function invoke(slug: string, query = '') {
  const response = await fetch(`${t.platform.apiUrl}/projects/${ref}/functions/v1/${slug}${query}`)
  const text = await response.text()
  return { status: response.status, body: JSON.parse(text) as Record<string, any> }
}

describe('edge function limits', () => {
  it('stops an idle function and starts it again on the next request', async () => {
    await deploy('idle', `const instance = crypto.randomUUID()\nDeno.serve(() => Response.json({ instance }))`)
    const first = await invoke('idle')
    expect(first.status).toBe(200)
    const process = t.platform.ctx.functions.processOf(ref, 'idle')
    expect(process).not.toBeNull()
    await waitFor(() => process!.hasExited && t.platform.ctx.functions.processOf(ref, 'idle') === null, { what: 'the idle function to stop' })
    const again = await invoke('idle')
    expect(again.status).toBe(200)
    expect(again.body.instance).not.toBe(first.body.instance)
  })

  it('crashes a function past its heap limit with a 502, and serves the next request from a fresh process', async () => {
    await deploy(
      'hungry',
      `const instance = crypto.randomUUID()
const hoard = []
Deno.serve((req) => {
  if (new URL(req.url).searchParams.has('eat')) for (;;) hoard.push(new Array(100_000).fill(Math.random()))
  return Response.json({ instance })
})`,
    )
    const first = await invoke('hungry')
    expect(first.status).toBe(200)
    const crashed = await invoke('hungry', '?eat')
    expect(crashed.status).toBe(502)
    expect(crashed.body).toMatchObject({ error: 'The function crashed', message: expect.stringMatching(/out of memory|heap/i) })
    const again = await invoke('hungry')
    expect(again.status).toBe(200)
    expect(again.body.instance).not.toBe(first.body.instance)
  }, 60_000)
})
