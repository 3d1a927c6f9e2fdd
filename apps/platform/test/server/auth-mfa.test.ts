import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { createHmac } from 'node:crypto'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, projectApi, startTestPlatform, tokenFor, waitForStatus, type ProjectApi, type TestPlatform } from './harness.js'

/*
 * MFA with TOTP factors at {project URL}/auth/v1, driven by supabase-js's `auth.mfa` (unmodified) as an app does:
 * enroll, challenge and verify to reach aal2, list and unenroll factors, the admin API's factors, the project's MFA
 * settings, GoTrue's error codes, and one user reaching for another's factor. Mirrors auth-js's MFA suite cases
 * (GoTrueClient.test.ts "MFA": enroll, challenge, verify, challengeAndVerify, listFactors, unenroll,
 * getAuthenticatorAssuranceLevel; GoTrueApi.test.ts admin mfa listFactors / deleteFactor).
 */

let t: TestPlatform
let token: string
let project: ProjectApi

const client = (key = project.anonKey): SupabaseClient =>
  createClient(project.url, key, { realtime: { transport: WebSocket as never }, auth: { persistSession: false, autoRefreshToken: false } })

async function sql(query: string) {
  const result = await api(t, 'POST', `/v1/projects/${project.ref}/database/query`, { token }, { query })
  if (result.status >= 300) throw new Error(`${query}: ${JSON.stringify(result.body)}`)
  return result.body as Record<string, unknown>[]
}

const configure = async (change: Record<string, unknown>) => {
  const result = await api(t, 'PATCH', `/v1/projects/${project.ref}/config/auth`, { token }, change)
  expect(result.status).toBe(200)
  return result.body as Record<string, unknown>
}

/** RFC 6238 written out here (not the service's library): HMAC-SHA1 of the 30-second step, six digits. */
function totp(base32: string, step = Math.floor(Date.now() / 30_000)): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const char of base32.replace(/=+$/, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0')
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(step))
  const mac = createHmac('sha1', key).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0xf
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0')
}

/** A six-digit code that is none of the secret's codes around now. */
function wrongCode(secret: string): string {
  const now = Math.floor(Date.now() / 30_000)
  const near = new Set([-2, -1, 0, 1, 2].map((delta) => totp(secret, now + delta)))
  for (let n = 0; ; n++) if (!near.has(String(n).padStart(6, '0'))) return String(n).padStart(6, '0')
}

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>

let users = 0
/** A new confirmed user, signed in with a password (aal1). */
async function signedInUser(): Promise<{ app: SupabaseClient; userId: string; email: string }> {
  const app = client()
  const email = `mfa-user-${++users}@example.com`
  const signedUp = await app.auth.signUp({ email, password: 'mfa-password-1' })
  expect(signedUp.error).toBeNull()
  const signedIn = await app.auth.signInWithPassword({ email, password: 'mfa-password-1' })
  expect(signedIn.error).toBeNull()
  return { app, userId: signedIn.data.user!.id, email }
}

/** A user with a verified TOTP factor and an aal2 session. */
async function userWithFactor() {
  const user = await signedInUser()
  const enrolled = await user.app.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone app' })
  expect(enrolled.error).toBeNull()
  const { id: factorId, totp: key } = enrolled.data!
  const verified = await user.app.auth.mfa.challengeAndVerify({ factorId, code: totp(key.secret) })
  expect(verified.error).toBeNull()
  return { ...user, factorId, secret: key.secret }
}

beforeAll(async () => {
  t = await startTestPlatform()
  const cookie = await login(t)
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'MFA', organization_slug: slug, db_pass: 'mfa-test-password-1' })
  await waitForStatus(t, created.body.ref as string, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  project = await projectApi(t, created.body.ref as string, { cookie })
  // Sign-ups confirmed at once; tests sign in far more often from one address than the defaults allow.
  await configure({ mailer_autoconfirm: true, rate_limit_otp: 10_000, rate_limit_verify: 10_000 })
})
afterAll(() => t?.cleanup())

describe('MFA with TOTP factors through supabase-js', () => {
  it('has the settings with Supabase defaults', async () => {
    const settings = await api(t, 'GET', `/v1/projects/${project.ref}/config/auth`, { token })
    expect(settings.body).toMatchObject({ mfa_totp_enroll_enabled: true, mfa_totp_verify_enabled: true, mfa_max_enrolled_factors: 10 })
    expect((await api(t, 'PATCH', `/v1/projects/${project.ref}/config/auth`, { token }, { mfa_max_enrolled_factors: -1 })).status).toBe(400)
  })

  it('enrolls a factor, reaches aal2 with its code, keeps aal2 on refresh, lists and unenrolls it', async () => {
    const { app, email } = await signedInUser()
    const before = await app.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(before.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' })
    expect(before.data!.currentAuthenticationMethods).toEqual([{ method: 'password', timestamp: expect.any(Number) }])

    const enrolled = await app.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'laptop', issuer: 'Stratum Test' })
    expect(enrolled.error).toBeNull()
    const factor = enrolled.data!
    expect(factor).toMatchObject({ type: 'totp', friendly_name: 'laptop' })
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(factor.totp.uri).toBe(`otpauth://totp/Stratum%20Test:${encodeURIComponent(email)}?issuer=Stratum%20Test&secret=${factor.totp.secret}&algorithm=SHA1&digits=6&period=30`)
    expect(factor.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true)
    // A '#' would end the data URI where it stands.
    expect(factor.totp.qr_code).not.toContain('#')

    // Unverified: in the user's factors, not yet among the verified TOTP ones.
    const pending = await app.auth.mfa.listFactors()
    expect(pending.data!.all).toEqual([expect.objectContaining({ id: factor.id, status: 'unverified', factor_type: 'totp', friendly_name: 'laptop' })])
    expect(pending.data!.totp).toEqual([])

    const challenge = await app.auth.mfa.challenge({ factorId: factor.id })
    expect(challenge.error).toBeNull()
    expect(challenge.data).toMatchObject({ type: 'totp', id: expect.any(String) })
    expect(challenge.data!.expires_at).toBeGreaterThan(Date.now() / 1000 + 200)

    const verified = await app.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: totp(factor.totp.secret) })
    expect(verified.error).toBeNull()
    const claims = claimsOf(verified.data!.access_token)
    expect(claims.aal).toBe('aal2')
    const methods = (claims.amr as { method: string; timestamp: number }[]).map((entry) => entry.method)
    expect(methods).toEqual(['totp', 'password'])
    expect(verified.data!.refresh_token).toBeTruthy()
    // The challenge is spent.
    const again = await app.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: totp(factor.totp.secret) })
    expect(again.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' })

    const level = await app.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' })
    const listed = await app.auth.mfa.listFactors()
    expect(listed.data!.totp).toEqual([expect.objectContaining({ id: factor.id, status: 'verified' })])
    expect(JSON.stringify(listed.data)).not.toContain(factor.totp.secret)

    // The refresh token issued at verification keeps the session at aal2.
    const refreshed = await app.auth.refreshSession()
    expect(refreshed.error).toBeNull()
    expect(claimsOf(refreshed.data.session!.access_token).aal).toBe('aal2')

    const removed = await app.auth.mfa.unenroll({ factorId: factor.id })
    expect(removed.error).toBeNull()
    expect(removed.data).toEqual({ id: factor.id })
    expect((await app.auth.mfa.listFactors()).data!.all).toEqual([])
    // The session goes back to aal1 with its next token.
    const after = await app.auth.refreshSession()
    expect(claimsOf(after.data.session!.access_token)).toMatchObject({ aal: 'aal1', amr: [{ method: 'password', timestamp: expect.any(Number) }] })
  })

  it("refuses a wrong code, an expired challenge, a taken name and a factor too many with GoTrue's codes", async () => {
    const { app } = await signedInUser()
    const { data: factor } = await app.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'first' })
    const challenge = (await app.auth.mfa.challenge({ factorId: factor!.id })).data!
    const wrong = await app.auth.mfa.verify({ factorId: factor!.id, challengeId: challenge.id, code: wrongCode(factor!.totp.secret) })
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' })
    expect((await app.auth.mfa.listFactors()).data!.all[0]).toMatchObject({ status: 'unverified' })

    await sql(`update auth.mfa_challenges set created_at = now() - interval '6 minutes' where id = '${challenge.id}'`)
    const expired = await app.auth.mfa.verify({ factorId: factor!.id, challengeId: challenge.id, code: totp(factor!.totp.secret) })
    expect(expired.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' })

    const taken = await app.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'first' })
    expect(taken.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict', message: 'A factor with the friendly name "first" for this user already exists' })

    await configure({ mfa_max_enrolled_factors: 2 })
    try {
      expect((await app.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'second' })).error).toBeNull()
      const third = await app.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'third' })
      expect(third.error).toMatchObject({ status: 422, code: 'too_many_enrolled_mfa_factors' })
    } finally {
      await configure({ mfa_max_enrolled_factors: 10 })
    }
  })

  it('asks an aal1 session for aal2 before a verified factor is removed or another added or the password changed, and ends aal1 sessions on verification', async () => {
    const user = await signedInUser()
    const otherDevice = client()
    expect((await otherDevice.auth.signInWithPassword({ email: user.email, password: 'mfa-password-1' })).error).toBeNull()
    const otherToken = (await otherDevice.auth.getSession()).data.session!.access_token
    const { data: factor } = await user.app.auth.mfa.enroll({ factorType: 'totp' })
    expect((await user.app.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: totp(factor!.totp.secret) })).error).toBeNull()
    // The other device's aal1 session ended with the verification (auth-js reports it as a missing session).
    const ended = await fetch(`${project.url}/auth/v1/user`, { headers: { apikey: project.anonKey, authorization: `Bearer ${otherToken}` } })
    expect(ended.status).toBe(403)
    expect(await ended.json()).toMatchObject({ error_code: 'session_not_found' })
    expect((await otherDevice.auth.getUser()).error?.name).toBe('AuthSessionMissingError')

    // A new password sign-in is aal1 with aal2 to reach, and may not drop the factor.
    const aal1 = client()
    expect((await aal1.auth.signInWithPassword({ email: user.email, password: 'mfa-password-1' })).error).toBeNull()
    expect((await aal1.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' })
    expect((await aal1.auth.mfa.unenroll({ factorId: factor!.id })).error).toMatchObject({ status: 422, code: 'insufficient_aal' })
    expect((await aal1.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'another' })).error).toMatchObject({ status: 403, code: 'insufficient_aal' })
    expect((await aal1.auth.mfa.listFactors()).data!.totp).toHaveLength(1)
    // Nor change the password or email; its metadata it may.
    const password = await aal1.auth.updateUser({ password: 'mfa-password-2' })
    expect(password.error).toMatchObject({ status: 401, code: 'insufficient_aal', message: 'AAL2 session is required to update email or password when MFA is enabled.' })
    expect((await aal1.auth.updateUser({ email: 'someone-else@example.com' })).error).toMatchObject({ status: 401, code: 'insufficient_aal' })
    expect((await aal1.auth.updateUser({ data: { theme: 'dark' } })).error).toBeNull()
    // The aal2 session may.
    expect((await user.app.auth.updateUser({ password: 'mfa-password-2' })).error).toBeNull()
  })

  it('lets the service key list and delete a user’s factors, and nobody else', async () => {
    const user = await userWithFactor()
    const admin = client(project.serviceKey).auth.admin
    const listed = await admin.mfa.listFactors({ userId: user.userId })
    expect(listed.error).toBeNull()
    expect(listed.data!.factors).toEqual([expect.objectContaining({ id: user.factorId, factor_type: 'totp', status: 'verified', friendly_name: 'phone app' })])
    expect(JSON.stringify(listed.data)).not.toContain(user.secret)

    // Neither the anon key nor a user's token opens the admin API.
    const asUser = await fetch(`${project.url}/auth/v1/admin/users/${user.userId}/factors`, {
      headers: { apikey: project.anonKey, authorization: `Bearer ${(await user.app.auth.getSession()).data.session!.access_token}` },
    })
    expect(asUser.status).toBe(403)
    expect(await asUser.json()).toMatchObject({ error_code: 'not_admin' })

    const deleted = await admin.mfa.deleteFactor({ userId: user.userId, id: user.factorId })
    expect(deleted.error).toBeNull()
    // auth-js hands GoTrue's answer, the deleted factor, over as `data.data`.
    expect(deleted.data).toMatchObject({ data: { id: user.factorId, status: 'verified' } })
    expect((await admin.mfa.listFactors({ userId: user.userId })).data!.factors).toEqual([])
    expect((await admin.mfa.deleteFactor({ userId: user.userId, id: user.factorId })).error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' })
    // The user's session is back at aal1.
    expect(claimsOf((await user.app.auth.refreshSession()).data.session!.access_token).aal).toBe('aal1')
  })

  it("refuses enrolment and verification when the project's settings turn them off", async () => {
    const { app } = await signedInUser()
    const { data: factor } = await app.auth.mfa.enroll({ factorType: 'totp' })
    await configure({ mfa_totp_enroll_enabled: false, mfa_totp_verify_enabled: false })
    try {
      const enroll = await app.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'refused' })
      expect(enroll.error).toMatchObject({ status: 422, code: 'mfa_totp_enroll_not_enabled', message: 'MFA enroll is disabled for TOTP' })
      const challenge = await app.auth.mfa.challenge({ factorId: factor!.id })
      expect(challenge.error).toMatchObject({ status: 422, code: 'mfa_totp_verify_not_enabled', message: 'MFA verification is disabled for TOTP' })
    } finally {
      await configure({ mfa_totp_enroll_enabled: true, mfa_totp_verify_enabled: true })
    }
    expect((await app.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: totp(factor!.totp.secret) })).error).toBeNull()
  })

  it("keeps one user from another's factor, and the secret out of the database in clear (attack)", async () => {
    const victim = await signedInUser()
    const { data: factor } = await victim.app.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'victim' })
    const victimChallenge = (await victim.app.auth.mfa.challenge({ factorId: factor!.id })).data!
    const attacker = await signedInUser()

    // The victim's factor does not exist for the attacker: not to challenge, verify or remove.
    expect((await attacker.app.auth.mfa.challenge({ factorId: factor!.id })).error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' })
    const stolen = await attacker.app.auth.mfa.verify({ factorId: factor!.id, challengeId: victimChallenge.id, code: totp(factor!.totp.secret) })
    expect(stolen.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' })
    expect((await attacker.app.auth.mfa.unenroll({ factorId: factor!.id })).error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' })
    expect((await attacker.app.auth.mfa.listFactors()).data!.all).toEqual([])

    // The victim's challenge answers no factor of the attacker's either.
    const own = (await attacker.app.auth.mfa.enroll({ factorType: 'totp' })).data!
    const crossed = await attacker.app.auth.mfa.verify({ factorId: own.id, challengeId: victimChallenge.id, code: totp(own.totp.secret) })
    expect(crossed.error).toMatchObject({ status: 422, code: 'mfa_factor_not_found' })

    // Malformed ids are refused as GoTrue refuses them.
    const malformed = await fetch(`${project.url}/auth/v1/factors/not-a-uuid/challenge`, {
      method: 'POST',
      headers: { apikey: project.anonKey, authorization: `Bearer ${(await attacker.app.auth.getSession()).data.session!.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(malformed.status).toBe(404)

    // Without a session there is no enrolment at all.
    const anonymous = await fetch(`${project.url}/auth/v1/factors`, {
      method: 'POST',
      headers: { apikey: project.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ factor_type: 'totp' }),
    })
    expect(anonymous.status).toBe(401)

    // The secret is sealed where it is kept.
    const stored = await sql(`select secret from auth.mfa_factors where id = '${factor!.id}'`)
    expect(stored[0]!.secret).toMatch(/^v1:/)
    expect(stored[0]!.secret).not.toContain(factor!.totp.secret)
  })

  it('verifies a factor restored from Supabase with its secret in clear, and seals the secret', async () => {
    const { app } = await signedInUser()
    const { data: factor } = await app.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'restored' })
    // As a dump of a Supabase project holds it (GoTrue stores secrets in clear unless database encryption is on).
    await sql(`update auth.mfa_factors set secret = '${factor!.totp.secret}' where id = '${factor!.id}'`)
    expect((await app.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: totp(factor!.totp.secret) })).error).toBeNull()
    expect((await sql(`select secret from auth.mfa_factors where id = '${factor!.id}'`))[0]!.secret).toMatch(/^v1:/)
    // A secret this platform cannot open refuses every code, without a server error.
    await sql(`update auth.mfa_factors set secret = 'v1:AAAA' where id = '${factor!.id}'`)
    const unopenable = await app.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: totp(factor!.totp.secret) })
    expect(unopenable.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' })
  })

  it('gives a project whose auth schema predates MFA its tables on the next auth request', async () => {
    // As a project made before schema 2 has it: no MFA tables, schema 1 recorded.
    await sql(`drop table auth.mfa_amr_claims, auth.mfa_challenges, auth.mfa_factors; delete from auth.schema_migrations where version in ('stratum_auth_2', 'stratum_auth_3')`)
    // A settings change makes the service look at the project again (as a restart would).
    await configure({ mfa_max_enrolled_factors: 10 })
    const user = await userWithFactor()
    expect((await user.app.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal2' })
    // Brought to the current schema (3: the rate-limit windows too).
    expect(await sql(`select version from auth.schema_migrations where version = 'stratum_auth_3'`)).toHaveLength(1)
    expect(await sql(`select 1 from pg_tables where schemaname = 'auth' and tablename = 'stratum_rate_limits'`)).toHaveLength(1)
  })
})
