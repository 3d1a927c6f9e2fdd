import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, discardDir, login, startTestPlatform, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/**
 * New projects are copies of a template cluster (control/instance-templates.ts). What every new project copies
 * must be what the platform built: a template with a file some other OS user owns (its own user deleted and the uid
 * handed to a project's user, who then wrote into it) is thrown away and built again, never copied.
 */
const PASSWORD = 'templates-password-1'
const asRoot = process.getuid?.() === 0
let t: TestPlatform
let cookie: string
let slug: string
const templateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-templates-'))

beforeAll(async () => {
  // Spare copies on, as the product has them (the harness turns them off for the other files).
  t = await startTestPlatform({ STRATUM_TEMPLATE_DIR: templateDir, STRATUM_SPARE_INSTANCES: '1' })
  cookie = await login(t)
  slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
})
afterAll(async () => {
  await t?.cleanup()
  discardDir(templateDir)
})

async function healthyProject(name: string): Promise<string> {
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name, organization_slug: slug, db_pass: PASSWORD })
  expect(created.status).toBe(201)
  await waitForStatus(t, created.body.ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  return created.body.ref
}

describe('project templates', () => {
  it.runIf(asRoot)('builds a template again when anyone but its own OS user wrote into it, and copies nothing planted', async () => {
    const first = await healthyProject('From the template')
    const [template] = fs.readdirSync(templateDir).filter((name) => name.startsWith('17-'))
    expect(template).toBeDefined()
    const data = path.join(templateDir, template!, 'data')
    // Another uid (here nobody) writes a file into the template.
    const nobody = 65534
    fs.writeFileSync(path.join(data, 'planted'), 'from another tenant')
    fs.chownSync(path.join(data, 'planted'), nobody, nobody)
    expect(fs.existsSync(path.join(t.dataDir, 'projects', first, 'data', 'planted'))).toBe(false)

    // The next platform opens the template again, finds it untrusted, and builds it anew.
    await t.platform.close()
    await t.restart()
    const second = await healthyProject('After the tampering')
    expect(fs.existsSync(path.join(t.dataDir, 'projects', second, 'data', 'planted'))).toBe(false)
    expect(fs.existsSync(path.join(data, 'planted'))).toBe(false)
  })

  it('keeps a spare copy ready in a directory only the platform enters: a creation takes it, another is copied', async () => {
    await healthyProject('Before the spare')
    const spares = path.join(templateDir, '.spares')
    const spareNames = () => (fs.existsSync(spares) ? fs.readdirSync(spares).filter((name) => name.startsWith('17-')) : [])
    await waitFor(() => spareNames().length === 1, { timeoutMs: 60_000, what: 'a spare copy of the 17 template' })
    expect(fs.statSync(spares).mode & 0o777).toBe(0o700)
    const [first] = spareNames()

    const ref = await healthyProject('From the spare')
    expect(spareNames()).not.toContain(first)
    expect(fs.existsSync(path.join(t.dataDir, 'projects', ref, 'data', 'PG_VERSION'))).toBe(true)
    await waitFor(() => spareNames().length === 1, { timeoutMs: 60_000, what: 'the next spare copy' })
    expect(spareNames()[0]).not.toBe(first)
  })

  it.runIf(asRoot)('throws away a spare copy holding a file of another user instead of making a project of it', async () => {
    const spares = path.join(templateDir, '.spares')
    const spareNames = () => (fs.existsSync(spares) ? fs.readdirSync(spares).filter((name) => name.startsWith('17-')) : [])
    await waitFor(() => spareNames().length === 1, { timeoutMs: 60_000, what: 'a spare copy of the 17 template' })
    // A spare is a data directory itself (PG_VERSION at its top).
    const planted = path.join(spares, spareNames()[0]!, 'planted')
    fs.writeFileSync(planted, 'from another tenant')
    fs.chownSync(planted, 65534, 65534)

    const ref = await healthyProject('Not from the planted spare')
    expect(fs.existsSync(path.join(t.dataDir, 'projects', ref, 'data', 'planted'))).toBe(false)
    expect(fs.existsSync(planted)).toBe(false)
  })
})
