import { SupabaseManagementAPI } from 'supabase-management-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, projectApi, startTestPlatform, tokenFor, waitForStatus, type ProjectApi, type TestPlatform } from './harness.js'

/**
 * The project URL cannot touch the dashboard (issue 25 item 2): project APIs live on an origin of their
 * own, the dashboard's origin serves no tenant content, nothing at the project URL reads or sets the
 * platform's cookies, tenant documents are sandboxed, and the platform's API answers no credentialed
 * cross-origin request.
 */
let t: TestPlatform
let cookie: string
let ref: string
let project: ProjectApi

const PAGE = `<!doctype html><script>fetch('/v1/projects').then(r => r.text()).then(t => document.title = t)</script>`
const FUNCTION_SOURCE = `Deno.serve((req) => {
  const url = new URL(req.url)
  if (url.pathname.endsWith('/cookies')) return new Response(req.headers.get('cookie') ?? '', { headers: { 'content-type': 'text/plain' } })
  // Browsers take the last type of a list: this is HTML to them.
  if (url.pathname.endsWith('/listed')) return new Response('<script>1</script>', { headers: { 'content-type': 'text/plain, text/html' } })
  const headers = new Headers({ 'content-type': 'text/html; charset=utf-8' })
  headers.append('set-cookie', 'stratum_session=planted; Path=/; HttpOnly')
  headers.append('set-cookie', '__Host-stratum_session=planted; Path=/; Secure')
  headers.append('set-cookie', 'app_pref=dark; Path=/')
  return new Response(${JSON.stringify(PAGE)}, { headers })
})`

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  const token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  ref = (await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Origins', organization_slug: slug, db_pass: 'origins-password-1' })).body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  project = await projectApi(t, ref, { cookie })
  const management = new SupabaseManagementAPI({ accessToken: token, baseUrl: t.platform.url })
  const deployed = await management.deployAFunction(
    ref,
    { metadata: { entrypoint_path: 'index.ts', name: 'page', verify_jwt: false }, file: [new Blob([FUNCTION_SOURCE], { type: 'application/typescript' }) as unknown as string] },
    { slug: 'page' },
  )
  expect(deployed.status).toBe(201)
}, 180_000)
afterAll(() => t?.cleanup())

describe('two origins', () => {
  it('gives the project URL an origin of its own, and the dashboard origin serves none of it', async () => {
    expect(new URL(project.url).origin).not.toBe(new URL(t.platform.url).origin)
    expect(new URL(project.url).origin).toBe(t.platform.apiUrl)
    const rest = await fetch(`${project.url}/rest/v1/`, { headers: { apikey: project.anonKey } })
    expect(rest.status).toBe(200)
    for (const below of ['rest/v1/', 'functions/v1/page', 'storage/v1/object/public/b/x.html', 'auth/v1/settings']) {
      const onDashboard = await fetch(`${t.platform.url}/projects/${ref}/${below}`, { headers: { apikey: project.anonKey } })
      expect(onDashboard.status, below).toBe(404)
      expect(((await onDashboard.json()) as { message: string }).message).toBe(`Project APIs are not served on the dashboard's origin: use the project URL at ${project.url}`)
    }
    // And the platform is not served at the project origin.
    const platformThere = await fetch(`${t.platform.apiUrl}/v1/projects`, { headers: { cookie } })
    expect(platformThere.status).toBe(404)
  })

  it('drops the platform cookies a function sets, keeps its own, and sandboxes its HTML', async () => {
    const response = await fetch(`${project.url}/functions/v1/page`)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe(PAGE)
    expect(response.headers.getSetCookie()).toEqual(['app_pref=dark; Path=/'])
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('content-security-policy')).toMatch(/^sandbox;/)
  })

  it('sandboxes whatever is not a single passive type (a list of types, SVG, no type)', async () => {
    const listed = await fetch(`${project.url}/functions/v1/page/listed`)
    expect(listed.headers.get('content-security-policy')).toMatch(/^sandbox;/)
    const plain = await fetch(`${project.url}/functions/v1/page/cookies`)
    expect(plain.headers.get('content-security-policy')).toBeNull()
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('never passes the platform session to a function', async () => {
    const response = await fetch(`${project.url}/functions/v1/page/cookies`, { headers: { cookie: `${cookie}; app_pref=dark; __Secure-stratum_x=1` } })
    expect(await response.text()).toBe('app_pref=dark')
  })

  it('sandboxes HTML served from a public bucket', async () => {
    const headers = { apikey: project.serviceKey, authorization: `Bearer ${project.serviceKey}` }
    const bucket = await fetch(`${project.url}/storage/v1/bucket`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'site', public: true }) })
    expect(bucket.status).toBe(200)
    const upload = await fetch(`${project.url}/storage/v1/object/site/index.html`, { method: 'POST', headers: { ...headers, 'content-type': 'text/html' }, body: PAGE })
    expect(upload.status).toBe(200)
    const served = await fetch(`${project.url}/storage/v1/object/public/site/index.html`)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toMatch(/^text\/html/)
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(served.headers.get('content-security-policy')).toMatch(/^sandbox;/)
  })

  it('answers no credentialed cross-origin request on the platform API', async () => {
    const origin = t.platform.apiUrl
    const preflight = await fetch(`${t.platform.url}/v1/projects/${ref}/api-keys`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'content-type' },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull()
    const read = await fetch(`${t.platform.url}/v1/projects/${ref}/api-keys`, { headers: { origin, cookie } })
    expect(read.headers.get('access-control-allow-origin')).toBeNull()
    // A write from the project origin with the owner's cookie (what a page there would send) is refused.
    const invite = await api(t, 'POST', `/platform/organizations/${(await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug}/members/invitations`, { cookie, origin }, { email: 'attacker@example.com', role_id: 'owner' })
    expect(invite.status).toBe(403)
  })
})
