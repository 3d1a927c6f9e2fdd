import os from 'node:os'
import fs from 'node:fs'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePassword } from '../../src/auth/passwords.js'
import { createUser, findUserByEmail, setPassword } from '../../src/auth/users.js'
import { api, login, startTestPlatform, ADMIN_EMAIL, ADMIN_PASSWORD, type TestPlatform } from './harness.js'

let t: TestPlatform
let cookie: string
let orgSlug: string

beforeAll(async () => {
  t = await startTestPlatform({ STRATUM_LOGIN_RATE_LIMIT: '5' })
  cookie = await login(t)
  orgSlug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
})
afterAll(() => t?.cleanup())

describe('health and pages', () => {
  it('answers the health check without a login', async () => {
    const health = await api(t, 'GET', '/api/health')
    expect(health.status).toBe(200)
    expect(health.body).toEqual({ status: 'ok' })
  })

  it('serves pages with a strict Content-Security-Policy', async () => {
    const page = await fetch(t.platform.url + '/organizations')
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
  })

  it('answers unknown API paths with a JSON 404', async () => {
    const missing = await api(t, 'GET', '/platform/nothing-here', { cookie })
    expect(missing.status).toBe(404)
    expect(missing.body.message).toEqual(expect.any(String))
  })
})

describe('sessions', () => {
  it('refuses unauthenticated calls to every API family', async () => {
    for (const url of ['/platform/projects', '/platform/profile', '/v1/projects', '/v1/organizations']) {
      const result = await api(t, 'GET', url)
      expect(result.status, url).toBe(401)
      expect(result.body.message).toBe('Not signed in')
    }
  })

  it('rejects a wrong password with a clear message', async () => {
    const result = await api(t, 'POST', '/api/auth/login', {}, { email: ADMIN_EMAIL, password: 'wrong-password' })
    expect(result.status).toBe(401)
    expect(result.body.message).toBe('Invalid email or password')
    expect((await api(t, 'POST', '/api/auth/login', {}, { email: 'not-an-email', password: 'x' })).status).toBe(400)
  })

  it('sets an HttpOnly SameSite cookie, and ends the session on logout', async () => {
    const result = await api(t, 'POST', '/api/auth/login', {}, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
    const setCookie = result.headers.get('set-cookie') ?? ''
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    const session = setCookie.split(';')[0]!
    expect((await api(t, 'GET', '/platform/profile', { cookie: session })).body.primary_email).toBe(ADMIN_EMAIL)
    expect((await api(t, 'POST', '/api/auth/logout', { cookie: session })).status).toBe(204)
    expect((await api(t, 'GET', '/platform/profile', { cookie: session })).status).toBe(401)
  })

  it('refuses cookie-authenticated mutations from another origin or without one', async () => {
    const evil = await api(t, 'POST', '/platform/organizations', { cookie, origin: 'http://evil.example' }, { name: 'Evil' })
    expect(evil.status).toBe(403)
    expect(evil.body.message).toMatch(/Cross-site request refused/)
    const none = await api(t, 'POST', '/platform/organizations', { cookie, origin: null }, { name: 'No origin' })
    expect(none.status).toBe(403)
    const orgs = (await api(t, 'GET', '/platform/organizations', { cookie })).body
    expect(orgs.map((o: { name: string }) => o.name)).not.toContain('Evil')
  })

  it('rate-limits sign-in attempts per address and account', async () => {
    const email = 'limited@example.com'
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await api(t, 'POST', '/api/auth/login', {}, { email, password: 'nope-nope' })).status)
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
    expect(statuses.slice(5)).toEqual([429, 429])
    const limited = await api(t, 'POST', '/api/auth/login', {}, { email, password: 'nope-nope' })
    expect(limited.body.message).toMatch(/Too many sign-in attempts/)
  })
})

describe('personal access tokens', () => {
  it('creates, lists and revokes tokens that work on /platform and /v1', async () => {
    const created = await api(t, 'POST', '/platform/profile/access-tokens', { cookie }, { name: 'ci' })
    expect(created.status).toBe(201)
    const token = created.body.token as string
    expect(token).toMatch(/^sbp_[0-9a-f]{40}$/)
    expect((await api(t, 'GET', '/v1/organizations', { token })).status).toBe(200)
    expect((await api(t, 'GET', '/platform/projects', { token })).status).toBe(200)
    // Tokens are not ambient credentials: no Origin needed for their mutations.
    expect((await api(t, 'POST', '/platform/organizations', { token, origin: null }, { name: 'Scripted' })).status).toBe(201)

    const list = (await api(t, 'GET', '/platform/profile/access-tokens', { cookie })).body
    const listed = list.find((x: { id: string }) => x.id === created.body.id)
    expect(listed).toMatchObject({ name: 'ci', token_alias: `${token.slice(0, 8)}…${token.slice(-4)}` })
    expect(JSON.stringify(list)).not.toContain(token)

    expect((await api(t, 'DELETE', `/platform/profile/access-tokens/${created.body.id}`, { cookie })).status).toBe(200)
    const revoked = await api(t, 'GET', '/v1/organizations', { token })
    expect(revoked.status).toBe(401)
    expect(revoked.body.message).toBe('Invalid or revoked access token')
  })

  it('rejects malformed tokens and bad token input', async () => {
    expect((await api(t, 'GET', '/v1/projects', { token: 'sbp_nothex' })).status).toBe(401)
    expect((await api(t, 'POST', '/platform/profile/access-tokens', { cookie }, { name: '' })).status).toBe(400)
    expect((await api(t, 'DELETE', '/platform/profile/access-tokens/not-a-uuid', { cookie })).status).toBe(400)
    expect((await api(t, 'DELETE', '/platform/profile/access-tokens/00000000-0000-4000-8000-000000000000', { cookie })).status).toBe(404)
  })

  it('prints a working token from `stratum token create` for scripts', () => {
    const bin = path.resolve(import.meta.dirname, '../../bin/stratum.mjs')
    const result = spawnSync(process.execPath, [bin, 'token', 'create', '--email', ADMIN_EMAIL, '--name', 'script'], {
      env: { ...process.env, STRATUM_DATA_DIR: t.dataDir },
      encoding: 'utf8',
    })
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout.trim()).toMatch(/^sbp_[0-9a-f]{40}$/)
    expect(result.stderr).toContain(`Using the installation in ${t.dataDir}`)
    return api(t, 'GET', '/v1/projects', { token: result.stdout.trim() }).then((r) => expect(r.status).toBe(200))
  })

  it('refuses to run against a folder that holds no installation, and makes none there', () => {
    const bin = path.resolve(import.meta.dirname, '../../bin/stratum.mjs')
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-no-install-'))
    try {
      const result = spawnSync(process.execPath, [bin, 'token', 'create', '--email', ADMIN_EMAIL], {
        env: { ...process.env, STRATUM_DATA_DIR: elsewhere },
        encoding: 'utf8',
      })
      expect(result.status).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain(`No Stratum installation in ${elsewhere}: set STRATUM_DATA_DIR to the data directory of the server`)
      expect(fs.readdirSync(elsewhere)).toEqual([])
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true })
    }
  })
})

describe('stratum admin reset-password', () => {
  it('prints a one-time password that works once and must be replaced', async () => {
    const bin = path.resolve(import.meta.dirname, '../../bin/stratum.mjs')
    await createUser(t.platform.ctx.db, 'forgetful@example.com', 'forgotten-password-1')
    const result = spawnSync(process.execPath, [bin, 'admin', 'reset-password', '--email', 'forgetful@example.com'], {
      env: { ...process.env, STRATUM_DATA_DIR: t.dataDir },
      encoding: 'utf8',
    })
    expect(result.status, result.stderr).toBe(0)
    const password = /: (\S+)\n/.exec(result.stdout)?.[1] ?? ''
    const session = await login(t, 'forgetful@example.com', password)
    expect((await api(t, 'GET', '/platform/profile', { cookie: session })).body.password_change_required).toBe(true)
    const unknown = spawnSync(process.execPath, [bin, 'admin', 'reset-password', '--email', 'nobody@example.com'], {
      env: { ...process.env, STRATUM_DATA_DIR: t.dataDir },
      encoding: 'utf8',
    })
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toContain('No account with email nobody@example.com')
  })
})

describe('invited members', () => {
  it('with a one-time password (stratum admin reset-password) must replace it before anything else', async () => {
    // Members join by invitation, choosing their own password (invitations.test.ts)...
    const invited = await api(t, 'POST', `/platform/organizations/${orgSlug}/members/invitations`, { cookie }, { email: 'New.Dev@Example.com', role: 'developer' })
    expect(invited.status).toBe(201)
    const link = (invited.body.invitation_url as string).split('/invite/')[1]
    expect((await api(t, 'POST', `/platform/invitations/${link}/sign-up`, {}, { password: 'chosen-password-1' })).status).toBe(201)
    // ...and a one-time password is what `stratum admin reset-password` gives.
    const oneTime = generatePassword()
    await setPassword(t.platform.ctx.db, (await findUserByEmail(t.platform.ctx.db, 'new.dev@example.com'))!.id, oneTime, true)

    const session = await login(t, 'new.dev@example.com', oneTime)
    expect((await api(t, 'GET', '/platform/profile', { cookie: session })).body.password_change_required).toBe(true)
    const blocked = await api(t, 'GET', '/platform/projects', { cookie: session })
    expect(blocked.status).toBe(403)
    expect(blocked.body.message).toMatch(/Set a new password/)
    expect((await api(t, 'PUT', '/platform/profile/password', { cookie: session }, { current_password: 'wrong', new_password: 'brand-new-pass' })).status).toBe(400)
    expect((await api(t, 'PUT', '/platform/profile/password', { cookie: session }, { current_password: oneTime, new_password: 'short' })).status).toBe(400)
    const changed = await api(t, 'PUT', '/platform/profile/password', { cookie: session }, { current_password: oneTime, new_password: 'brand-new-pass' })
    expect(changed.status).toBe(200)
    // The browser that changed it stays signed in on a fresh session.
    const renewed = (changed.headers.get('set-cookie') ?? '').split(';')[0]!
    expect((await api(t, 'GET', '/platform/projects', { cookie: renewed })).status).toBe(200)
    expect((await api(t, 'GET', '/platform/projects', { cookie: session })).status).toBe(401)
    // Changing the password ends sessions; the new one works.
    const fresh = await login(t, 'new.dev@example.com', 'brand-new-pass')
    expect((await api(t, 'GET', '/platform/projects', { cookie: fresh })).status).toBe(200)

    const again = await api(t, 'POST', `/platform/organizations/${orgSlug}/members/invitations`, { cookie }, { email: 'new.dev@example.com', role: 'read_only' })
    expect(again.status).toBe(409)
  })

  it('keeps at least one owner', async () => {
    const me = (await api(t, 'GET', '/platform/profile', { cookie })).body
    const demote = await api(t, 'PATCH', `/platform/organizations/${orgSlug}/members/${me.id}`, { cookie }, { role: 'developer' })
    expect(demote.status).toBe(400)
    expect(demote.body.message).toBe('An organization needs at least one owner')
    expect((await api(t, 'DELETE', `/platform/organizations/${orgSlug}/members/${me.id}`, { cookie })).status).toBe(400)
  })
})

describe('support requests', () => {
  it('stores a request with its category, project and text, and lists only the caller’s own', async () => {
    const projects = await api(t, 'POST', '/platform/support/requests', { cookie }, {
      category: 'Database_unresponsive', subject: 'Slow', message: 'It is slow', project_ref: null,
    })
    expect(projects.status).toBe(201)
    expect(projects.body).toMatchObject({ category: 'Database_unresponsive', subject: 'Slow', project_ref: null })
    const list = await api(t, 'GET', '/platform/support/requests', { cookie })
    expect(list.body[0]).toMatchObject({ subject: 'Slow', message: 'It is slow' })
    const other = await login(t, 'new.dev@example.com', 'brand-new-pass')
    expect((await api(t, 'GET', '/platform/support/requests', { cookie: other })).body).toEqual([])
  })

  it('refuses bad support input and requests about projects the caller cannot see', async () => {
    const before = (await api(t, 'GET', '/platform/support/requests', { cookie })).body.length
    for (const body of [
      { category: 'Gossip', subject: 's', message: 'm' },
      { category: 'Problem', subject: '', message: 'm' },
      { category: 'Problem', subject: 's', message: '' },
      { category: 'Problem', subject: 's', message: 'm', project_ref: 'NOTAREF' },
    ]) {
      const result = await api(t, 'POST', '/platform/support/requests', { cookie }, body)
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body.message).toEqual(expect.any(String))
    }
    const unseen = await api(t, 'POST', '/platform/support/requests', { cookie }, { category: 'Problem', subject: 's', message: 'm', project_ref: 'abcdefghijklmnopqrst' })
    expect(unseen.status).toBe(404)
    expect((await api(t, 'GET', '/platform/support/requests', { cookie })).body.length).toBe(before)
  })
})
