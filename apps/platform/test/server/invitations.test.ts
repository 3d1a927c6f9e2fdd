import { INSTALLATION_TEXTS, INVITATION_TEXTS } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '../../src/auth/users.js'
import { api, login, memberWithRole, startTestPlatform, tokenFor, type ApiResult, type Caller, type TestPlatform } from './harness.js'

/**
 * Accounts by invitation (issue 9, point 7): adding a member creates an invitation that the
 * invitee accepts, with a one-time link; nobody learns another person's password; who may create
 * organizations and change plans is an installation setting.
 */
let t: TestPlatform
let owner: Caller // the installation's owner (first account), owner of the "real" organization
let realSlug: string
let outsider: Caller // another account, owner of an organization of its own
let outsiderSlug: string

const tokenOf = (url: string) => url.split('/invite/')[1]!
const cookieOf = (result: ApiResult) => ({ cookie: (result.headers.get('set-cookie') ?? '').split(';')[0]! })
const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@corp.example`

async function invite(caller: Caller, slug: string, email: string, role = 'developer'): Promise<{ url: string; id: string }> {
  const result = await api(t, 'POST', `/platform/organizations/${slug}/members/invitations`, caller, { email, role })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return { url: result.body.invitation_url, id: result.body.invitation.id }
}

/** An account that exists but belongs to no organization, signed in. */
async function account(email: string, password = 'account-password-1'): Promise<Caller> {
  await createUser(t.platform.ctx.db, email, password)
  return { cookie: await login(t, email, password) }
}

async function orgSlugs(caller: Caller): Promise<string[]> {
  return (await api(t, 'GET', '/platform/organizations', caller)).body.map((o: { slug: string }) => o.slug)
}

async function isMember(slug: string, email: string): Promise<boolean> {
  const { rowCount } = await t.platform.ctx.db.query(
    `SELECT 1 FROM members m JOIN users u ON u.id = m.user_id JOIN organizations o ON o.id = m.organization_id
     WHERE o.slug = $1 AND u.email = $2`,
    [slug, email],
  )
  return rowCount === 1
}

beforeAll(async () => {
  t = await startTestPlatform()
  owner = { cookie: await login(t) }
  realSlug = (await api(t, 'GET', '/platform/organizations', owner)).body[0].slug
  outsider = await account('outsider@elsewhere.example')
  const created = await api(t, 'POST', '/platform/organizations', outsider, { name: 'Outsider Inc' })
  expect(created.status).toBe(201)
  outsiderSlug = created.body.slug
})
afterAll(() => t?.cleanup())

describe('account pre-hijacking', () => {
  it('an outsider who invites an address first never gets a password, never gets in, and the person chooses', async () => {
    // The outsider invites the new hire before the real organization does (padded, mixed case).
    const early = await api(t, 'POST', `/platform/organizations/${outsiderSlug}/members/invitations`, outsider, { email: '  NewHire@Corp.Example ', role: 'owner' })
    expect(early.status).toBe(201)
    expect(early.body.invitation).toMatchObject({ email: 'newhire@corp.example', role: 'owner', invited_by: 'outsider@elsewhere.example', expired: false })
    expect(early.body.invitation_url).toMatch(/\/invite\/[\w-]{43}$/)
    expect(JSON.stringify(early.body)).not.toMatch(/password/i)
    // No account exists for the address: nothing was created on the invitee's behalf.
    expect((await t.platform.ctx.db.query(`SELECT 1 FROM users WHERE email = 'newhire@corp.example'`)).rowCount).toBe(0)
    // Only the hash of the link is stored.
    const stored = await t.platform.ctx.db.query<{ token_hash: string }>(`SELECT token_hash FROM invitations WHERE email = 'newhire@corp.example'`)
    expect(stored.rows[0]!.token_hash).not.toContain(tokenOf(early.body.invitation_url))

    // The real organization invites the same address later.
    const real = await invite(owner, realSlug, 'newhire@corp.example', 'developer')
    const details = await api(t, 'GET', `/platform/invitations/${tokenOf(real.url)}`)
    expect(details.status).toBe(200)
    expect(details.body).toMatchObject({ email: 'newhire@corp.example', role: 'developer', account_exists: false, invited_by: 'owner@example.com' })

    // The person opens the real link and sets their own password: account created, org joined, signed in.
    const signedUp = await api(t, 'POST', `/platform/invitations/${tokenOf(real.url)}/sign-up`, {}, { password: 'newhire-password-1' })
    expect(signedUp.status, JSON.stringify(signedUp.body)).toBe(201)
    expect(signedUp.body.organization).toMatchObject({ slug: realSlug, role: 'developer' })
    const newhire = cookieOf(signedUp)
    expect(await orgSlugs(newhire)).toEqual([realSlug])
    expect((await api(t, 'GET', '/platform/profile', newhire)).body).toMatchObject({ primary_email: 'newhire@corp.example', password_change_required: false })

    // The outsider's invitation is shown to them, not applied; they decline it.
    const received = await api(t, 'GET', '/platform/profile/invitations', newhire)
    expect(received.body).toEqual([expect.objectContaining({ organization_name: 'Outsider Inc', role: 'owner', invited_by: 'outsider@elsewhere.example' })])
    expect((await api(t, 'DELETE', `/platform/profile/invitations/${received.body[0].id}`, newhire)).status).toBe(200)
    expect((await api(t, 'GET', '/platform/profile/invitations', newhire)).body).toEqual([])
    expect((await api(t, 'GET', `/platform/invitations/${tokenOf(early.body.invitation_url)}`)).status).toBe(404)

    // The outsider gained nothing: no member, no access to the real organization, no way in.
    expect(await isMember(outsiderSlug, 'newhire@corp.example')).toBe(false)
    expect(await isMember(realSlug, 'outsider@elsewhere.example')).toBe(false)
    expect((await api(t, 'GET', `/platform/organizations/${realSlug}`, outsider)).status).toBe(404)
    expect((await api(t, 'GET', `/platform/organizations/${outsiderSlug}/members/invitations`, outsider)).body).toEqual([])
    expect((await api(t, 'POST', '/api/auth/login', {}, { email: 'newhire@corp.example', password: 'newhire-password-1' })).status).toBe(200)
  })

  it('an outsider who opens its own link to squat an address cannot accept the real organization’s invitation', async () => {
    const squatted = unique('squatted')
    const early = await invite(outsider, outsiderSlug, squatted)
    const squat = cookieOf(await api(t, 'POST', `/platform/invitations/${tokenOf(early.url)}/sign-up`, {}, { password: 'squatter-password-1' }))
    const real = await invite(owner, realSlug, squatted)

    // The squatter sees the invitation addressed to "its" email but has no way to accept it without the link.
    const received = (await api(t, 'GET', '/platform/profile/invitations', squat)).body
    expect(received).toEqual([expect.objectContaining({ id: real.id })])
    expect((await api(t, 'POST', `/platform/profile/invitations/${real.id}/accept`, squat)).status).toBe(404)
    expect((await api(t, 'POST', `/platform/invitations/${real.id}/accept`, squat)).status).toBe(400)
    expect(await isMember(realSlug, squatted)).toBe(false)

    // The link's holder is told to sign in; the link does not take the existing account over.
    expect((await api(t, 'GET', `/platform/invitations/${tokenOf(real.url)}`)).body.account_exists).toBe(true)
    const takeover = await api(t, 'POST', `/platform/invitations/${tokenOf(real.url)}/sign-up`, {}, { password: 'takeover-password-1' })
    expect(takeover.status).toBe(409)
    expect(takeover.body.message).toBe(INVITATION_TEXTS.accountExists)
    expect((await api(t, 'POST', '/api/auth/login', {}, { email: squatted, password: 'takeover-password-1' })).status).toBe(401)
    expect(await isMember(realSlug, squatted)).toBe(false)
  })
})

describe('an existing account', () => {
  it('joins only when, signed in as the invited address, it accepts with the link', async () => {
    const email = unique('existing')
    const invitee = await account(email)
    const { url } = await invite(owner, realSlug, email, 'read_only')
    expect(await isMember(realSlug, email)).toBe(false)
    expect(await orgSlugs(invitee)).toEqual([])

    expect((await api(t, 'POST', `/platform/invitations/${tokenOf(url)}/accept`, {})).status).toBe(401)
    const stranger = await account(unique('stranger'))
    const wrong = await api(t, 'POST', `/platform/invitations/${tokenOf(url)}/accept`, stranger)
    expect(wrong.status).toBe(403)
    expect(wrong.body.message).toContain(`This invitation is for ${email}`)
    expect((await api(t, 'DELETE', `/platform/profile/invitations/${(await api(t, 'GET', `/platform/invitations/${tokenOf(url)}`)).body.id}`, stranger)).status).toBe(404)

    const accepted = await api(t, 'POST', `/platform/invitations/${tokenOf(url)}/accept`, invitee)
    expect(accepted.status).toBe(200)
    expect(accepted.body.organization).toMatchObject({ slug: realSlug, role: 'read_only' })
    expect(await orgSlugs(invitee)).toEqual([realSlug])
    // Used: the link no longer works, for anyone.
    const again = await api(t, 'POST', `/platform/invitations/${tokenOf(url)}/accept`, invitee)
    expect(again.status).toBe(410)
    expect(again.body.message).toBe(INVITATION_TEXTS.used)
    // A member is not invited again.
    const member = await api(t, 'POST', `/platform/organizations/${realSlug}/members/invitations`, owner, { email, role: 'developer' })
    expect(member.status).toBe(409)
    expect(member.body.message).toBe(`${email} is already a member of this organization`)
  })
})

describe('the link', () => {
  it('works once', async () => {
    const email = unique('once')
    const { url } = await invite(owner, realSlug, email)
    expect((await api(t, 'POST', `/platform/invitations/${tokenOf(url)}/sign-up`, {}, { password: 'first-password-1' })).status).toBe(201)
    const second = await api(t, 'POST', `/platform/invitations/${tokenOf(url)}/sign-up`, {}, { password: 'second-password-1' })
    expect(second.status).toBe(410)
    expect(second.body.message).toBe(INVITATION_TEXTS.used)
    expect((await api(t, 'GET', `/platform/invitations/${tokenOf(url)}`)).status).toBe(410)
    expect((await api(t, 'POST', '/api/auth/login', {}, { email, password: 'second-password-1' })).status).toBe(401)
  })

  it('expires, shows as expired to the organization, and can then be replaced by a new one', async () => {
    const email = unique('late')
    const { url, id } = await invite(owner, realSlug, email)
    const again = await api(t, 'POST', `/platform/organizations/${realSlug}/members/invitations`, owner, { email, role: 'developer' })
    expect(again.status).toBe(409)
    await t.platform.ctx.db.query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [id])

    const details = await api(t, 'GET', `/platform/invitations/${tokenOf(url)}`)
    expect(details.status).toBe(410)
    expect(details.body.message).toBe(INVITATION_TEXTS.expired)
    expect((await api(t, 'POST', `/platform/invitations/${tokenOf(url)}/sign-up`, {}, { password: 'late-password-1' })).status).toBe(410)
    expect((await t.platform.ctx.db.query('SELECT 1 FROM users WHERE email = $1', [email])).rowCount).toBe(0)
    const listed = (await api(t, 'GET', `/platform/organizations/${realSlug}/members/invitations`, owner)).body
    expect(listed.find((i: { id: string }) => i.id === id)).toMatchObject({ email, expired: true })

    const renewed = await invite(owner, realSlug, email)
    expect(renewed.id).not.toBe(id)
    expect((await api(t, 'GET', `/platform/invitations/${tokenOf(renewed.url)}`)).status).toBe(200)
    expect((await api(t, 'GET', `/platform/invitations/${tokenOf(url)}`)).status).toBe(404)
  })

  it('lasts seven days', async () => {
    const created = await api(t, 'POST', `/platform/organizations/${realSlug}/members/invitations`, owner, { email: unique('week'), role: 'developer' })
    const { created_at, expires_at } = created.body.invitation
    expect(new Date(expires_at).getTime() - new Date(created_at).getTime()).toBe(7 * 24 * 3600 * 1000)
  })

  it('refuses a cross-site sign-up', async () => {
    const { url } = await invite(owner, realSlug, unique('csrf'))
    const result = await api(t, 'POST', `/platform/invitations/${tokenOf(url)}/sign-up`, { origin: 'http://evil.example' }, { password: 'csrf-password-1' })
    expect(result.status).toBe(403)
    expect((await api(t, 'GET', `/platform/invitations/${tokenOf(url)}`)).status).toBe(200)
  })
})

describe('revocation', () => {
  it('kills the link and removes the invitation from the list', async () => {
    const email = unique('revoked')
    const { url, id } = await invite(owner, realSlug, email)
    const revoked = await api(t, 'DELETE', `/platform/organizations/${realSlug}/members/invitations/${id}`, owner)
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({ id })
    const link = await api(t, 'GET', `/platform/invitations/${tokenOf(url)}`)
    expect(link.status).toBe(404)
    expect(link.body.message).toBe(INVITATION_TEXTS.notFound)
    expect((await api(t, 'POST', `/platform/invitations/${tokenOf(url)}/sign-up`, {}, { password: 'revoked-password-1' })).status).toBe(404)
    const listed = (await api(t, 'GET', `/platform/organizations/${realSlug}/members/invitations`, owner)).body
    expect(listed.some((i: { id: string }) => i.id === id)).toBe(false)
    expect((await api(t, 'DELETE', `/platform/organizations/${realSlug}/members/invitations/${id}`, owner)).status).toBe(404)
  })

  it('only within the organization that made it', async () => {
    const { id } = await invite(outsider, outsiderSlug, unique('theirs'))
    expect((await api(t, 'DELETE', `/platform/organizations/${realSlug}/members/invitations/${id}`, owner)).status).toBe(404)
    expect((await t.platform.ctx.db.query('SELECT 1 FROM invitations WHERE id = $1', [id])).rowCount).toBe(1)
  })
})

describe('who may invite', () => {
  it('refuses Developers and Read-only members, and Administrators for owners; outsiders see nothing', async () => {
    const developer = { token: (await memberWithRole(t, realSlug, 'developer')).token }
    const reader = { token: (await memberWithRole(t, realSlug, 'read_only')).token }
    const admin = { token: (await memberWithRole(t, realSlug, 'administrator')).token }
    const { id: ownerInvitation } = await invite(owner, realSlug, unique('future-owner'), 'owner')
    const count = async () => Number((await t.platform.ctx.db.query('SELECT count(*) FROM invitations')).rows[0].count)
    const before = await count()

    for (const caller of [developer, reader]) {
      const invited = await api(t, 'POST', `/platform/organizations/${realSlug}/members/invitations`, caller, { email: unique('nope'), role: 'read_only' })
      expect(invited.status).toBe(403)
      expect(invited.body.message).toBe('You need additional permissions to manage members of this organization')
      expect((await api(t, 'GET', `/platform/organizations/${realSlug}/members/invitations`, caller)).status).toBe(403)
      expect((await api(t, 'DELETE', `/platform/organizations/${realSlug}/members/invitations/${ownerInvitation}`, caller)).status).toBe(403)
    }
    const adminOwner = await api(t, 'POST', `/platform/organizations/${realSlug}/members/invitations`, admin, { email: unique('boss'), role: 'owner' })
    expect(adminOwner.status).toBe(403)
    expect(adminOwner.body.message).toBe('Only an owner can invite another owner')
    const adminRevoke = await api(t, 'DELETE', `/platform/organizations/${realSlug}/members/invitations/${ownerInvitation}`, admin)
    expect(adminRevoke.status).toBe(403)
    expect(adminRevoke.body.message).toBe('Only an owner can revoke the invitation of an owner')
    expect((await api(t, 'POST', `/platform/organizations/${outsiderSlug}/members/invitations`, admin, { email: unique('x'), role: 'developer' })).status).toBe(404)
    expect(await count()).toBe(before)

    // What an Administrator may do: invite and revoke below owner, and list.
    const { id } = await invite(admin, realSlug, unique('admin-invited'), 'administrator')
    expect((await api(t, 'GET', `/platform/organizations/${realSlug}/members/invitations`, admin)).body.some((i: { id: string }) => i.id === id)).toBe(true)
    expect((await api(t, 'DELETE', `/platform/organizations/${realSlug}/members/invitations/${id}`, admin)).status).toBe(200)
    // An owner may invite an owner.
    expect((await api(t, 'DELETE', `/platform/organizations/${realSlug}/members/invitations/${ownerInvitation}`, owner)).status).toBe(200)
  })
})

describe('bad input', () => {
  it('answers 4xx with a message and writes nothing', async () => {
    const count = async () => Number((await t.platform.ctx.db.query('SELECT (SELECT count(*) FROM invitations) + (SELECT count(*) FROM users) AS n')).rows[0].n)
    const before = await count()
    const invitations = `/platform/organizations/${realSlug}/members/invitations`
    const cases: Array<[string, string, unknown, number]> = [
      ['POST', invitations, { email: 'not-an-email', role: 'developer' }, 400],
      ['POST', invitations, { email: 'ok@corp.example', role: 'god' }, 400],
      ['POST', invitations, { role: 'developer' }, 400],
      ['POST', invitations, '{"email": ', 400],
      ['POST', `/platform/organizations/bad%20slug/members/invitations`, { email: 'ok@corp.example', role: 'developer' }, 400],
      ['DELETE', `${invitations}/not-a-uuid`, undefined, 400],
      ['DELETE', `${invitations}/00000000-0000-4000-8000-000000000000`, undefined, 404],
      ['GET', '/platform/invitations/short', undefined, 400],
      ['GET', `/platform/invitations/${'a'.repeat(43)}`, undefined, 404],
      ['POST', `/platform/invitations/${'a'.repeat(43)}/sign-up`, { password: 'long-enough-1' }, 404],
      ['DELETE', '/platform/profile/invitations/not-a-uuid', undefined, 400],
      ['PATCH', '/platform/installation/settings', {}, 400],
      ['PATCH', '/platform/installation/settings', { plan_changes: 'anyone' }, 400],
      ['PATCH', '/platform/installation/settings', { colour: 'blue' }, 400],
    ]
    for (const [method, path, body, status] of cases) {
      const result = await api(t, method, path, owner, body)
      expect(result.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status)
      expect(result.body.message).toEqual(expect.any(String))
    }
    // A password that is too short is refused, and the link still works afterwards.
    const { url } = await invite(owner, realSlug, unique('short'))
    const short = await api(t, 'POST', `/platform/invitations/${tokenOf(url)}/sign-up`, {}, { password: 'short' })
    expect(short.status).toBe(400)
    expect(short.body.message).toBe('Password must be at least 8 characters')
    expect((await api(t, 'POST', `/platform/invitations/${tokenOf(url)}/sign-up`, {}, {})).status).toBe(400)
    expect((await api(t, 'GET', `/platform/invitations/${tokenOf(url)}`)).status).toBe(200)
    expect(await count()).toBe(before + 1)
  })
})

describe('installation settings', () => {
  it('by default: every account creates organizations, only the installation’s owner changes plans', async () => {
    const settings = await api(t, 'GET', '/platform/installation/settings', outsider)
    expect(settings.body).toEqual({ organization_creation: 'everyone', plan_changes: 'installation_owner', is_installation_owner: false, set_by_environment: [] })
    expect((await api(t, 'GET', '/platform/installation/settings', owner)).body.is_installation_owner).toBe(true)

    // The outsider owns its organization, yet cannot change its plan.
    const refused = await api(t, 'PUT', `/platform/organizations/${outsiderSlug}/billing/subscription`, outsider, { plan: 'pro' })
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe(INSTALLATION_TEXTS.changePlan)
    const plan = await t.platform.ctx.db.query('SELECT plan FROM organizations WHERE slug = $1', [outsiderSlug])
    expect(plan.rows[0].plan).toBe('free')
    const changed = await api(t, 'PUT', `/platform/organizations/${realSlug}/billing/subscription`, owner, { plan: 'pro' })
    expect(changed.status).toBe(200)
    expect(changed.body.plan).toBe('pro')
    await api(t, 'PUT', `/platform/organizations/${realSlug}/billing/subscription`, owner, { plan: 'free' })
    // Not a member: not found, whoever asks.
    expect((await api(t, 'PUT', `/platform/organizations/${outsiderSlug}/billing/subscription`, owner, { plan: 'pro' })).status).toBe(404)
  })

  it('are changed by the installation’s owner only, and enforced at once', async () => {
    const refused = await api(t, 'PATCH', '/platform/installation/settings', outsider, { organization_creation: 'everyone' })
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe(INSTALLATION_TEXTS.manageSettings)

    const locked = await api(t, 'PATCH', '/platform/installation/settings', owner, { organization_creation: 'installation_owner' })
    expect(locked.status).toBe(200)
    expect(locked.body).toMatchObject({ organization_creation: 'installation_owner', plan_changes: 'installation_owner' })
    const created = await api(t, 'POST', '/platform/organizations', outsider, { name: 'Second Outsider Org' })
    expect(created.status).toBe(403)
    expect(created.body.message).toBe(INSTALLATION_TEXTS.createOrganization)
    const outsiderToken = await tokenFor(t, 'outsider@elsewhere.example')
    expect((await api(t, 'POST', '/v1/organizations', { token: outsiderToken }, { name: 'Via v1' })).status).toBe(403)
    expect((await api(t, 'POST', '/platform/organizations', owner, { name: 'Owner’s second org' })).status).toBe(201)

    await api(t, 'PATCH', '/platform/installation/settings', owner, { organization_creation: 'everyone', plan_changes: 'organization_owners' })
    expect((await api(t, 'POST', '/v1/organizations', { token: outsiderToken }, { name: 'Via v1' })).status).toBe(201)
    // Organization owners now decide their plan; their other roles still do not.
    expect((await api(t, 'PUT', `/platform/organizations/${outsiderSlug}/billing/subscription`, outsider, { plan: 'pro' })).status).toBe(200)
    const admin = await memberWithRole(t, outsiderSlug, 'administrator')
    const byAdmin = await api(t, 'PUT', `/platform/organizations/${outsiderSlug}/billing/subscription`, { token: admin.token }, { plan: 'free' })
    expect(byAdmin.status).toBe(403)
    expect(byAdmin.body.message).toBe('Only an owner can change the plan of this organization')
    await api(t, 'PATCH', '/platform/installation/settings', owner, { plan_changes: 'installation_owner' })
  })

  it('an environment variable fixes a setting', async () => {
    const fixed = await startTestPlatform({ STRATUM_PLAN_CHANGES: 'organization_owners', STRATUM_ORGANIZATION_CREATION: 'installation_owner' })
    try {
      const caller = { cookie: await login(fixed) }
      const view = await api(fixed, 'GET', '/platform/installation/settings', caller)
      expect(view.body).toMatchObject({ organization_creation: 'installation_owner', plan_changes: 'organization_owners', set_by_environment: ['organization_creation', 'plan_changes'] })
      const change = await api(fixed, 'PATCH', '/platform/installation/settings', caller, { plan_changes: 'installation_owner' })
      expect(change.status).toBe(409)
      expect(change.body.message).toContain('STRATUM_PLAN_CHANGES')
      const slug = (await api(fixed, 'GET', '/platform/organizations', caller)).body[0].slug
      const orgOwner = await memberWithRole(fixed, slug, 'owner')
      expect((await api(fixed, 'PUT', `/platform/organizations/${slug}/billing/subscription`, { token: orgOwner.token }, { plan: 'pro' })).status).toBe(200)
      expect((await api(fixed, 'POST', '/platform/organizations', { token: orgOwner.token }, { name: 'Nope' })).status).toBe(403)
    } finally {
      await fixed.cleanup()
    }
  })
})
