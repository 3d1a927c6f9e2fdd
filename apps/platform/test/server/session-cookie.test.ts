import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestPlatform, type TestPlatform } from './harness.js'

/**
 * The session cookie is Secure whenever the browser reached the platform over https: the public
 * URL says so, or a trusted proxy does (X-Forwarded-Proto). A header from anyone else is ignored.
 */
const PUBLIC_URL = 'https://stratum.example.test'
let behindHttpsUrl: TestPlatform
let behindTrustedProxy: TestPlatform

beforeAll(async () => {
  ;[behindHttpsUrl, behindTrustedProxy] = await Promise.all([
    startTestPlatform({ STRATUM_PUBLIC_URL: PUBLIC_URL }),
    startTestPlatform({ STRATUM_TRUST_PROXY: 'loopback' }),
  ])
})
afterAll(async () => {
  await Promise.all([behindHttpsUrl?.cleanup(), behindTrustedProxy?.cleanup()])
})

async function signIn(t: TestPlatform, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${t.platform.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  })
  expect(response.status, await response.clone().text()).toBe(200)
  return response.headers.get('set-cookie') ?? ''
}

describe('the session cookie', () => {
  it('is Secure when the public URL is https', async () => {
    const cookie = await signIn(behindHttpsUrl, { origin: PUBLIC_URL })
    expect(cookie).toMatch(/^stratum_session=/)
    expect(cookie).toMatch(/; Secure/i)
    expect(cookie).toMatch(/HttpOnly/i)
    // Signing out clears it with the same attributes.
    const session = cookie.split(';')[0]!
    const out = await fetch(`${behindHttpsUrl.platform.url}/api/auth/logout`, { method: 'POST', headers: { cookie: session, origin: PUBLIC_URL } })
    expect(out.status).toBe(204)
    expect(out.headers.get('set-cookie')).toMatch(/^stratum_session=;.*Secure/i)
  })

  it('is Secure when a trusted proxy says the request came over https, and not otherwise', async () => {
    const origin = behindTrustedProxy.platform.url
    const overHttps = await signIn(behindTrustedProxy, { origin, 'x-forwarded-proto': 'https' })
    expect(overHttps).toMatch(/; Secure/i)
    const plain = await signIn(behindTrustedProxy, { origin })
    expect(plain).toMatch(/^stratum_session=/)
    expect(plain).not.toMatch(/Secure/i)
  })
})
