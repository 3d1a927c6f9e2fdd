import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, startTestPlatform, tokenFor, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/*
 * The project URL by host name (STRATUM_PROJECT_DOMAIN) and the idle stop (STRATUM_API_IDLE_MS): a
 * platform of its own, with a short idle time.
 */

let t: TestPlatform
let cookie: string
let token: string
let ref: string
let anonKey: string

beforeAll(async () => {
  t = await startTestPlatform({ STRATUM_PROJECT_DOMAIN: 'api.stratum.test', STRATUM_API_IDLE_MS: '1500' })
  cookie = await login(t)
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  ref = (await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Host', organization_slug: slug, db_pass: 'host-password-1' })).body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token }, { query: "create table public.moons (id int primary key, name text); insert into public.moons values (1, 'Io');" })
  const settings = await api(t, 'GET', `/platform/projects/${ref}/settings`, { cookie })
  anonKey = settings.body.service_api_keys.find((key: { tags: string }) => key.tags === 'anon').api_key
})
afterAll(() => t?.cleanup())

/** A request to the platform's address with another Host header, as a wildcard DNS record would send it. */
async function byHost(host: string, path: string) {
  const response = await request(`${t.platform.apiUrl}${path}`, { headers: { host, apikey: anonKey } })
  return { status: response.statusCode, body: await response.body.text() }
}

describe('the project URL by host name, and the idle stop', () => {
  it('shows {ref}.<domain> as the project URL and serves it', async () => {
    const settings = await api(t, 'GET', `/platform/projects/${ref}/settings`, { cookie })
    expect(settings.body.app_config.endpoint).toBe(`${ref}.api.stratum.test`)
    const served = await byHost(`${ref}.api.stratum.test`, '/rest/v1/moons?select=name')
    expect(served).toEqual({ status: 200, body: '[{"name":"Io"}]' })
    // The path form keeps working; another host's paths are the dashboard's as before.
    expect((await byHost('localhost', `/projects/${ref}/rest/v1/moons?select=name`)).status).toBe(200)
    expect((await byHost('other.example', '/rest/v1/moons')).body).not.toContain('Io')
    expect((await byHost('nothing.api.stratum.test', '/rest/v1/moons')).body).not.toContain('Io')
    // The dashboard may call the project APIs on their own host names (the REST check, GraphiQL).
    const dashboard = await request(`${t.platform.url}/api/health`)
    await dashboard.body.dump()
    expect(String(dashboard.headers['content-security-policy'])).toContain('connect-src \'self\' https://*.api.stratum.test http://*.api.stratum.test')
  })

  it('stops an idle PostgREST and starts it again on the next request', async () => {
    expect((await byHost(`${ref}.api.stratum.test`, '/rest/v1/moons')).status).toBe(200)
    expect(t.platform.ctx.rest.processOf(ref)).not.toBeNull()
    await waitFor(() => t.platform.ctx.rest.processOf(ref) === null, { timeoutMs: 30_000 })
    expect((await byHost(`${ref}.api.stratum.test`, '/rest/v1/moons?select=name')).body).toBe('[{"name":"Io"}]')
    expect(t.platform.ctx.rest.processOf(ref)).not.toBeNull()
  })

  it('does not stop a PostgREST for idleness while it answers a request longer than the idle time', async () => {
    await api(t, 'POST', `/v1/projects/${ref}/database/query`, { token }, {
      query: "create function public.slow_answer(seconds float8) returns text language sql stable as $$ select 'done' from pg_sleep(seconds) $$",
    })
    const host = `${ref}.api.stratum.test`
    // The DDL reloads PostgREST's schema cache: asked until it knows the function.
    await expect.poll(async () => (await byHost(host, '/rest/v1/rpc/slow_answer?seconds=0')).status, { timeout: 30_000 }).toBe(200)
    // Twice the idle time (1.5 s): before, the idle sweep stopped the process mid-answer (503 "other side closed").
    expect(await byHost(host, '/rest/v1/rpc/slow_answer?seconds=3')).toEqual({ status: 200, body: '"done"' })
  })
})
