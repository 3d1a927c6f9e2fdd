import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChildPlatform } from './child-platform.js'
import type { TestPlatform } from './harness.js'
import { api, login, waitFor, waitForStatus } from './harness.js'

/**
 * kill -9 of the platform while a project is being created (its instance, a copy of the template, started;
 * its passwords not yet its own): the next start finishes the creation, and nothing secret or stray is left behind.
 */
const PASSWORD = 'create-crash-password-1'
let platform: ChildPlatform
let t: TestPlatform
let cookie: string

beforeAll(async () => {
  platform = new ChildPlatform()
  await platform.start({ STRATUM_OPERATION_STEP_DELAY_MS: '4000' })
  t = { platform: { url: platform.url } } as unknown as TestPlatform
  cookie = await login(t)
})
afterAll(() => platform?.cleanup())

const answers = (port: number, user: string, password: string) => async () => {
  const client = new pg.Client({ host: '127.0.0.1', port, user, password, database: 'postgres', connectionTimeoutMillis: 5_000 })
  client.on('error', () => {})
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

describe('a platform killed while creating a project', () => {
  it('finishes the project at the next start, with no password file and the roles in place', async () => {
    const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
    const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Half made', organization_slug: slug, db_pass: PASSWORD })
    expect(created.status).toBe(201)
    const { ref, db_port: port } = created.body
    const projectDir = path.join(platform.dataDir, 'projects', ref)
    // The instance runs (initdb done, server started) but the roles are not there yet.
    const ready = () => fs.readFileSync(path.join(projectDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[7]?.trim() === 'ready'
    await waitFor(() => { try { return ready() } catch { return false } }, { timeoutMs: 60_000, what: 'the instance to start' })
    expect(await answers(port, 'postgres', PASSWORD)()).toBe(false)
    // A copy of the template (control/instance-templates.ts): its superuser still has the template's password, kept
    // beside the data directory (root's alone) until the instance has its own.
    const templatePassword = fs.readFileSync(path.join(projectDir, 'template-password'), 'utf8')
    expect(fs.statSync(path.join(projectDir, 'template-password')).mode & 0o077).toBe(0)
    await platform.crash()

    await platform.start()
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000).catch(async (error: Error) => {
      const { body } = await api(t, 'GET', `/platform/projects/${ref}`, { cookie })
      throw new Error(`${error.message}: ${body.status_reason}`)
    })
    await waitFor(answers(port, 'postgres', PASSWORD), { timeoutMs: 30_000, what: 'postgres to log in' })
    expect(fs.readdirSync(projectDir)).not.toContain('.initdb-password')
    expect(fs.readdirSync(projectDir)).not.toContain('template-password')
    // The template's password opens nothing: every role has the project's own.
    expect(await answers(port, 'supabase_admin', templatePassword)()).toBe(false)
    // The platform's own record forgot the password once the project was made.
    const state = JSON.parse(fs.readFileSync(path.join(platform.dataDir, 'platform-db.json'), 'utf8'))
    const store = new pg.Client({ host: '127.0.0.1', port: state.port, user: 'stratum', password: state.password, database: 'stratum' })
    store.on('error', () => {})
    await store.connect()
    try {
      const { rows } = await store.query('SELECT db_password_sealed FROM projects WHERE ref = $1', [ref])
      expect(rows[0].db_password_sealed).toBeNull()
    } finally {
      await store.end()
    }
    // One server for the project: the adopted one, on the project's port and nowhere else.
    const pid = fs.readFileSync(path.join(projectDir, 'data', 'postmaster.pid'), 'utf8').split('\n')
    expect(Number(pid[3])).toBe(port)
  })
})
