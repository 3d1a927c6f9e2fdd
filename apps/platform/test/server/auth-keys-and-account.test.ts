import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { exportJWK, generateKeyPair } from 'jose'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, login, projectApi, startTestPlatform, tokenFor, waitFor, waitForStatus, type ProjectApi, type TestPlatform } from './harness.js'

/*
 * The auth service's asymmetric signing keys and the account routes GoTrue serves beside sign-in, driven by
 * supabase-js (unmodified) as an app does. Mirrors auth-js's cases: docker-tests/asymmetric-jwt.test.ts ("getClaims
 * fetches JWKS to verify asymmetric jwt"), GoTrueClient.test.ts ("resend", "Reauthentication", "Identity Management":
 * link/unlink with manual linking disabled, "signInWithSSO ... SAML is disabled", "signInWithIdToken fails with
 * disabled provider", web3), GoTrueApi.test.ts ("generateLink supports updating emails with generate email change
 * links": email_change_current; "OAuth Admin" while the OAuth server is off); and rate limits across a restart.
 */

interface OutboxMessage {
  channel: string
  kind: string
  recipient: string
  subject: string
  body: string
}

let t: TestPlatform
let token: string
let cookie: string
let project: ProjectApi

const client = (key = project.anonKey, fetchImpl?: typeof fetch): SupabaseClient =>
  createClient(project.url, key, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
    ...(fetchImpl ? { global: { fetch: fetchImpl } } : {}),
  })

async function sql(query: string) {
  const result = await api(t, 'POST', `/v1/projects/${project.ref}/database/query`, { token }, { query })
  if (result.status >= 300) throw new Error(`${query}: ${JSON.stringify(result.body)}`)
  return result.body as Record<string, unknown>[]
}

const configure = async (change: Record<string, unknown>) => {
  const result = await api(t, 'PATCH', `/v1/projects/${project.ref}/config/auth`, { token }, change)
  expect(result.status, JSON.stringify(result.body)).toBe(200)
  return result.body as Record<string, unknown>
}

const keysPath = () => `/v1/projects/${project.ref}/config/auth/signing-keys`
const headerOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>

/** The messages to `recipient`, newest first, once `count` of them (of that kind) arrived. */
async function messagesTo(recipient: string, kind: string, count = 1): Promise<OutboxMessage[]> {
  let found: OutboxMessage[] = []
  await waitFor(
    async () => {
      const outbox = await api<OutboxMessage[]>(t, 'GET', `/platform/projects/${project.ref}/auth/outbox`, { cookie })
      found = outbox.body.filter((message) => message.recipient === recipient && message.kind === kind)
      return found.length >= count
    },
    { what: `${count} ${kind} message(s) to ${recipient}` },
  )
  return found
}

const linkOf = (message: OutboxMessage) => /href="([^"]+)"/.exec(message.body)![1]!.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))
const codeOf = (message: OutboxMessage) => /code(?: is|:) (\d{6,10})/.exec(message.body)![1]!

async function openLink(link: string): Promise<URLSearchParams> {
  const response = await fetch(link, { redirect: 'manual' })
  expect(response.status).toBe(303)
  return new URLSearchParams(new URL(response.headers.get('location')!).hash.slice(1))
}

/** A raw call to the project's /auth/v1 with the anon key (and a user's token when given), in auth-js's error shape. */
async function authCall(method: string, path: string, body?: unknown, bearer?: string) {
  const response = await fetch(`${project.url}/auth/v1${path}`, {
    method,
    headers: { apikey: project.anonKey, authorization: `Bearer ${bearer ?? project.anonKey}`, 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> | null }
}

let users = 0
async function signedInUser(prefix = 'user'): Promise<{ app: SupabaseClient; email: string; userId: string; accessToken: string }> {
  const app = client()
  const email = `${prefix}-${++users}@example.com`
  const signedUp = await app.auth.signUp({ email, password: 'keys-password-1' })
  expect(signedUp.error).toBeNull()
  const session = signedUp.data.session!
  return { app, email, userId: session.user.id, accessToken: session.access_token }
}

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Auth keys', organization_slug: slug, db_pass: 'keys-test-password-1' })
  await waitForStatus(t, created.body.ref as string, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  project = await projectApi(t, created.body.ref as string, { cookie })
  await configure({ mailer_autoconfirm: true, rate_limit_otp: 10_000, rate_limit_verify: 10_000, rate_limit_email_sent: 10_000, rate_limit_sms_sent: 10_000 })
})
afterAll(() => t?.cleanup())

describe('asymmetric signing keys', () => {
  it('signs with an ES256 key once it is in use, publishes it in the JWKS, and getClaims() verifies the token locally', async () => {
    // Until then: the legacy secret signs (HS256) and the JWKS is empty, with no key of the API.
    const before = await signedInUser('legacy')
    expect(headerOf(before.accessToken)).toMatchObject({ alg: 'HS256' })
    const emptyJwks = await fetch(`${project.url}/auth/v1/.well-known/jwks.json`)
    expect(emptyJwks.status).toBe(200)
    expect(await emptyJwks.json()).toEqual({ keys: [] })

    const listed = await api(t, 'GET', keysPath(), { token })
    expect(listed.status).toBe(200)
    expect(listed.body.keys).toEqual([{ id: expect.any(String), algorithm: 'HS256', status: 'in_use', public_jwk: null, created_at: expect.any(String), updated_at: expect.any(String) }])
    const legacy = await api(t, 'GET', `${keysPath()}/legacy`, { token })
    expect(legacy.body).toMatchObject({ id: listed.body.keys[0].id, algorithm: 'HS256' })

    const created = await api(t, 'POST', keysPath(), { token }, { algorithm: 'ES256' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ algorithm: 'ES256', status: 'standby', public_jwk: { kty: 'EC', crv: 'P-256', kid: created.body.id, alg: 'ES256' } })
    expect(created.body.public_jwk.d).toBeUndefined()
    const kid = created.body.id as string
    // Published while on standby, so verifiers know it before it signs; tokens are still HS256.
    await waitFor(async () => ((await (await fetch(`${project.url}/auth/v1/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }).keys.some((key) => key.kid === kid), {
      what: 'the standby key in the JWKS',
    })
    expect(headerOf((await signedInUser('standby')).accessToken).alg).toBe('HS256')

    const promoted = await api(t, 'PATCH', `${keysPath()}/${kid}`, { token }, { status: 'in_use' })
    expect(promoted.status).toBe(200)
    expect(promoted.body.status).toBe('in_use')
    expect((await api(t, 'GET', keysPath(), { token })).body.keys.map((key: { algorithm: string; status: string }) => `${key.algorithm}:${key.status}`)).toEqual([
      'HS256:previously_used',
      'ES256:in_use',
    ])

    const urls: string[] = []
    const spying: typeof fetch = (input, init) => {
      urls.push(String(input instanceof Request ? input.url : input))
      return fetch(input, init)
    }
    const app = client(project.anonKey, spying)
    let accessToken = ''
    await waitFor(
      async () => {
        const signedUp = await app.auth.signUp({ email: `es256-${++users}@example.com`, password: 'keys-password-1' })
        accessToken = signedUp.data.session?.access_token ?? ''
        return headerOf(accessToken).alg === 'ES256'
      },
      { what: 'an ES256 access token' },
    )
    expect(headerOf(accessToken)).toEqual({ alg: 'ES256', typ: 'JWT', kid })
    urls.length = 0
    const claims = await app.auth.getClaims()
    expect(claims.error).toBeNull()
    expect(claims.data!.claims).toMatchObject({ role: 'authenticated', aud: 'authenticated', iss: `${project.url}/auth/v1` })
    // Verified with the published key: the JWKS was fetched, /user (the server-side check) was not.
    expect(urls).toEqual([`${project.url}/auth/v1/.well-known/jwks.json`])

    // The other services accept it: the auth service's /user, storage (its claims come from the gateway).
    expect((await app.auth.getUser(accessToken)).error).toBeNull()
    expect((await app.storage.listBuckets()).error).toBeNull()
    // PostgREST verifies it with the JWKS it is given (the legacy secret beside the public keys).
    await sql('create table public.es256_notes (id int primary key); grant select on public.es256_notes to authenticated')
    await waitFor(async () => (await app.from('es256_notes').select()).error === null, { what: 'the data API accepting the ES256 token' })
    // Realtime verifies the join's token itself.
    const joined = await new Promise<string>((resolve) => app.channel('es256-room').subscribe((status, error) => resolve(error ? `${status}: ${error.message}` : status)))
    expect(joined).toBe('SUBSCRIBED')
    await app.removeAllChannels()
    // An HS256 token of before, and the legacy keys, still verify.
    expect((await client().auth.getUser(before.accessToken)).error).toBeNull()
    expect((await authCall('GET', '/settings')).status).toBe(200)
  })

  it('rotates: the key before keeps verifying its tokens until it is revoked; only a revoked key is removed', async () => {
    const es256 = await signedInUser('rotation')
    const esKid = headerOf(es256.accessToken).kid as string
    expect(esKid).toBeTruthy()

    const rsa = await api(t, 'POST', keysPath(), { token }, { algorithm: 'RS256', status: 'in_use' })
    expect(rsa.status).toBe(201)
    expect(rsa.body).toMatchObject({ algorithm: 'RS256', status: 'in_use', public_jwk: { kty: 'RSA', e: 'AQAB' } })
    let rsToken = ''
    await waitFor(
      async () => {
        rsToken = (await signedInUser('rs256')).accessToken
        return headerOf(rsToken).alg === 'RS256'
      },
      { what: 'an RS256 access token' },
    )
    expect(headerOf(rsToken).kid).toBe(rsa.body.id)
    expect((await api(t, 'GET', `${keysPath()}/${esKid}`, { token })).body.status).toBe('previously_used')
    expect((await client().auth.getUser(es256.accessToken)).error).toBeNull()
    expect((await client().auth.getUser(rsToken)).error).toBeNull()

    // The key in use changes only by putting another in use; a key not revoked stays.
    expect((await api(t, 'PATCH', `${keysPath()}/${rsa.body.id}`, { token }, { status: 'revoked' })).status).toBe(400)
    expect((await api(t, 'DELETE', `${keysPath()}/${esKid}`, { token })).status).toBe(400)
    const legacyId = (await api(t, 'GET', `${keysPath()}/legacy`, { token })).body.id
    expect((await api(t, 'PATCH', `${keysPath()}/${legacyId}`, { token }, { status: 'revoked' })).status).toBe(400)
    expect((await api(t, 'POST', keysPath(), { token }, { algorithm: 'EdDSA' })).status).toBe(400)
    expect((await api(t, 'POST', keysPath(), { token }, { algorithm: 'ES256', private_jwk: { kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA', d: 'AA' } })).status).toBe(400)

    expect((await api(t, 'PATCH', `${keysPath()}/${esKid}`, { token }, { status: 'revoked' })).body.status).toBe('revoked')
    await waitFor(async () => (await client().auth.getUser(es256.accessToken)).error?.status === 403, { what: 'the revoked key refused' })
    const jwks = (await (await fetch(`${project.url}/auth/v1/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }
    expect(jwks.keys.map((key) => key.kid)).toEqual([rsa.body.id])
    expect((await api(t, 'DELETE', `${keysPath()}/${esKid}`, { token })).status).toBe(200)
    expect((await api(t, 'GET', `${keysPath()}/${esKid}`, { token })).status).toBe(404)
    // Back to the legacy secret: tokens are HS256 again and every earlier one still verifies where its key does.
    expect((await api(t, 'PATCH', `${keysPath()}/${legacyId}`, { token }, { status: 'in_use' })).body.status).toBe('in_use')
    await waitFor(async () => headerOf((await signedInUser('back')).accessToken).alg === 'HS256', { what: 'HS256 tokens again' })
    expect((await client().auth.getUser(rsToken)).error).toBeNull()
    // A private key brought along (private_jwk) is taken when its halves agree; its public half is published.
    const jwk = await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey)
    const imported = await api(t, 'POST', keysPath(), { token }, { algorithm: 'ES256', private_jwk: jwk })
    expect(imported.status).toBe(201)
    expect(imported.body.public_jwk).toMatchObject({ x: jwk.x, y: jwk.y, kid: imported.body.id })
    expect(imported.body.public_jwk.d).toBeUndefined()
    expect((await api(t, 'PATCH', `${keysPath()}/${imported.body.id}`, { token }, { status: 'revoked' })).status).toBe(200)
    expect((await api(t, 'DELETE', `${keysPath()}/${imported.body.id}`, { token })).status).toBe(200)
    // Reading keys is for members; changing them for those who may change the project's secrets.
    expect((await api(t, 'GET', keysPath(), {})).status).toBe(401)
  })
})

describe('account routes', () => {
  it('resends the sign-up confirmation and a pending email change, and answers unknown addresses the same', async () => {
    await configure({ mailer_autoconfirm: false, smtp_max_frequency: 0 })
    try {
      const app = client()
      const email = `resend-${++users}@example.com`
      expect((await app.auth.signUp({ email, password: 'keys-password-1' })).error).toBeNull()
      await messagesTo(email, 'confirmation')
      expect((await app.auth.resend({ type: 'signup', email })).error).toBeNull()
      const [latest] = await messagesTo(email, 'confirmation', 2)
      expect((await openLink(linkOf(latest!))).get('access_token')).toBeTruthy()
      // Confirmed now, and an unknown address: the same empty answer, nothing sent.
      expect(await authCall('POST', '/resend', { type: 'signup', email })).toEqual({ status: 200, body: {} })
      expect(await authCall('POST', '/resend', { type: 'signup', email: 'nobody-here@example.com' })).toEqual({ status: 200, body: {} })
      expect(await authCall('POST', '/resend', { email })).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', message: 'Missing one of these types: signup, email_change, sms, phone_change' },
      })
      expect((await authCall('POST', '/resend', { type: 'sms', phone: '15550001111' })).body).toMatchObject({ code: 'phone_provider_disabled' })
      expect((await app.auth.resend({} as never)).error?.message).toContain('You must provide either an email or phone number')
    } finally {
      await configure({ mailer_autoconfirm: true, smtp_max_frequency: 60 })
    }
  })

  it('signs in a test number with its fixed code (sms_test_otp), sending nothing, and resends an SMS confirmation', async () => {
    await configure({ external_phone_enabled: true, sms_test_otp: '15550001234=123456' })
    try {
      const app = client()
      expect((await app.auth.signInWithOtp({ phone: '+15550001234' })).error).toBeNull()
      const verified = await app.auth.verifyOtp({ phone: '+15550001234', token: '123456', type: 'sms' })
      expect(verified.error).toBeNull()
      expect(verified.data.user!.phone).toBe('15550001234')

      expect((await client().auth.signUp({ phone: '+15550009999', password: 'keys-password-1' })).error).toBeNull()
      await messagesTo('+15550009999', 'confirmation')
      expect((await client().auth.resend({ type: 'sms', phone: '+15550009999' })).error).toBeNull()
      await messagesTo('+15550009999', 'confirmation', 2)
      const outbox = await api<OutboxMessage[]>(t, 'GET', `/platform/projects/${project.ref}/auth/outbox`, { cookie })
      expect(outbox.body.filter((message) => message.recipient === '+15550001234')).toEqual([])
      expect((await api(t, 'PATCH', `/v1/projects/${project.ref}/config/auth`, { token }, { sms_test_otp: 'not pairs' })).status).toBe(400)
      // WhatsApp needs Twilio (GoTrue's rule); the outbox is no such provider (auth-js docker-tests phone-otp cases).
      const whatsapp = await client().auth.signInWithOtp({ phone: '+15550001234', options: { channel: 'whatsapp' } })
      expect(whatsapp.error).toMatchObject({ status: 400, code: 'validation_failed' })
      expect(whatsapp.error!.message).toMatch(/^Invalid channel/)
      expect((await client().auth.resend({ type: 'phone_change', phone: '+15550007777' })).error).toBeNull()
    } finally {
      await configure({ external_phone_enabled: false, sms_test_otp: null })
    }
  })

  it('confirms an email change from both addresses (secure email change), and resends it', async () => {
    await configure({ mailer_autoconfirm: false, smtp_max_frequency: 0 })
    try {
      const email = `secure-${++users}@example.com`
      await client(project.serviceKey).auth.admin.createUser({ email, password: 'keys-password-1', email_confirm: true })
      const app = client()
      expect((await app.auth.signInWithPassword({ email, password: 'keys-password-1' })).error).toBeNull()
      const newEmail = `secure-new-${users}@example.com`
      const changed = await app.auth.updateUser({ email: newEmail })
      expect(changed.error).toBeNull()
      expect(changed.data.user).toMatchObject({ email, new_email: newEmail })
      expect((await app.auth.resend({ type: 'email_change', email })).error).toBeNull()
      const [current] = await messagesTo(email, 'email_change_current', 2)
      const [toNew] = await messagesTo(newEmail, 'email_change', 2)
      expect(current!.subject).toBe('Confirm Email Change')

      const first = await openLink(linkOf(current!))
      expect(first.get('message')).toBe('Confirmation link accepted. Please proceed to confirm link sent to the other email')
      expect((await app.auth.getUser()).data.user).toMatchObject({ email, new_email: newEmail })
      const second = await app.auth.verifyOtp({ type: 'email_change', email: newEmail, token: codeOf(toNew!) })
      expect(second.error).toBeNull()
      expect(second.data.user!.email).toBe(newEmail)
    } finally {
      await configure({ mailer_autoconfirm: true, smtp_max_frequency: 60 })
    }
  })

  it('needs the reauthentication nonce for a password change of an older session when the project asks for it', async () => {
    await configure({ security_update_password_require_reauthentication: true, smtp_max_frequency: 0 })
    try {
      const { app, email, userId } = await signedInUser('reauth')
      // A session signed in within 24 hours changes the password without one (GoTrue's rule).
      expect((await app.auth.updateUser({ password: 'keys-password-2' })).error).toBeNull()
      await sql(`update auth.sessions set created_at = now() - interval '2 days' where user_id = '${userId}'`)
      expect((await app.auth.updateUser({ password: 'keys-password-3' })).error).toMatchObject({
        status: 400,
        code: 'reauthentication_needed',
        message: 'Password update requires reauthentication',
      })
      const sent = await app.auth.reauthenticate()
      expect(sent.error).toBeNull()
      expect(sent.data).toEqual({ user: null, session: null })
      const [message] = await messagesTo(email, 'reauthentication')
      expect(message!.subject).toBe('Confirm reauthentication')
      const nonce = codeOf(message!)
      const wrong = nonce === '000000' ? '111111' : '000000'
      expect((await app.auth.updateUser({ password: 'keys-password-3', nonce: wrong })).error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' })
      expect((await app.auth.updateUser({ password: 'keys-password-3', nonce })).error).toBeNull()
      // Used up.
      expect((await app.auth.updateUser({ password: 'keys-password-4', nonce })).error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' })
      expect((await client().auth.signInWithPassword({ email, password: 'keys-password-3' })).error).toBeNull()
      // Without a signed-in user (the anon key as the bearer): GoTrue's text.
      expect(await authCall('GET', '/reauthenticate')).toEqual({
        status: 400,
        body: { code: 'validation_failed', message: 'Reauthentication requires the user to have an email or a phone number' },
      })
    } finally {
      await configure({ security_update_password_require_reauthentication: false, smtp_max_frequency: 60 })
    }
  })

  it('refuses linking and unlinking while manual linking is off, and unlinks an identity when it is on', async () => {
    const { app, userId } = await signedInUser('link')
    const linked = await app.auth.linkIdentity({ provider: 'google', options: { redirectTo: 'http://localhost:3000', skipBrowserRedirect: true } })
    expect(linked.error?.message).toContain('Manual linking is disabled')
    const identities = await app.auth.getUserIdentities()
    expect(identities.data!.identities).toHaveLength(1)
    expect((await app.auth.unlinkIdentity(identities.data!.identities[0]!)).error).toMatchObject({ status: 404, code: 'manual_linking_disabled' })

    expect((await configure({ security_manual_linking_enabled: true })).security_manual_linking_enabled).toBe(true)
    try {
      // On, linking goes to the provider's OAuth flow: no provider can be enabled here, as GoTrue says of a disabled one.
      const onLinked = await app.auth.linkIdentity({ provider: 'google', options: { skipBrowserRedirect: true } })
      expect(onLinked.error).toMatchObject({ status: 400, message: 'Unsupported provider: provider is not enabled' })
      expect((await authCall('GET', '/authorize?provider=nope')).body).toMatchObject({ message: 'Unsupported provider: Provider nope could not be found' })
      expect((await app.auth.unlinkIdentity(identities.data!.identities[0]!)).error).toMatchObject({ status: 422, code: 'single_identity_not_deletable' })
      await sql(
        `insert into auth.identities (provider_id, user_id, identity_data, provider) values ('gh-${userId}', '${userId}', '{"sub":"gh-${userId}"}', 'github')`,
      )
      const two = await app.auth.getUserIdentities()
      const github = two.data!.identities.find((identity) => identity.provider === 'github')!
      expect((await app.auth.unlinkIdentity(github)).error).toBeNull()
      expect((await app.auth.getUserIdentities()).data!.identities.map((identity) => identity.provider)).toEqual(['email'])
      expect((await authCall('DELETE', '/user/identities/not-a-uuid', undefined, (await app.auth.getSession()).data.session!.access_token)).status).toBe(404)
    } finally {
      await configure({ security_manual_linking_enabled: false })
    }
  })

  it('generates the current address link of a secure email change (email_change_current)', async () => {
    const email = `gen-${++users}@example.com`
    const admin = client(project.serviceKey)
    await admin.auth.admin.createUser({ email, password: 'keys-password-1', email_confirm: true })
    const newEmail = `gen-new-${users}@example.com`
    const generated = await admin.auth.admin.generateLink({ type: 'email_change_current', email, newEmail, options: { redirectTo: 'http://localhost:3000/welcome' } })
    expect(generated.error).toBeNull()
    expect(generated.data.user).toMatchObject({ email, new_email: newEmail })
    expect(generated.data.properties).toMatchObject({ verification_type: 'email_change', email_otp: expect.any(String) })
    expect(generated.data.properties!.action_link).toMatch(/type=email_change/)
    await configure({ mailer_secure_email_change_enabled: false })
    try {
      const refused = await admin.auth.admin.generateLink({ type: 'email_change_current', email, newEmail })
      expect(refused.error).toMatchObject({ status: 400, message: 'Enable secure email change to generate link for current email' })
    } finally {
      await configure({ mailer_secure_email_change_enabled: true })
    }
  })
})

describe('MFA with a phone factor', () => {
  it('enrolls a phone, verifies the code sent by SMS to reach aal2 (mfa/phone), lists and unenrolls it', async () => {
    const { app } = await signedInUser('phone-mfa')
    expect((await app.auth.mfa.enroll({ factorType: 'phone', phone: '+15550003333' })).error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_not_enabled' })
    await configure({ mfa_phone_enroll_enabled: true, mfa_phone_verify_enabled: true, mfa_phone_max_frequency: 0 })
    try {
      expect((await app.auth.mfa.enroll({ factorType: 'phone', phone: 'not a phone' })).error).toMatchObject({ status: 400, message: 'Invalid phone number format (E.164 required)' })
      const enrolled = await app.auth.mfa.enroll({ factorType: 'phone', phone: '+15550003333', friendlyName: 'my phone' })
      expect(enrolled.error).toBeNull()
      expect(enrolled.data).toMatchObject({ type: 'phone', friendly_name: 'my phone', phone: '+15550003333' })
      const factorId = enrolled.data!.id
      const challenge = await app.auth.mfa.challenge({ factorId })
      expect(challenge.error).toBeNull()
      expect(challenge.data).toMatchObject({ type: 'phone', expires_at: expect.any(Number) })
      const [sms] = await messagesTo('+15550003333', 'mfa')
      const code = /Your code is (\d+)/.exec(sms!.body)![1]!
      const wrong = code === '000000' ? '111111' : '000000'
      expect((await app.auth.mfa.verify({ factorId, challengeId: challenge.data!.id, code: wrong })).error).toMatchObject({
        status: 422,
        code: 'mfa_verification_failed',
        message: 'Invalid MFA Phone code entered',
      })
      const verified = await app.auth.mfa.verify({ factorId, challengeId: challenge.data!.id, code })
      expect(verified.error).toBeNull()
      const aal = await app.auth.mfa.getAuthenticatorAssuranceLevel()
      expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' })
      expect(aal.data!.currentAuthenticationMethods.map((entry) => (typeof entry === 'string' ? entry : entry.method))).toContain('mfa/phone')
      const factors = await app.auth.mfa.listFactors()
      expect(factors.data!.phone).toMatchObject([{ id: factorId, status: 'verified', factor_type: 'phone', phone: '15550003333' }])
      // The same number again while verified: refused.
      expect((await app.auth.mfa.enroll({ factorType: 'phone', phone: '+15550003333', friendlyName: 'again' })).error).toMatchObject({ code: 'mfa_verified_factor_exists' })
      expect((await app.auth.mfa.unenroll({ factorId })).error).toBeNull()
      await app.auth.refreshSession()
      expect((await app.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' })
    } finally {
      await configure({ mfa_phone_enroll_enabled: false, mfa_phone_verify_enabled: false, mfa_phone_max_frequency: 5 })
    }
  })
})

describe('features that are off, refused with GoTrue texts', () => {
  it('SSO, web3, id_token, the OAuth server and passkeys', async () => {
    const sso = await client().auth.signInWithSSO({ domain: 'example.com' })
    expect(sso.error).toMatchObject({ status: 404, code: 'saml_provider_disabled', message: 'SAML 2.0 is disabled' })
    expect(await authCall('POST', '/token?grant_type=web3', { chain: 'solana', message: 'm', signature: 's' })).toMatchObject({
      status: 422,
      body: { code: 'web3_provider_disabled', message: 'Web3 provider is disabled' },
    })
    const idToken = await client().auth.signInWithIdToken({ provider: 'google', token: 'mock-id-token', nonce: 'mock-nonce' })
    expect(idToken.error).toMatchObject({ status: 400, code: 'provider_disabled', message: 'Provider (issuer "https://accounts.google.com") is not enabled' })
    expect(idToken.data.session).toBeNull()
    expect((await authCall('POST', '/token?grant_type=id_token', { provider: 'google' })).body).toEqual({ error: 'invalid request', error_description: 'id_token required' })
    expect((await client().auth.signInWithIdToken({ provider: 'custom:my-oidc', token: 'x' })).error?.status).toBe(400)

    const clients = await client(project.serviceKey).auth.admin.oauth.listClients()
    expect(clients.error).toMatchObject({ status: 404, code: 'feature_disabled', message: 'OAuth server is disabled' })
    expect((await client().auth.admin.oauth.listClients()).error).toMatchObject({ status: 403, code: 'not_admin' })
    expect((await authCall('POST', '/passkeys/authentication/options', {})).body).toMatchObject({ code: 'passkey_disabled', message: 'Passkeys are disabled' })

    // The settings say so: these stay off.
    const refused = await api(t, 'PATCH', `/v1/projects/${project.ref}/config/auth`, { token }, { saml_enabled: true })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toContain('not offered on this platform')
    expect((await api(t, 'GET', `/v1/projects/${project.ref}/config/auth`, { token })).body).toMatchObject({
      saml_enabled: false,
      oauth_server_enabled: false,
      external_web3_solana_enabled: false,
      security_manual_linking_enabled: false,
      mailer_secure_email_change_enabled: true,
      smtp_max_frequency: 60,
    })
  })
})

describe('rate limits', () => {
  it('keeps counting across a restart of the platform', async () => {
    await configure({ rate_limit_otp: 3 })
    // The windows so far (every sign-in of this file, from one address) start again.
    await sql('delete from auth.stratum_rate_limits')
    const email = `limited-${++users}@example.com`
    const guess = async () => (await client().auth.signInWithPassword({ email, password: 'not-the-password' })).error?.status
    expect([await guess(), await guess(), await guess()]).toEqual([400, 400, 400])
    await t.platform.close()
    await t.restart()
    project = await projectApi(t, project.ref, { cookie })
    await waitFor(async () => (await authCall('GET', '/settings')).status === 200, { what: 'the project served again' })
    expect(await guess()).toBe(429)
    await configure({ rate_limit_otp: 10_000 })
  })
})
