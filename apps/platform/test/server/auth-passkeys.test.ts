import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, projectApi, startTestPlatform, tokenFor, waitForStatus, type ProjectApi, type TestPlatform } from './harness.js'
import { SoftwareAuthenticator, withBadSignature, type CreationOptionsJson, type RequestOptionsJson } from './software-authenticator.js'

/*
 * Passkeys and WebAuthn MFA factors at {project URL}/auth/v1, with a software authenticator (ES256 and RS256 keys,
 * 'none' attestation) standing in for the browser's, and supabase-js's `auth.passkey` (unmodified, experimental flag
 * on) where it has a method. Mirrors auth-js's passkey.e2e.test.ts (registration ceremony, passkey management,
 * authentication ceremony, admin passkey management, passkey deletion) and GoTrue's passkey_*_test.go refusals, then
 * WebAuthn MFA (GoTrue's mfa.go webauthn factors) and the project's settings with GoTrue's texts when off.
 */

// The relying party the project is configured with, as auth-js's suite has it in its config.toml.
const RP_ID = 'localhost'
const RP_ORIGIN = 'http://localhost:5173'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let t: TestPlatform
let token: string
let project: ProjectApi
let defaults: Record<string, unknown>

const client = (key = project.anonKey): SupabaseClient =>
  createClient(project.url, key, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false, experimental: { passkey: true } },
  })

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

async function authCall(method: string, path: string, body?: unknown, bearer?: string, key = project.anonKey) {
  const response = await fetch(`${project.url}/auth/v1${path}`, {
    method,
    headers: { apikey: key, authorization: `Bearer ${bearer ?? key}`, 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, body: (text ? JSON.parse(text) : null) as any }
}

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, any>
const newAuthenticator = (algorithm: 'ES256' | 'RS256' = 'ES256') => new SoftwareAuthenticator({ rpId: RP_ID, origin: RP_ORIGIN }, algorithm)

let users = 0
/** A new confirmed user with a session (sign-ups are confirmed at once here). */
async function signedInUser(): Promise<{ app: SupabaseClient; userId: string; email: string; accessToken: string }> {
  const app = client()
  const email = `passkey-user-${++users}@example.com`
  const signedUp = await app.auth.signUp({ email, password: 'passkey-password-1' })
  expect(signedUp.error).toBeNull()
  return { app, userId: signedUp.data.user!.id, email, accessToken: signedUp.data.session!.access_token }
}

/** Registers a passkey of the authenticator for the client's user; answers the passkey's id. */
async function register(app: SupabaseClient, authenticator: SoftwareAuthenticator): Promise<string> {
  const { data: options, error } = await app.auth.passkey.startRegistration()
  expect(error).toBeNull()
  const created = await app.auth.passkey.verifyRegistration({ challengeId: options!.challenge_id, credential: authenticator.create(options!.options as never) as never })
  expect(created.error).toBeNull()
  return created.data!.id
}

/** Starts a sign-in ceremony: its id and request options. */
async function signInCeremony(): Promise<{ challengeId: string; options: RequestOptionsJson }> {
  const { data, error } = await client().auth.passkey.startAuthentication()
  expect(error).toBeNull()
  return { challengeId: data!.challenge_id, options: data!.options as never }
}

const verifySignIn = (challengeId: string, credential: unknown) => authCall('POST', '/passkeys/authentication/verify', { challenge_id: challengeId, credential })

beforeAll(async () => {
  t = await startTestPlatform()
  const cookie = await login(t)
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Passkeys', organization_slug: slug, db_pass: 'passkey-test-password-1' })
  await waitForStatus(t, created.body.ref as string, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  project = await projectApi(t, created.body.ref as string, { cookie })
  defaults = (await api(t, 'GET', `/v1/projects/${project.ref}/config/auth`, { token })).body
  await configure({
    mailer_autoconfirm: true,
    external_anonymous_users_enabled: true,
    rate_limit_otp: 10_000,
    rate_limit_verify: 10_000,
    rate_limit_anonymous_users: 10_000,
    passkey_enabled: true,
    webauthn_rp_id: RP_ID,
    webauthn_rp_display_name: 'Stratum tests',
    webauthn_rp_origins: RP_ORIGIN,
    mfa_web_authn_enroll_enabled: true,
    mfa_web_authn_verify_enabled: true,
  })
})
afterAll(() => t?.cleanup())

describe('passkeys (auth-js passkey.e2e.test.ts, GoTrue passkey_*_test.go)', () => {
  it('registers a passkey through supabase-js and signs in with it: a session like any sign-in', async () => {
    const { app, userId, email } = await signedInUser()
    const { data: options, error } = await app.auth.passkey.startRegistration()
    expect(error).toBeNull()
    expect(options!.challenge_id).toMatch(UUID)
    expect(options!.expires_at).toBeGreaterThan(Date.now() / 1000 + 200)
    const creation = options!.options as unknown as CreationOptionsJson & Record<string, any>
    expect(creation.rp).toEqual({ id: RP_ID, name: 'Stratum tests' })
    expect(creation.user).toEqual({ id: Buffer.from(userId).toString('base64url'), name: email, displayName: email })
    expect(creation.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(creation.pubKeyCredParams).toEqual(expect.arrayContaining([{ type: 'public-key', alg: -7 }, { type: 'public-key', alg: -257 }]))
    expect(creation.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'preferred' })
    expect(creation.attestation).toBe('none')

    const authenticator = newAuthenticator()
    const created = await app.auth.passkey.verifyRegistration({ challengeId: options!.challenge_id, credential: authenticator.create(creation) as never })
    expect(created.error).toBeNull()
    expect(created.data).toEqual({ id: expect.stringMatching(UUID), friendly_name: 'Passkey', created_at: expect.any(String) })
    const [row] = await sql(`select encode(credential_id, 'base64') as credential_id, sign_count::int as sign_count, attestation_type from auth.webauthn_credentials where id = '${created.data!.id}'`)
    expect(row).toMatchObject({ credential_id: authenticator.credentialId.toString('base64'), sign_count: 0, attestation_type: 'none' })
    // The ceremony answered once: it is gone.
    expect(await sql(`select 1 from auth.webauthn_challenges where id = '${options!.challenge_id}'`)).toEqual([])

    // Sign-in: discoverable, no credentials named.
    const signIn = client()
    const start = await signIn.auth.passkey.startAuthentication()
    expect(start.error).toBeNull()
    const request = start.data!.options as unknown as RequestOptionsJson & Record<string, any>
    expect(request).toMatchObject({ rpId: RP_ID, userVerification: 'preferred', timeout: 300_000 })
    expect(request.allowCredentials ?? []).toHaveLength(0)
    const verified = await signIn.auth.passkey.verifyAuthentication({ challengeId: start.data!.challenge_id, credential: authenticator.get(request) as never })
    expect(verified.error).toBeNull()
    expect(verified.data!.user!.id).toBe(userId)
    const claims = claimsOf(verified.data!.session!.access_token)
    expect(claims).toMatchObject({ sub: userId, aal: 'aal1', amr: [{ method: 'passkey', timestamp: expect.any(Number) }] })
    // The session is the client's and works against the server.
    expect((await signIn.auth.getUser()).data.user?.id).toBe(userId)
    expect((await signIn.auth.refreshSession()).error).toBeNull()
    // The sign-in is recorded on the passkey, with the authenticator's counter.
    const listed = await app.auth.passkey.list()
    expect(listed.data).toEqual([{ id: created.data!.id, friendly_name: 'Passkey', created_at: expect.any(String), last_used_at: expect.any(String) }])
    expect((await sql(`select sign_count::int as sign_count from auth.webauthn_credentials where id = '${created.data!.id}'`))[0]!.sign_count).toBe(1)
  })

  it('takes an RS256 passkey as well as an ES256 one', async () => {
    const { app, userId } = await signedInUser()
    const authenticator = newAuthenticator('RS256')
    await register(app, authenticator)
    const { challengeId, options } = await signInCeremony()
    const verified = await verifySignIn(challengeId, authenticator.get(options))
    expect(verified.status).toBe(200)
    expect(verified.body.user.id).toBe(userId)
  })

  it('refuses a wrong signature, a replayed ceremony or assertion, a stale counter, a foreign origin and an unregistered key', async () => {
    const { app, userId } = await signedInUser()
    const authenticator = newAuthenticator()
    await register(app, authenticator)
    const failed = { status: 400, body: { code: 'webauthn_verification_failed', message: 'Credential verification failed' } }

    // A signature that does not verify; the ceremony is spent all the same.
    let ceremony = await signInCeremony()
    const assertion = authenticator.get(ceremony.options)
    expect(await verifySignIn(ceremony.challengeId, withBadSignature(assertion))).toMatchObject(failed)
    expect(await verifySignIn(ceremony.challengeId, assertion)).toMatchObject({
      status: 400,
      body: { code: 'webauthn_challenge_not_found', message: 'Challenge not found or already used' },
    })

    // A ceremony answers once (auth-js: 'rejects a replayed authentication challenge').
    ceremony = await signInCeremony()
    const good = authenticator.get(ceremony.options)
    expect((await verifySignIn(ceremony.challengeId, good)).status).toBe(200)
    expect((await verifySignIn(ceremony.challengeId, good)).body.code).toBe('webauthn_challenge_not_found')
    // The same assertion for a new ceremony: signed over another challenge.
    expect(await verifySignIn((await signInCeremony()).challengeId, good)).toMatchObject(failed)

    // Another origin, another relying party id, then a counter that did not move on (a cloned authenticator).
    ceremony = await signInCeremony()
    expect(await verifySignIn(ceremony.challengeId, authenticator.get(ceremony.options, { origin: 'https://evil.example' }))).toMatchObject(failed)
    ceremony = await signInCeremony()
    expect(await verifySignIn(ceremony.challengeId, authenticator.get({ ...ceremony.options, rpId: 'evil.example' }))).toMatchObject(failed)
    ceremony = await signInCeremony()
    expect(await verifySignIn(ceremony.challengeId, authenticator.get(ceremony.options, { counter: 1 }))).toMatchObject(failed)

    // A key the server never registered, presenting the user's handle (auth-js: 'from an unregistered authenticator').
    const stranger = newAuthenticator()
    stranger.adopt(userId)
    ceremony = await signInCeremony()
    expect(await verifySignIn(ceremony.challengeId, stranger.get(ceremony.options))).toMatchObject(failed)

    // An expired ceremony, then malformed answers.
    ceremony = await signInCeremony()
    await sql(`update auth.webauthn_challenges set expires_at = now() - interval '1 second' where id = '${ceremony.challengeId}'`)
    expect(await verifySignIn(ceremony.challengeId, authenticator.get(ceremony.options))).toMatchObject({
      status: 400,
      body: { code: 'webauthn_challenge_expired', message: 'Challenge has expired' },
    })
    ceremony = await signInCeremony()
    expect(await verifySignIn(ceremony.challengeId, { id: 'x' })).toMatchObject({ status: 400, body: { code: 'webauthn_verification_failed', message: 'Invalid credential response' } })
    expect(await verifySignIn('', {})).toMatchObject({ status: 400, body: { code: 'validation_failed', message: 'challenge_id is required' } })
    expect(await verifySignIn(ceremony.challengeId, null)).toMatchObject({ status: 400, body: { code: 'validation_failed', message: 'credential is required' } })
    expect(await verifySignIn('not-a-uuid', {})).toMatchObject({ status: 400, body: { code: 'validation_failed', message: 'challenge_id must be a valid UUID' } })
    expect((await verifySignIn(5 as never, {})).body.code).toBe('bad_json')
  })

  it('registers a credential once, keeps ceremonies to their user, and caps passkeys at ten', async () => {
    const owner = await signedInUser()
    const authenticator = newAuthenticator()
    await register(owner.app, authenticator)

    // Another account presenting the same credential.
    const other = await signedInUser()
    const { data: options } = await other.app.auth.passkey.startRegistration()
    const again = await other.app.auth.passkey.verifyRegistration({ challengeId: options!.challenge_id, credential: authenticator.create(options!.options as never) as never })
    expect(again.error).toMatchObject({ status: 422, code: 'webauthn_credential_exists', message: 'This credential is already registered' })

    // An unknown ceremony, and another user's (auth-js: 'verifyRegistration rejects an unknown challenge').
    const mine = await owner.app.auth.passkey.startRegistration()
    const credential = newAuthenticator().create(mine.data!.options as never)
    const unknown = await owner.app.auth.passkey.verifyRegistration({ challengeId: '00000000-0000-0000-0000-000000000000', credential: credential as never })
    expect(unknown.error).toMatchObject({ status: 400, code: 'webauthn_challenge_not_found' })
    const foreign = await other.app.auth.passkey.verifyRegistration({ challengeId: mine.data!.challenge_id, credential: credential as never })
    expect(foreign.error).toMatchObject({ status: 400, code: 'webauthn_challenge_not_found' })
    // Made for another relying party or origin: refused, and the ceremony is spent.
    const wrongRp = await owner.app.auth.passkey.startRegistration()
    const forged = newAuthenticator().create(wrongRp.data!.options as never, { rpId: 'evil.example' })
    expect((await owner.app.auth.passkey.verifyRegistration({ challengeId: wrongRp.data!.challenge_id, credential: forged as never })).error).toMatchObject({
      status: 400,
      code: 'webauthn_verification_failed',
      message: 'Credential verification failed',
    })
    const wrongOrigin = await owner.app.auth.passkey.startRegistration()
    const elsewhere = newAuthenticator().create(wrongOrigin.data!.options as never, { origin: 'https://evil.example' })
    expect((await owner.app.auth.passkey.verifyRegistration({ challengeId: wrongOrigin.data!.challenge_id, credential: elsewhere as never })).error?.code).toBe(
      'webauthn_verification_failed',
    )
    // The registered credential is excluded from the next ceremony.
    const next = (await owner.app.auth.passkey.startRegistration()).data!.options as unknown as CreationOptionsJson
    expect(next.excludeCredentials).toEqual([{ type: 'public-key', id: authenticator.credentialIdBase64Url }])

    // Ten passkeys are the most a user has (GoTrue's max_passkeys_per_user).
    await sql(`insert into auth.webauthn_credentials (user_id, credential_id, public_key)
      select '${owner.userId}', decode(md5(random()::text || n), 'hex'), '\\x00'::bytea from generate_series(1, 9) n`)
    expect((await owner.app.auth.passkey.startRegistration()).error).toMatchObject({ status: 422, code: 'too_many_passkeys', message: 'Maximum number of passkeys reached' })
  })

  it('lists, renames and deletes the signed-in user’s passkeys; another user’s is answered as missing', async () => {
    const { app, userId } = await signedInUser()
    const authenticator = newAuthenticator()
    const passkeyId = await register(app, authenticator)

    const renamed = await app.auth.passkey.update({ passkeyId, friendlyName: 'e2e test key' })
    expect(renamed.error).toBeNull()
    expect(renamed.data).toMatchObject({ id: passkeyId, friendly_name: 'e2e test key' })
    expect((await app.auth.passkey.list()).data![0]!.friendly_name).toBe('e2e test key')
    expect((await app.auth.passkey.update({ passkeyId, friendlyName: 'é'.repeat(60) })).error).toBeNull()

    const { data: session } = await app.auth.getSession()
    const bearer = session.session!.access_token
    const notFound = { status: 404, body: { code: 'validation_failed', message: 'Passkey not found' } }
    expect(await authCall('PATCH', '/passkeys/00000000-0000-0000-0000-000000000000', { friendly_name: 'nope' }, bearer)).toMatchObject(notFound)
    expect(await authCall('PATCH', '/passkeys/not-a-uuid', { friendly_name: 'nope' }, bearer)).toMatchObject(notFound)
    expect(await authCall('PATCH', `/passkeys/${passkeyId}`, { friendly_name: '' }, bearer)).toMatchObject({ status: 400, body: { message: 'friendly_name is required' } })
    expect(await authCall('PATCH', `/passkeys/${passkeyId}`, { friendly_name: 'é'.repeat(61) }, bearer)).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', message: 'friendly_name must be 120 characters or less' },
    })
    expect((await authCall('PATCH', `/passkeys/${passkeyId}`, { friendly_name: 7 }, bearer)).body.code).toBe('bad_json')

    // Another user sees none of it and can change none of it.
    const other = await signedInUser()
    expect((await other.app.auth.passkey.list()).data).toEqual([])
    expect(await authCall('PATCH', `/passkeys/${passkeyId}`, { friendly_name: 'mine now' }, other.accessToken)).toMatchObject(notFound)
    expect(await authCall('DELETE', `/passkeys/${passkeyId}`, undefined, other.accessToken)).toMatchObject(notFound)

    // Without a session, and as an anonymous user.
    expect((await client().auth.passkey.startRegistration()).error?.name).toBe('AuthSessionMissingError')
    expect(await authCall('GET', '/passkeys')).toMatchObject({ status: 401, body: { code: 'no_authorization' } })
    const anonymous = await client().auth.signInAnonymously()
    expect(anonymous.error).toBeNull()
    expect(await authCall('POST', '/passkeys/registration/options', {}, anonymous.data.session!.access_token)).toMatchObject({
      status: 403,
      body: { code: 'no_authorization', message: 'Anonymous user not allowed to perform these actions' },
    })

    // Deleted (204): gone from the list, and signing in with it fails (auth-js: 'passkey deletion').
    const deleted = await authCall('DELETE', `/passkeys/${passkeyId}`, undefined, bearer)
    expect(deleted).toEqual({ status: 204, body: null })
    expect((await app.auth.passkey.list()).data).toEqual([])
    const { challengeId, options } = await signInCeremony()
    expect((await verifySignIn(challengeId, authenticator.get(options))).body.code).toBe('webauthn_verification_failed')
    expect(await sql(`select payload->>'action' as action from auth.audit_log_entries where payload->>'actor_id' = '${userId}' and payload->>'action' like 'passkey_%' order by created_at`)).toEqual([
      { action: 'passkey_created' },
      { action: 'passkey_updated' },
      { action: 'passkey_updated' },
      { action: 'passkey_deleted' },
    ])
  })

  it('asks a user with MFA for an aal2 session before adding or removing a passkey', async () => {
    const { app, userId, accessToken } = await signedInUser()
    const passkeyId = await register(app, newAuthenticator())
    // A verified factor, as an enrolment would leave it.
    await sql(`insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
      values (gen_random_uuid(), '${userId}', 'app', 'totp', 'verified', now(), now())`)
    const refused = { status: 403, body: { code: 'insufficient_aal', message: 'AAL2 session is required to manage passkeys when MFA is enabled' } }
    expect(await authCall('POST', '/passkeys/registration/options', {}, accessToken)).toMatchObject(refused)
    expect(await authCall('DELETE', `/passkeys/${passkeyId}`, undefined, accessToken)).toMatchObject(refused)
    // Listing and renaming stay open at aal1, as in GoTrue.
    expect((await authCall('GET', '/passkeys', undefined, accessToken)).status).toBe(200)
  })

  it("lets the service role list and delete a user's passkeys (auth-js: admin passkey management)", async () => {
    const { app, userId } = await signedInUser()
    const first = await register(app, newAuthenticator())
    const second = await register(app, newAuthenticator())
    const admin = client(project.serviceKey).auth.admin
    const listed = await admin.passkey.listPasskeys({ userId })
    expect(listed.error).toBeNull()
    expect(listed.data!.map((passkey) => passkey.id)).toEqual([first, second])
    expect((await admin.passkey.deletePasskey({ userId, passkeyId: second })).error).toBeNull()
    expect((await admin.passkey.listPasskeys({ userId })).data!.map((passkey) => passkey.id)).toEqual([first])

    const key = project.serviceKey
    expect(await authCall('GET', `/admin/users/${userId}/passkeys`)).toMatchObject({ status: 403, body: { code: 'not_admin' } })
    expect(await authCall('DELETE', `/admin/users/${userId}/passkeys/${first}`)).toMatchObject({ status: 403, body: { code: 'not_admin' } })
    expect(await authCall('GET', '/admin/users/not-a-uuid/passkeys', undefined, key, key)).toMatchObject({
      status: 404,
      body: { code: 'validation_failed', message: 'user_id must be an UUID' },
    })
    expect(await authCall('GET', '/admin/users/00000000-0000-0000-0000-000000000000/passkeys', undefined, key, key)).toMatchObject({ status: 404, body: { code: 'user_not_found' } })
    expect(await authCall('DELETE', `/admin/users/${userId}/passkeys/${second}`, undefined, key, key)).toMatchObject({ status: 404, body: { message: 'Passkey not found' } })
    // A user's passkeys go with the user.
    expect((await admin.deleteUser(userId)).error).toBeNull()
    expect(await sql(`select 1 from auth.webauthn_credentials where user_id = '${userId}'`)).toEqual([])
  })
})

describe('WebAuthn MFA factors (GoTrue mfa.go factor_type webauthn)', () => {
  const challenge = (factorId: string, bearer: string) => authCall('POST', `/factors/${factorId}/challenge`, { webauthn: { rpId: RP_ID, rpOrigins: [RP_ORIGIN] } }, bearer)
  const verify = (factorId: string, bearer: string, challengeId: string, webauthn: unknown) =>
    authCall('POST', `/factors/${factorId}/verify`, { challenge_id: challengeId, webauthn }, bearer)

  it('enrolls a security key, verifies it to aal2, then asks it as the second factor of the next sign-in', async () => {
    const { app, userId, email, accessToken } = await signedInUser()
    const enrolled = await app.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'security key' })
    expect(enrolled.error).toBeNull()
    expect(enrolled.data).toEqual({ id: expect.stringMatching(UUID), type: 'webauthn', friendly_name: 'security key' })
    const factorId = enrolled.data!.id

    // An unverified factor's challenge is a creation ceremony.
    const created = await challenge(factorId, accessToken)
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ id: expect.stringMatching(UUID), type: 'webauthn', expires_at: expect.any(Number), webauthn: { type: 'create' } })
    const creation = created.body.webauthn.credential_options.publicKey as CreationOptionsJson
    expect(creation).toMatchObject({ rp: { id: RP_ID, name: 'Stratum tests' }, user: { id: Buffer.from(userId).toString('base64url'), name: email } })

    const key = newAuthenticator()
    const enrolledKey = await verify(factorId, accessToken, created.body.id, { type: 'create', credential_response: key.create(creation) })
    expect(enrolledKey.status).toBe(200)
    const raised = claimsOf(enrolledKey.body.access_token)
    expect(raised.aal).toBe('aal2')
    expect(raised.amr.map((entry: { method: string }) => entry.method)).toEqual(['mfa/webauthn', 'password'])
    const factors = await client(project.serviceKey).auth.admin.mfa.listFactors({ userId })
    expect(factors.data!.factors).toEqual([expect.objectContaining({ id: factorId, factor_type: 'webauthn', status: 'verified', friendly_name: 'security key' })])
    // The challenge is spent.
    expect((await verify(factorId, accessToken, created.body.id, { type: 'create', credential_response: key.create(creation) })).status).toBe(422)

    // A new sign-in with the password is aal1 until the key answers a request ceremony naming its credential.
    const signIn = client()
    const password = await signIn.auth.signInWithPassword({ email, password: 'passkey-password-1' })
    const aal1 = password.data.session!.access_token
    expect(claimsOf(aal1).aal).toBe('aal1')
    const requested = await challenge(factorId, aal1)
    expect(requested.body.webauthn.type).toBe('request')
    const request = requested.body.webauthn.credential_options.publicKey as RequestOptionsJson
    expect(request.allowCredentials).toEqual([{ type: 'public-key', id: key.credentialIdBase64Url, transports: ['usb'] }])

    // A wrong signature is refused and spends the challenge.
    const bad = await verify(factorId, aal1, requested.body.id, { type: 'request', credential_response: withBadSignature(key.get(request)) })
    expect(bad).toMatchObject({ status: 400, body: { code: 'webauthn_verification_failed' } })
    expect(await verify(factorId, aal1, requested.body.id, { type: 'request', credential_response: key.get(request) })).toMatchObject({
      status: 422,
      body: { code: 'mfa_factor_not_found' },
    })

    const again = await challenge(factorId, aal1)
    const answered = await verify(factorId, aal1, again.body.id, { type: 'request', credential_response: key.get(again.body.webauthn.credential_options.publicKey) })
    expect(answered.status).toBe(200)
    expect(claimsOf(answered.body.access_token)).toMatchObject({ aal: 'aal2', session_id: claimsOf(aal1).session_id })
    const [stored] = await sql(`select web_authn_credential->'authenticator'->>'signCount' as count, last_webauthn_challenge_data->>'type' as type from auth.mfa_factors where id = '${factorId}'`)
    expect(stored).toEqual({ count: '3', type: 'request' })

    // Unenrolled at aal2: the sessions it raised go back to aal1.
    const unenrolled = await authCall('DELETE', `/factors/${factorId}`, undefined, answered.body.access_token)
    expect(unenrolled.status).toBe(200)
    const refreshed = await authCall('POST', '/token?grant_type=refresh_token', { refresh_token: answered.body.refresh_token })
    expect(claimsOf(refreshed.body.access_token).aal).toBe('aal1')
  })

  it("refuses malformed answers with GoTrue's texts", async () => {
    const { app, accessToken } = await signedInUser()
    const { data: factor } = await app.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'key' })
    const created = await challenge(factor!.id, accessToken)
    const missing = await authCall('POST', `/factors/${factor!.id}/verify`, { challenge_id: created.body.id }, accessToken)
    expect(missing).toMatchObject({ status: 400, body: { code: 'validation_failed', message: 'WebAuthn config required' } })
    expect(await verify(factor!.id, accessToken, created.body.id, { type: 'other', credential_response: {} })).toMatchObject({
      status: 400,
      body: { message: 'WebAuthn type must be create or request' },
    })
    expect(await verify(factor!.id, accessToken, created.body.id, { type: 'create' })).toMatchObject({ status: 400, body: { message: 'credential_response required' } })
    expect(await verify(factor!.id, accessToken, created.body.id, { type: 'create', credential_response: { id: 1 } })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', message: 'Invalid credential_response' },
    })
    // A request answer for a factor that has no credential yet.
    const next = await challenge(factor!.id, accessToken)
    expect((await verify(factor!.id, accessToken, next.body.id, { type: 'request', credential_response: newAuthenticator().create(next.body.webauthn.credential_options.publicKey) })).status).toBe(400)
  })
})

describe("the project's settings", () => {
  it('keeps passkeys and WebAuthn factors off by default, refused with GoTrue’s texts, and follows the settings', async () => {
    expect(defaults).toMatchObject({
      passkey_enabled: false,
      mfa_web_authn_enroll_enabled: false,
      mfa_web_authn_verify_enabled: false,
      webauthn_rp_id: null,
      webauthn_rp_display_name: null,
      webauthn_rp_origins: null,
    })
    expect(await sql(`select version from auth.schema_migrations where version = 'stratum_auth_4'`)).toHaveLength(1)
    for (const bad of [{ webauthn_rp_id: 'https://example.com' }, { webauthn_rp_origins: 'example.com' }, { webauthn_rp_origins: 'https://example.com/path' }]) {
      expect((await api(t, 'PATCH', `/v1/projects/${project.ref}/config/auth`, { token }, bad)).status).toBe(400)
    }

    // Without a relying party set, the site URL's host and origin are the relying party.
    const { app, userId, accessToken } = await signedInUser()
    await configure({ webauthn_rp_id: null, webauthn_rp_display_name: null, webauthn_rp_origins: null, site_url: 'https://app.example.com' })
    const fallback = (await app.auth.passkey.startRegistration()).data!.options as unknown as CreationOptionsJson
    expect(fallback.rp).toEqual({ id: 'app.example.com', name: 'app.example.com' })
    const site = new SoftwareAuthenticator({ rpId: 'app.example.com', origin: 'https://app.example.com' })
    const start = await app.auth.passkey.startRegistration()
    expect((await app.auth.passkey.verifyRegistration({ challengeId: start.data!.challenge_id, credential: site.create(start.data!.options as never) as never })).error).toBeNull()

    // Sign-in ceremonies are counted per address (rate_limit_otp), from a fresh window.
    await sql(`delete from auth.stratum_rate_limits where key like 'passkey:%'`)
    await configure({ rate_limit_otp: 2 })
    expect((await authCall('POST', '/passkeys/authentication/options', {})).status).toBe(200)
    expect((await authCall('POST', '/passkeys/authentication/options', {})).status).toBe(200)
    expect(await authCall('POST', '/passkeys/authentication/options', {})).toMatchObject({ status: 429, body: { code: 'over_request_rate_limit' } })
    await configure({ rate_limit_otp: 10_000 })

    expect((await authCall('GET', '/settings')).body).toMatchObject({ passkeys_enabled: true, saml_enabled: false })
    const { data: factor } = await app.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'kept' })
    await configure({ passkey_enabled: false, mfa_web_authn_enroll_enabled: false, mfa_web_authn_verify_enabled: false })
    expect((await authCall('GET', '/settings')).body).toMatchObject({ passkeys_enabled: false })
    const disabled = { status: 404, body: { code: 'passkey_disabled', message: 'Passkeys are disabled' } }
    expect(await authCall('POST', '/passkeys/authentication/options', {})).toMatchObject(disabled)
    expect(await authCall('POST', '/passkeys/registration/options', {}, accessToken)).toMatchObject(disabled)
    expect(await authCall('GET', '/passkeys', undefined, accessToken)).toMatchObject(disabled)
    expect((await app.auth.passkey.list()).error).toMatchObject({ status: 404, code: 'passkey_disabled' })
    // The admin routes sit under /admin in GoTrue, not /passkeys: served whatever the setting.
    expect((await client(project.serviceKey).auth.admin.passkey.listPasskeys({ userId })).data).toHaveLength(1)

    expect((await app.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'another' })).error).toMatchObject({
      status: 422,
      code: 'mfa_webauthn_enroll_not_enabled',
      message: 'MFA enroll is disabled for WebAuthn',
    })
    expect(await challenge(factor!.id, accessToken)).toMatchObject({
      status: 422,
      body: { code: 'mfa_webauthn_verify_not_enabled', message: 'MFA verification is disabled for WebAuthn' },
    })
  })

  const challenge = (factorId: string, bearer: string) => authCall('POST', `/factors/${factorId}/challenge`, {}, bearer)
})
