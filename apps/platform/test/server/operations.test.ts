import fs from 'node:fs'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, login, memberWithRole, querySuperuser, startTestPlatform, waitForStatus, type TestPlatform } from './harness.js'

/** Polls until the condition holds (never a fixed sleep: the machine may be busy). */
async function waitFor(condition: () => Promise<boolean>, { timeoutMs = 15_000, intervalMs = 100, what = 'the condition' } = {}) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/**
 * The one job runner seen from its routes: every operation's progress in one shape, and cancel
 * where it makes sense (before the first step; between steps until the point of no return).
 */
let t: TestPlatform
let cookie: string
let slug: string
let ref: string
let port: number
const PASSWORD = 'operations-password-1'
const CANCELLED = 'The operation was cancelled'

const operation = async (id: string, of = ref) => (await api(t, 'GET', `/platform/projects/${of}/operations/${id}`, { cookie })).body
const cancel = (id: string, caller: { cookie?: string; token?: string } = { cookie }) => api(t, 'POST', `/platform/projects/${ref}/operations/${id}/cancel`, caller)
const postmasterStart = async () => (await querySuperuser(port, PASSWORD, 'SELECT pg_postmaster_start_time() AS started'))[0].started.getTime() as number

async function waitForOperation(id: string, what: string, test: (op: any) => boolean, timeoutMs = 30_000, of = ref) {
  await waitFor(async () => test(await operation(id, of)), { timeoutMs, intervalMs: 50, what: `operation ${what}` })
  return operation(id, of)
}

beforeAll(async () => {
  // Each step waits this long first: room to cancel before a step, or between two.
  t = await startTestPlatform({ STRATUM_OPERATION_STEP_DELAY_MS: '2500' })
  cookie = await login(t)
  slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Operations', organization_slug: slug, db_pass: PASSWORD })
  ref = created.body.ref
  port = created.body.db_port
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
})
afterAll(() => t?.cleanup())

describe('operation progress', () => {
  it('shows a restart step by step, in the shape every operation has', async () => {
    const { operation_id: id } = (await api(t, 'POST', `/platform/projects/${ref}/restart`, { cookie })).body
    const first = await operation(id)
    expect(first).toMatchObject({ id, kind: 'restart', steps_total: 3, steps_done: 0, current_step: 'stop', error: null, finished_at: null, target: null })
    expect(['queued', 'running']).toContain(first.status)
    const midway = await waitForOperation(id, 'past its first step', (op) => op.steps_done >= 1)
    expect(midway).toMatchObject({ status: 'running', cancellable: false })
    const done = await waitForOperation(id, 'to end', (op) => op.finished_at !== null)
    expect(done).toMatchObject({ status: 'succeeded', steps_done: 3, current_step: null, error: null, cancellable: false })
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
    const list = (await api(t, 'GET', `/platform/projects/${ref}/operations`, { cookie })).body.operations
    expect(list[0]).toEqual(done)
  })

  it('names a resize\'s target from the start, while the project still has its old size (the Resizing screen reads it)', async () => {
    const accepted = await api(t, 'POST', `/platform/projects/${ref}/resize`, { cookie }, { desired_instance_size: 'small' })
    expect(accepted.status).toBeLessThan(300)
    const id = accepted.body.operation_id
    expect(await operation(id)).toMatchObject({ kind: 'resize', target: { compute_size: 'small' }, steps_done: 0 })
    // Each step waits 2.5 s first: the size is not recorded on the project yet.
    expect((await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body).toMatchObject({ status: 'RESIZING', compute_size: 'micro' })
    expect(await waitForOperation(id, 'to end', (op) => op.finished_at !== null, 60_000)).toMatchObject({ status: 'succeeded', target: { compute_size: 'small' } })
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
    expect((await api(t, 'GET', `/platform/projects/${ref}`, { cookie })).body.compute_size).toBe('small')
  })

  it('cancels a restart before its first step: the instance is not restarted, the status comes back', async () => {
    const startedAt = await postmasterStart()
    const { operation_id: id } = (await api(t, 'POST', `/platform/projects/${ref}/restart`, { cookie })).body
    const accepted = await cancel(id)
    expect(accepted.status).toBe(202)
    expect(accepted.body).toMatchObject({ id, status: 'cancelling', cancellable: false })
    const done = await waitForOperation(id, 'to end', (op) => op.finished_at !== null)
    expect(done).toMatchObject({ status: 'cancelled', steps_done: 0, error: CANCELLED })
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
    expect(await postmasterStart()).toBe(startedAt)
    expect(await cancel(id)).toMatchObject({ status: 409, body: { message: 'This operation has already ended' } })
  })

  it('refuses to cancel a restart once its first step began, and finishes it', async () => {
    const { operation_id: id } = (await api(t, 'POST', `/platform/projects/${ref}/restart`, { cookie })).body
    await waitForOperation(id, 'past its first step', (op) => op.steps_done >= 1)
    expect(await cancel(id)).toMatchObject({ status: 409, body: { message: 'This operation can no longer be cancelled' } })
    expect(await waitForOperation(id, 'to end', (op) => op.finished_at !== null)).toMatchObject({ status: 'succeeded' })
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
  })

  it('cancels a logical backup between its dump and its record: no backup is kept, nor its file', async () => {
    const { id } = await t.platform.ctx.operations.request(ref, 'logical_backup', {}, null)
    await waitForOperation(id, 'dumped', (op) => op.steps_done === 1, 60_000)
    const dir = path.join(t.dataDir, 'backups', ref)
    expect(fs.readdirSync(dir).filter((file) => file.endsWith('.sql.gz'))).toHaveLength(1)
    expect((await cancel(id)).status).toBe(202)
    expect(await waitForOperation(id, 'to end', (op) => op.finished_at !== null)).toMatchObject({ kind: 'logical_backup', status: 'cancelled', steps_done: 1, steps_total: 2 })
    expect((await api(t, 'GET', `/platform/database/${ref}/backups/downloadable-backups`, { cookie })).body.backups).toEqual([])
    expect(fs.readdirSync(dir).filter((file) => file.endsWith('.sql.gz'))).toEqual([])
  })

  it('cancels a JWT secret update between its steps: the old secret and keys stay', async () => {
    const settings = async () => (await api(t, 'GET', `/platform/projects/${ref}/settings`, { cookie })).body
    const updateStatus = async () => (await api(t, 'GET', `/platform/projects/${ref}/config/secrets/update-status`, { cookie })).body.update_status
    const before = await settings()
    const id = (await api(t, 'POST', `/platform/projects/${ref}/config/secrets`, { cookie }, {})).body.update_status.change_tracking_id
    await waitFor(async () => (await updateStatus()).progress === 1, { intervalMs: 50, what: 'the keys signed' })
    expect((await cancel(id)).status).toBe(202)
    await waitForOperation(id, 'to end', (op) => op.finished_at !== null)
    expect(await updateStatus()).toEqual({ change_tracking_id: id, status: 2, progress: 1, error: CANCELLED })
    expect(await settings()).toEqual(before)
    const { rows } = await t.platform.ctx.db.query('SELECT new_secret_sealed, new_anon_key FROM jwt_secret_updates WHERE id = $1', [id])
    expect(rows[0]).toEqual({ new_secret_sealed: null, new_anon_key: null })
  })

  it('cancels an upgrade between its steps: the project stays on its major, writable, with its data', async () => {
    const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Upgrade cancel', organization_slug: slug, db_pass: PASSWORD, postgres_engine: '15' })
    const upgradeRef = created.body.ref as string
    const sql = (text: string) => querySuperuser(created.body.db_port, PASSWORD, text)
    await waitForStatus(t, upgradeRef, { cookie }, 'ACTIVE_HEALTHY')
    await sql('CREATE TABLE kept AS SELECT generate_series(1, 1000) AS i')
    const started = await api(t, 'POST', `/v1/projects/${upgradeRef}/upgrade`, { cookie }, { target_version: '17' })
    expect(started.status).toBe(201)
    const id = started.body.tracking_id
    // Past the launch of the new server: there is something to roll back.
    await waitForOperation(id, 'past the new server', (op) => op.steps_done >= 2, 60_000, upgradeRef)
    const accepted = await api(t, 'POST', `/platform/projects/${upgradeRef}/operations/${id}/cancel`, { cookie })
    expect(accepted).toMatchObject({ status: 202, body: { kind: 'upgrade', status: 'cancelling' } })
    const done = await waitForOperation(id, 'to end', (op) => op.finished_at !== null, 60_000, upgradeRef)
    expect(done).toMatchObject({ status: 'cancelled', error: CANCELLED })
    expect(done.steps_done).toBeLessThan(done.steps_total)
    await waitForStatus(t, upgradeRef, { cookie }, 'ACTIVE_HEALTHY')
    expect((await sql('SHOW server_version_num'))[0].server_version_num).toMatch(/^15/)
    expect((await sql('SELECT count(*)::int AS n FROM kept'))[0].n).toBe(1000)
    await sql('INSERT INTO kept VALUES (0)')
    // The new server built beside it is gone.
    expect(fs.existsSync(path.join(t.dataDir, 'projects', `${upgradeRef}.next`))).toBe(false)
  })

  it('lets every member read progress; cancel needs the permission that starts the operation', async () => {
    const list = (await api(t, 'GET', `/platform/projects/${ref}/operations`, { cookie })).body.operations
    const restart = list.find((op: { kind: string }) => op.kind === 'restart')
    const rotation = list.find((op: { kind: string }) => op.kind === 'jwt_secret_rotation')
    for (const role of ['developer', 'read_only'] as const) {
      const { token } = await memberWithRole(t, slug, role)
      expect((await api(t, 'GET', `/platform/projects/${ref}/operations`, { token })).body.operations).toEqual(list)
      expect((await api(t, 'GET', `/platform/projects/${ref}/operations/${restart.id}`, { token })).body).toEqual(restart)
      expect(await cancel(restart.id, { token })).toMatchObject({
        status: 403, body: { message: 'You need additional permissions to change the infrastructure of this project' },
      })
      expect(await cancel(rotation.id, { token })).toMatchObject({
        status: 403, body: { message: 'You need additional permissions to change the secrets of this project' },
      })
    }
    expect((await api(t, 'GET', `/platform/projects/${ref}/operations`, { cookie })).body.operations).toEqual(list)
  })

  it('answers bad ids with 400 and unknown or other projects\' operations with 404', async () => {
    const { operation_id: id } = (await api(t, 'POST', `/platform/projects/${ref}/restart`, { cookie })).body
    await waitForOperation(id, 'to end', (op) => op.finished_at !== null)
    expect(await api(t, 'GET', `/platform/projects/${ref}/operations/not-a-uuid`, { cookie })).toMatchObject({
      status: 400, body: { message: 'The operation id must be a UUID' },
    })
    expect(await cancel('42')).toMatchObject({ status: 400, body: { message: 'The operation id must be a UUID' } })
    expect(await api(t, 'GET', `/platform/projects/NOT-A-REF/operations`, { cookie })).toMatchObject({ status: 400 })
    const unknown = randomUUID()
    expect(await cancel(unknown)).toMatchObject({ status: 404, body: { message: `Operation ${unknown} not found` } })
    const other = (await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Other', organization_slug: slug, db_pass: PASSWORD })).body.ref
    expect(await api(t, 'GET', `/platform/projects/${other}/operations/${id}`, { cookie })).toMatchObject({
      status: 404, body: { message: `Operation ${id} not found` },
    })
    expect((await api(t, 'POST', `/platform/projects/${other}/operations/${id}/cancel`, { cookie })).status).toBe(404)
    await waitForStatus(t, other, { cookie }, 'ACTIVE_HEALTHY')
  })
})
