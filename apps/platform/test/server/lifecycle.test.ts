import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, querySuperuser, login, memberWithRole, startTestPlatform, waitForStatus, type TestPlatform } from './harness.js'

let t: TestPlatform
let cookie: string
let ref: string
let port: number
const PASSWORD = 'lifecycle-password-1'

const sql = <T = any>(text: string) => querySuperuser<T>(port, PASSWORD, text)

const checksum = async () => (await sql(`SELECT md5(string_agg(i::text || ':' || payload, ',' ORDER BY i)) AS sum FROM rows`))[0].sum as string

beforeAll(async () => {
  t = await startTestPlatform()
  cookie = await login(t)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Lifecycle', organization_slug: slug, db_pass: PASSWORD })
  ref = created.body.ref
  port = created.body.db_port
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
  await sql(`CREATE TABLE rows AS SELECT i, md5(i::text) AS payload FROM generate_series(1, 20000) i`)
})
afterAll(() => t?.cleanup())

describe('lifecycle operations', () => {
  it('restarts the instance for real (a new postmaster) and comes back healthy', async () => {
    const before = (await sql(`SELECT pg_postmaster_start_time() AS started`))[0].started
    const result = await api(t, 'POST', `/platform/projects/${ref}/restart`, { cookie })
    expect(result.status).toBe(200)
    expect((await api(t, 'GET', `/platform/projects/${ref}/status`, { cookie })).body.status).toBe('RESTARTING')
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
    const after = (await sql(`SELECT pg_postmaster_start_time() AS started`))[0].started
    expect(after.getTime()).toBeGreaterThan(before.getTime())
  })

  it('resizes: the new size settings are live after the restart', async () => {
    const before = await checksum()
    const result = await api(t, 'POST', `/platform/projects/${ref}/resize`, { cookie }, { desired_instance_size: 'small' })
    expect(result.status).toBe(200)
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
    const settings = (await sql(`SELECT current_setting('max_connections') AS mc, current_setting('shared_buffers') AS sb`))[0]
    expect(settings).toEqual({ mc: '90', sb: '128MB' })
    expect((await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body.compute_size).toBe('small')
    expect(await checksum()).toBe(before)
  })

  it('pauses (instance stopped, physical backup kept) and restores with every row', async () => {
    const before = await checksum()
    expect((await api(t, 'POST', `/platform/projects/${ref}/pause`, { cookie })).status).toBe(200)
    await waitForStatus(t, ref, { cookie }, 'INACTIVE')
    await expect(sql('SELECT 1')).rejects.toThrow()

    const pauseStatus = (await api(t, 'GET', `/platform/projects/${ref}/pause/status`, { cookie })).body
    expect(pauseStatus).toEqual({ can_restore: true, latest_downloadable_backup_id: null, max_days_till_restore_disabled: 90, remaining_days_till_restore_disabled: 90 })
    const backups = (await api(t, 'GET', `/platform/database/${ref}/backups`, { cookie })).body.backups
    expect(backups).toHaveLength(1)
    expect(backups[0]).toMatchObject({ isPhysicalBackup: true, status: 'COMPLETED' })
    expect(backups[0].size_bytes).toBeGreaterThan(1_000_000)

    const versions = (await api(t, 'GET', `/platform/projects/${ref}/restore/versions`, { cookie })).body.available_versions
    expect(versions.map((v: { postgres_engine: string }) => v.postgres_engine)).toEqual(['17'])
    expect(versions[0]).toMatchObject({ release_channel: 'ga', version: expect.stringMatching(/^17\.\d+$/) })

    expect((await api(t, 'POST', `/platform/projects/${ref}/restore`, { cookie }, {})).status).toBe(200)
    expect((await api(t, 'GET', `/platform/projects/${ref}/status`, { cookie })).body.status).toBe('RESTORING')
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
    expect(await checksum()).toBe(before)
  })

  it('serves a backup through a short-lived signed link only', async () => {
    const [backup] = (await api(t, 'GET', `/platform/database/${ref}/backups`, { cookie })).body.backups
    const link = await api(t, 'POST', `/platform/database/${ref}/backups/download`, { cookie }, { id: backup.id })
    expect(link.status).toBe(200)
    const file = await fetch(t.platform.url + link.body.fileUrl)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-disposition')).toContain('.tar.gz')
    expect((await file.arrayBuffer()).byteLength).toBe(backup.size_bytes)
    const forged = await fetch(t.platform.url + link.body.fileUrl.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')))
    expect(forged.status).toBe(403)
  })

  it('refuses operations in the wrong state, bad input, and roles without infrastructure rights', async () => {
    expect((await api(t, 'POST', `/platform/projects/${ref}/restore`, { cookie }, {})).status).toBe(409)
    expect((await api(t, 'POST', `/platform/projects/${ref}/resize`, { cookie }, { desired_instance_size: 'huge' })).status).toBe(400)
    expect((await api(t, 'POST', `/platform/projects/${ref}/resize`, { cookie }, { desired_instance_size: 'small' })).status).toBe(400)
    expect((await api(t, 'POST', `/platform/database/${ref}/backups/download`, { cookie }, { id: 'x' })).status).toBe(400)
    const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
    for (const role of ['developer', 'read_only'] as const) {
      const { token } = await memberWithRole(t, slug, role)
      for (const [path, body] of [['pause', undefined], ['restart', undefined], ['resize', { desired_instance_size: 'medium' }], ['restore', {}]] as const) {
        const result = await api(t, 'POST', `/platform/projects/${ref}/${path}`, { token }, body)
        expect(result.status, `${role} ${path}`).toBe(403)
      }
      expect((await api(t, 'POST', `/v1/projects/${ref}/pause`, { token })).status).toBe(403)
    }
    expect((await api(t, 'GET', `/platform/projects/${ref}/status`, { cookie })).body.status).toBe('ACTIVE_HEALTHY')
  })

  it('keeps one operation at a time per project', async () => {
    const first = await api(t, 'POST', `/platform/projects/${ref}/restart`, { cookie })
    const second = await api(t, 'POST', `/platform/projects/${ref}/restart`, { cookie })
    expect(first.status).toBe(200)
    expect(second.status).toBe(409)
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
  })
})

describe('free project limit and deletion', () => {
  it('refuses a restore while owners are at the free limit, lists them, and allows it on Pro', async () => {
    const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
    const extra = []
    for (const name of ['Second', 'Third']) {
      const created = await api(t, 'POST', '/platform/projects', { cookie }, { name, organization_slug: slug, db_pass: PASSWORD })
      await waitForStatus(t, created.body.ref, { cookie }, 'ACTIVE_HEALTHY')
      extra.push(created.body.ref as string)
    }
    await api(t, 'POST', `/platform/projects/${extra[0]}/pause`, { cookie })
    await waitForStatus(t, extra[0]!, { cookie }, 'INACTIVE')

    const atLimit = await api(t, 'GET', `/platform/organizations/${slug}/members/reached-free-project-limit`, { cookie })
    expect(atLimit.body).toEqual([{ username: 'owner', primary_email: 'owner@example.com', free_project_limit: 2 }])
    const refused = await api(t, 'POST', `/platform/projects/${extra[0]}/restore`, { cookie }, {})
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/free plan allows 2 active projects/)

    await api(t, 'PUT', `/platform/organizations/${slug}/billing/subscription`, { cookie }, { plan: 'pro' })
    expect((await api(t, 'GET', `/platform/organizations/${slug}/members/reached-free-project-limit`, { cookie })).body).toEqual([])
    expect((await api(t, 'GET', `/platform/projects/${extra[0]}/pause/status`, { cookie })).body.remaining_days_till_restore_disabled).toBeNull()
    expect((await api(t, 'POST', `/platform/projects/${extra[0]}/restore`, { cookie }, {})).status).toBe(200)
    await waitForStatus(t, extra[0]!, { cookie }, 'ACTIVE_HEALTHY')
    await api(t, 'PUT', `/platform/organizations/${slug}/billing/subscription`, { cookie }, { plan: 'free' })
  })

  it('deletes a project: instance stopped, data and backups gone, records removed', async () => {
    const fs = await import('node:fs')
    const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
    const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Doomed', organization_slug: slug, db_pass: PASSWORD })
    const doomed = created.body.ref as string
    await waitForStatus(t, doomed, { cookie }, 'ACTIVE_HEALTHY')
    const { token } = await memberWithRole(t, slug, 'developer')
    expect((await api(t, 'DELETE', `/platform/projects/${doomed}`, { token })).status).toBe(403)

    const deleted = await api(t, 'DELETE', `/platform/projects/${doomed}`, { cookie })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ id: created.body.id, name: 'Doomed', ref: doomed })
    expect(fs.existsSync(`${t.dataDir}/projects/${doomed}`)).toBe(false)
    expect((await api(t, 'GET', `/platform/projects/${doomed}`, { cookie })).status).toBe(404)
    const client = new pg.Client({ host: '127.0.0.1', port: created.body.db_port, user: 'postgres', password: PASSWORD, database: 'postgres' })
    client.on('error', () => {})
    await expect(client.connect()).rejects.toThrow()

    const survey = await api(t, 'POST', '/platform/feedback/downgrade', { cookie }, { projectRef: doomed, orgSlug: slug, reasons: ['Too expensive'], additionalFeedback: 'bye', exitAction: 'delete' })
    expect(survey.status).toBe(201)
    expect((await api(t, 'POST', '/platform/feedback/downgrade', { cookie }, { projectRef: 'bad', orgSlug: slug })).status).toBe(400)
  })
})

describe('failures of real operations', () => {
  beforeAll(async () => {
    // Earlier tests left three active projects: on the free plan the limit would refuse the restores below.
    const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
    await api(t, 'PUT', `/platform/organizations/${slug}/billing/subscription`, { cookie }, { plan: 'pro' })
  })

  it('ends a pause whose backup cannot be written in PAUSE_FAILED, data intact and reason kept', async () => {
    const fs = await import('node:fs')
    const before = await checksum()
    // The backup directory's path is taken by a file: the physical backup cannot be written.
    const backupDir = `${t.dataDir}/backups/${ref}`
    fs.rmSync(backupDir, { recursive: true, force: true })
    fs.mkdirSync(`${t.dataDir}/backups`, { recursive: true })
    fs.writeFileSync(backupDir, 'not a directory')
    expect((await api(t, 'POST', `/platform/projects/${ref}/pause`, { cookie })).status).toBe(200)
    await waitForStatus(t, ref, { cookie }, 'PAUSE_FAILED')
    const project = (await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body
    expect(project.status_reason).toMatch(/^physical-backup: /)
    fs.rmSync(backupDir)

    // Restoring from the failed state brings it back with every row.
    expect((await api(t, 'POST', `/platform/projects/${ref}/restore`, { cookie }, {})).status).toBe(200)
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
    expect(await checksum()).toBe(before)
  })

  it('ends a restore whose instance cannot start in RESTORE_FAILED, and a later restore works', async () => {
    const net = await import('node:net')
    expect((await api(t, 'POST', `/platform/projects/${ref}/pause`, { cookie })).status).toBe(200)
    await waitForStatus(t, ref, { cookie }, 'INACTIVE')
    // Something else now listens on the project's port: Postgres cannot bind it.
    const squatter = net.createServer()
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve))
    expect((await api(t, 'POST', `/platform/projects/${ref}/restore`, { cookie }, {})).status).toBe(200)
    await waitForStatus(t, ref, { cookie }, 'RESTORE_FAILED', 30_000)
    expect((await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body.status_reason).toMatch(/^start: /)
    await new Promise((resolve) => squatter.close(resolve))
    expect((await api(t, 'POST', `/platform/projects/${ref}/restore`, { cookie }, {})).status).toBe(200)
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
  })

  it('takes the daily logical backup, downloadable as a .sql.gz', async () => {
    await t.platform.ctx.operations.backUpActiveProjects()
    const [backup] = (await api(t, 'GET', `/platform/database/${ref}/backups/downloadable-backups`, { cookie })).body.backups
    expect(backup).toMatchObject({ isPhysicalBackup: false, status: 'COMPLETED' })
    const link = await api(t, 'POST', `/platform/database/${ref}/backups/download`, { cookie }, { id: backup.id })
    const file = Buffer.from(await (await fetch(t.platform.url + link.body.fileUrl)).arrayBuffer())
    expect(file.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]))
    const zlib = await import('node:zlib')
    expect(zlib.gunzipSync(file).toString()).toContain('CREATE TABLE "public"."rows"')
    expect((await api(t, 'GET', `/platform/projects/${ref}/pause/status`, { cookie })).body.latest_downloadable_backup_id).toBe(backup.id)
  })
})
