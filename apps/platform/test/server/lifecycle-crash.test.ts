import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChildPlatform } from './child-platform.js'
import type { TestPlatform } from './harness.js'
import { api, querySuperuser, login, waitFor, waitForStatus } from './harness.js'

/**
 * kill -9 of the platform in the middle of each lifecycle operation, then a new start on the same
 * data directory: the operation finishes (or rolls back), and every row is still there.
 */
const PASSWORD = 'crash-password-1'
const STEP_DELAY = { STRATUM_OPERATION_STEP_DELAY_MS: '1500' }
let platform: ChildPlatform
let t: TestPlatform
let cookie: string
let ref: string
let port: number

const sql = <T = any>(text: string) => querySuperuser<T>(port, PASSWORD, text)
const checksum = async () => (await sql(`SELECT count(*) AS n, md5(string_agg(i::text || payload, ',' ORDER BY i)) AS sum FROM rows`))[0]

/** The instance is down: connections are refused (not merely slow on a busy machine). */
const instanceStopped = () => sql('SELECT 1').then(() => false, (error: { code?: string }) => error.code === 'ECONNREFUSED')
const instanceAnswers = () => sql('SELECT 1').then(() => true, () => false)
/** The pause's physical backup is being written (or, on a fast machine, already written). */
const backupStarted = async () => {
  const files = await fs.promises.readdir(path.join(platform.dataDir, 'backups', ref)).catch(() => [] as string[])
  return files.some((file) => file.endsWith('-physical.tar.gz.partial') || file.endsWith('-physical.tar.gz'))
}

/** Starts the operation, waits until it has reached the point to interrupt, then kills the platform. */
async function crashDuring(route: string, body: unknown, runningStatus: string, reached: () => Promise<boolean>, what: string): Promise<void> {
  await platform.start(STEP_DELAY)
  const result = await api(t, 'POST', `/platform/projects/${ref}/${route}`, { cookie }, body)
  expect(result.status, JSON.stringify(result.body)).toBe(200)
  await waitForStatus(t, ref, { cookie }, runningStatus)
  await waitFor(reached, { timeoutMs: 30_000, intervalMs: 50, what })
  await platform.crash()
  await platform.start()
}

beforeAll(async () => {
  platform = new ChildPlatform()
  await platform.start()
  t = { platform: { url: platform.url } } as unknown as TestPlatform
  cookie = await login(t)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const created = await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Crash', organization_slug: slug, db_pass: PASSWORD })
  ref = created.body.ref
  port = created.body.db_port
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY')
  await sql(`CREATE TABLE rows AS SELECT i, md5(i::text) AS payload FROM generate_series(1, 50000) i`)
  await platform.stop()
})
afterAll(() => platform?.cleanup())

describe('a platform killed mid-operation', () => {
  it('finishes a pause interrupted during its backup, and a restore interrupted after start', async () => {
    const before = await (async () => {
      await platform.start()
      const sum = await checksum()
      await platform.stop()
      return sum
    })()
    await crashDuring('pause', undefined, 'PAUSING', backupStarted, 'the physical backup to start')
    await waitForStatus(t, ref, { cookie }, 'INACTIVE', 30_000)
    const backups = (await api(t, 'GET', `/platform/database/${ref}/backups`, { cookie })).body.backups
    expect(backups.filter((b: { isPhysicalBackup: boolean }) => b.isPhysicalBackup)).toHaveLength(1)
    await platform.stop()

    await crashDuring('restore', {}, 'RESTORING', instanceAnswers, 'the instance to be started')
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 30_000)
    expect(await checksum()).toEqual(before)
    await platform.stop()
  })

  it('finishes a resize interrupted between stop and start, with the new settings live', async () => {
    await platform.start()
    const before = await checksum()
    await platform.stop()
    await crashDuring('resize', { desired_instance_size: 'medium' }, 'RESIZING', instanceStopped, 'the instance to be stopped')
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 30_000)
    expect((await sql(`SELECT current_setting('max_connections') AS mc`))[0].mc).toBe('120')
    expect(await checksum()).toEqual(before)
    await platform.stop()
  })

  it('finishes a restart interrupted after the instance stopped', async () => {
    await crashDuring('restart', undefined, 'RESTARTING', instanceStopped, 'the instance to be stopped')
    await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 30_000)
    expect((await sql('SELECT count(*)::int AS n FROM rows'))[0].n).toBe(50000)
    await platform.stop()
  })
})
