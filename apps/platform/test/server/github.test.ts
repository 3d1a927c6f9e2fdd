import type { GitHubConnection } from '@stratum/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  findConnectionForProject, gitHubClientFor, GitHubNotFoundError, migrationsSourceOf, readBranchMigrations,
} from '../../src/integrations/github/migrations-source.js'
import { startGitHubLoopback, type GitHubLoopback } from '../../../../e2e/github-loopback.mjs'
import { ADMIN_EMAIL, api, memberWithRole, startTestPlatform, tokenFor, type TestPlatform } from './harness.js'

/*
 * GitHub connections per organization, against a loopback server speaking GitHub's REST API (e2e/github-loopback.mjs):
 * a connection is checked against GitHub with its token before it is stored (sealed), the branch check answers GitHub's
 * branch or the spec's 'Unable to find branch' text, and readBranchMigrations reads a Git branch's supabase/migrations.
 */
const TOKEN = 'ghp_good_token_for_shop'
const CONNECTIONS = '/platform/integrations/github/connections'
let t: TestPlatform
let github: GitHubLoopback
let ownerToken: string
let orgId: number
let ref: string
let otherOrgRef: string
let connection: GitHubConnection

const migration = (sql: string) => `-- migration\n${sql}\n`

async function createProject(slug: string, name: string): Promise<string> {
  const created = await api(t, 'POST', '/platform/projects', { token: ownerToken }, { name, organization_slug: slug, db_pass: 'github-test-password-1' })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return created.body.ref
}

beforeAll(async () => {
  github = await startGitHubLoopback({
    repos: {
      'acme/shop': {
        id: 4242,
        token: TOKEN,
        branches: {
          main: {
            sha: '1'.repeat(40),
            files: {
              'README.md': '# shop',
              // Out of name order on purpose: 9 comes before 20240101000000 as a number.
              'supabase/migrations/20240201000000_prices.sql': migration('alter table products add column price numeric;'),
              'supabase/migrations/20240101000000_init.sql': migration('create table products (id bigint primary key);'),
              'supabase/migrations/9_early.sql': migration('create schema early;'),
              'supabase/migrations/notes.sql': 'not a migration: no version',
              'supabase/migrations/20240301000000_later.txt': 'not SQL',
              'supabase/migrations/archive/20230101000000_old.sql': 'in a sub-folder: not read',
            },
          },
          'feature/login': { sha: '2'.repeat(40), files: { 'supabase/migrations/20240101000000_init.sql': migration('create table users ();') } },
          'no-supabase': { sha: '3'.repeat(40), files: { 'README.md': '# nothing here' } },
        },
      },
      'acme/mono': {
        id: 5151,
        token: 'ghp_mono',
        branches: { main: { sha: '4'.repeat(40), files: { 'apps/db/supabase/migrations/20240101000000_mono.sql': migration('create table mono ();') } } },
      },
    },
  })
  t = await startTestPlatform({ STRATUM_GITHUB_API_URL: github.url })
  ownerToken = await tokenFor(t, ADMIN_EMAIL)
  const org = (await api(t, 'GET', '/platform/organizations', { token: ownerToken })).body[0]
  orgId = org.id
  ref = await createProject(org.slug, 'Shop')
  const other = await api(t, 'POST', '/platform/organizations', { token: ownerToken }, { name: 'Other org' })
  otherOrgRef = await createProject(other.body.slug, 'Elsewhere')
})
afterAll(async () => {
  await t?.cleanup()
  await github?.close()
})

const connectBody = (overrides: Record<string, unknown> = {}) => ({ organization_id: orgId, project_ref: ref, repository: 'acme/shop', token: TOKEN, ...overrides })
const storedCount = async () => Number((await t.platform.ctx.db.query('SELECT count(*) FROM github_connections')).rows[0].count)

describe('GitHub connections', () => {
  it('refuses a bad token with GitHub\'s reason and stores nothing', async () => {
    const refused = await api(t, 'POST', CONNECTIONS, { token: ownerToken }, connectBody({ token: 'ghp_wrong' }))
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe('GitHub refused the token: Bad credentials')
    expect(await storedCount()).toBe(0)
  })

  it('refuses a repository the token cannot read, and bad input, with a 400', async () => {
    const unknown = await api(t, 'POST', CONNECTIONS, { token: ownerToken }, connectBody({ repository: 'acme/nope' }))
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toBe('Repository acme/nope was not found on GitHub, or the token cannot read it: Not Found')
    const otherRepo = await api(t, 'POST', CONNECTIONS, { token: ownerToken }, connectBody({ repository: 'acme/mono' }))
    expect(otherRepo.status).toBe(400)
    for (const body of [connectBody({ repository: 'shop' }), connectBody({ token: '' }), connectBody({ workdir: '../elsewhere' }), connectBody({ workdir: '/etc' })]) {
      const bad = await api(t, 'POST', CONNECTIONS, { token: ownerToken }, body)
      expect(bad.status, JSON.stringify(body)).toBe(400)
      expect(bad.body.message).toEqual(expect.any(String))
    }
    expect(await storedCount()).toBe(0)
  })

  it('connects a project with a good token: GitHub asked with the token, the token sealed and never returned', async () => {
    github.requests.length = 0
    const created = await api(t, 'POST', CONNECTIONS, { token: ownerToken }, connectBody())
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    connection = created.body
    expect(connection).toMatchObject({ organization_id: orgId, repository: { id: 4242, name: 'acme/shop' }, project: { ref, name: 'Shop' }, workdir: '.' })
    expect(JSON.stringify(connection)).not.toContain(TOKEN)
    expect(github.requests).toEqual([
      { method: 'GET', path: '/repos/acme/shop', authorization: `Bearer ${TOKEN}`, accept: 'application/vnd.github+json', apiVersion: '2022-11-28' },
    ])
    const { rows } = await t.platform.ctx.db.query('SELECT token_sealed FROM github_connections WHERE id = $1', [connection.id])
    expect(rows[0].token_sealed).toMatch(/^v1:/)
    expect(rows[0].token_sealed).not.toContain(TOKEN)
    const again = await api(t, 'POST', CONNECTIONS, { token: ownerToken }, connectBody())
    expect(again.status).toBe(409)
    expect(again.body.message).toBe(`Project ${ref} is already connected to acme/shop: remove that connection first`)
  })

  it('lists the connections of an organization to its members only', async () => {
    const listed = await api(t, 'GET', `${CONNECTIONS}?organization_id=${orgId}`, { token: ownerToken })
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual({ connections: [connection] })
    const reader = await memberWithRole(t, (await api(t, 'GET', '/platform/organizations', { token: ownerToken })).body[0].slug, 'read_only')
    expect((await api(t, 'GET', `${CONNECTIONS}?organization_id=${orgId}`, { token: reader.token })).body).toEqual({ connections: [connection] })
    const outsider = (await memberWithRole(t, 'no-such-org', 'owner')).token
    const refused = await api(t, 'GET', `${CONNECTIONS}?organization_id=${orgId}`, { token: outsider })
    expect(refused.status).toBe(404)
    expect((await api(t, 'GET', `${CONNECTIONS}?organization_id=abc`, { token: ownerToken })).status).toBe(400)
  })

  it('checks a branch: found, found with a slash in its name, and not found with the exact text', async () => {
    const found = await api(t, 'GET', `/platform/integrations/github/branches/${connection.id}/main`, { token: ownerToken })
    expect(found.status).toBe(200)
    expect(found.body).toEqual({ name: 'main', commit: { sha: '1'.repeat(40) }, protected: true })
    const slashed = await api(t, 'GET', `/platform/integrations/github/branches/${connection.id}/${encodeURIComponent('feature/login')}`, { token: ownerToken })
    expect(slashed.status, JSON.stringify(slashed.body)).toBe(200)
    expect(slashed.body.name).toBe('feature/login')
    const missing = await api(t, 'GET', `/platform/integrations/github/branches/${connection.id}/nope`, { token: ownerToken })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ message: 'Unable to find branch "nope" in acme/shop' })
    expect((await api(t, 'GET', '/platform/integrations/github/branches/999999/main', { token: ownerToken })).status).toBe(404)
  })

  it('answers a revoked token with a 502 and GitHub\'s reason (not a 401: the session is fine)', async () => {
    github.repos['acme/shop']!.token = 'ghp_rotated'
    try {
      const revoked = await api(t, 'GET', `/platform/integrations/github/branches/${connection.id}/main`, { token: ownerToken })
      expect(revoked.status).toBe(502)
      expect(revoked.body.message).toBe('GitHub refused the token: Bad credentials')
    } finally {
      github.repos['acme/shop']!.token = TOKEN
    }
  })

  it('reads a Git branch\'s migrations in version order, and none from a branch without the folder', async () => {
    const row = await findConnectionForProject(t.platform.ctx.db, ref)
    expect(row?.repository).toBe('acme/shop')
    const client = gitHubClientFor(t.platform.ctx)
    const source = migrationsSourceOf(t.platform.ctx.secrets, row!)
    expect(await readBranchMigrations(client, source, 'main')).toEqual([
      { version: '9', name: 'early', sql: migration('create schema early;') },
      { version: '20240101000000', name: 'init', sql: migration('create table products (id bigint primary key);') },
      { version: '20240201000000', name: 'prices', sql: migration('alter table products add column price numeric;') },
    ])
    expect(await readBranchMigrations(client, source, 'feature/login')).toEqual([{ version: '20240101000000', name: 'init', sql: migration('create table users ();') }])
    expect(await readBranchMigrations(client, source, 'no-supabase')).toEqual([])
    await expect(readBranchMigrations(client, source, 'gone')).rejects.toBeInstanceOf(GitHubNotFoundError)
    expect(await findConnectionForProject(t.platform.ctx.db, otherOrgRef)).toBeNull()
  })

  it('lets Developer and Read-only members check branches but not connect or remove', async () => {
    const slug = (await api(t, 'GET', '/platform/organizations', { token: ownerToken })).body[0].slug
    for (const role of ['developer', 'read_only'] as const) {
      const member = await memberWithRole(t, slug, role)
      expect((await api(t, 'GET', `/platform/integrations/github/branches/${connection.id}/main`, { token: member.token })).status).toBe(200)
      const create = await api(t, 'POST', CONNECTIONS, { token: member.token }, connectBody())
      expect(create.status).toBe(403)
      expect(create.body.message).toBe('You need additional permissions to update this project')
      expect((await api(t, 'DELETE', `${CONNECTIONS}/${connection.id}`, { token: member.token })).status).toBe(403)
    }
    expect(await storedCount()).toBe(1)
  })

  it('connects only a project of the organization named', async () => {
    const elsewhere = await api(t, 'POST', CONNECTIONS, { token: ownerToken }, connectBody({ project_ref: otherOrgRef }))
    expect(elsewhere.status).toBe(404)
    expect(elsewhere.body.message).toBe(`Project ${otherOrgRef} not found in this organization`)
    expect(await storedCount()).toBe(1)
  })

  it('removes a connection, then reconnects the project to a repository\'s sub-folder', async () => {
    const removed = await api(t, 'DELETE', `${CONNECTIONS}/${connection.id}`, { token: ownerToken })
    expect(removed.status).toBe(204)
    expect((await api(t, 'DELETE', `${CONNECTIONS}/${connection.id}`, { token: ownerToken })).status).toBe(404)
    expect((await api(t, 'GET', `${CONNECTIONS}?organization_id=${orgId}`, { token: ownerToken })).body).toEqual({ connections: [] })
    expect((await api(t, 'GET', `/platform/integrations/github/branches/${connection.id}/main`, { token: ownerToken })).status).toBe(404)

    const mono = await api(t, 'POST', CONNECTIONS, { token: ownerToken }, connectBody({ repository: 'acme/mono', token: 'ghp_mono', workdir: './apps/db/' }))
    expect(mono.status, JSON.stringify(mono.body)).toBe(201)
    expect(mono.body.workdir).toBe('apps/db')
    const row = await findConnectionForProject(t.platform.ctx.db, ref)
    expect(await readBranchMigrations(gitHubClientFor(t.platform.ctx), migrationsSourceOf(t.platform.ctx.secrets, row!), 'main')).toEqual([
      { version: '20240101000000', name: 'mono', sql: migration('create table mono ();') },
    ])
  })
})
