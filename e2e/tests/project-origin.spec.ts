import { expect, test } from './fixtures'
import { apiCall, healthyProject, projectUrl, signIn } from './helpers'

/**
 * HTML a tenant serves at the project URL (an edge function's page, an object in a public bucket), opened
 * by the installation's owner while signed in to the dashboard: it reads nothing of the dashboard, invites
 * nobody, and leaves the session cookie as it was (issue 25 item 2). The page tries everything a script
 * of the dashboard's origin could do; the project URL's own origin and the sandbox stop it.
 */
function attackPage(dashboard: string, ref: string, orgSlug: string): string {
  return `<!doctype html><html><head><title>waiting</title></head><body><p id="out">static</p><script>
  (async () => {
    document.title = 'script ran'
    document.cookie = 'stratum_session=replaced; path=/'
    const seen = []
    try { seen.push(await (await fetch(${JSON.stringify(`${dashboard}/v1/projects/${ref}/api-keys`)}, { credentials: 'include' })).text()) } catch (e) { seen.push('blocked') }
    try {
      await fetch(${JSON.stringify(`${dashboard}/platform/organizations/${orgSlug}/members/invitations`)}, {
        method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ email: 'attacker@example.com', role: 'owner' }),
      })
    } catch (e) { seen.push('blocked') }
    document.getElementById('out').textContent = seen.join('|')
  })()
  </script></body></html>`
}

test.beforeEach(async ({ page }) => {
  await signIn(page)
})

test("HTML served at the project URL reads and changes nothing of a signed-in owner's dashboard", async ({ page, context, baseURL }) => {
  const project = await healthyProject(page, 'Origins')
  const dashboard = new URL(baseURL!).origin
  const base = await projectUrl(page, project.ref)
  expect(new URL(base).origin).not.toBe(dashboard)
  const html = attackPage(dashboard, project.ref, project.orgSlug)

  const slug = `page-${Date.now().toString(36)}`
  const source = `Deno.serve(() => new Response(${JSON.stringify(html)}, { headers: [['content-type', 'text/html; charset=utf-8'], ['set-cookie', 'stratum_session=planted; Path=/']] }))\n`
  const deployed = await page.request.post(`/v1/projects/${project.ref}/functions/deploy?slug=${slug}`, {
    headers: { origin: dashboard },
    multipart: {
      metadata: JSON.stringify({ entrypoint_path: 'index.ts', name: slug, verify_jwt: false }),
      file: { name: 'index.ts', mimeType: 'application/typescript', buffer: Buffer.from(source) },
    },
  })
  expect(deployed.status()).toBe(201)

  const keys = await apiCall(page, 'GET', `/v1/projects/${project.ref}/api-keys`)
  const service = keys.find((key: { name: string }) => key.name === 'service_role').api_key
  const storageHeaders = { apikey: service, authorization: `Bearer ${service}` }
  const bucket = `site${Date.now().toString(36)}`
  expect((await page.request.post(`${base}/storage/v1/bucket`, { headers: storageHeaders, data: { name: bucket, public: true } })).status()).toBe(200)
  const upload = await page.request.post(`${base}/storage/v1/object/${bucket}/index.html`, { headers: { ...storageHeaders, 'content-type': 'text/html' }, data: Buffer.from(html) })
  expect(upload.status()).toBe(200)

  const sessionBefore = (await context.cookies(dashboard)).find((cookie) => cookie.name === 'stratum_session')
  expect(sessionBefore).toBeTruthy()
  const invitationsBefore = await apiCall(page, 'GET', `/platform/organizations/${project.orgSlug}/members/invitations`)

  for (const url of [`${base}/functions/v1/${slug}`, `${base}/storage/v1/object/public/${bucket}/index.html`]) {
    const tab = await context.newPage()
    const response = await tab.goto(url)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-security-policy']).toMatch(/^sandbox;/)
    // The page is shown, its script never ran (the sandbox), and nothing it would have read is there.
    await expect(tab.locator('#out')).toHaveText('static')
    expect(await tab.title()).toBe('waiting')
    await tab.close()
  }

  const sessionAfter = (await context.cookies(dashboard)).find((cookie) => cookie.name === 'stratum_session')
  expect(sessionAfter?.value).toBe(sessionBefore!.value)
  expect(await apiCall(page, 'GET', `/platform/organizations/${project.orgSlug}/members/invitations`)).toEqual(invitationsBefore)
  // The dashboard still works with the same session.
  await page.goto(`/project/${project.ref}`)
  await expect(page).not.toHaveURL(/\/sign-in/)
  await apiCall(page, 'DELETE', `/v1/projects/${project.ref}/functions/${slug}`)
})
