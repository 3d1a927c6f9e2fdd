import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, discardDir, login, startTestPlatform, waitForStatus, type TestPlatform } from './harness.js'

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
  t = await startTestPlatform({ STRATUM_TEMPLATE_DIR: templateDir })
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
})
