import { READONLY_THRESHOLD } from '@stratum/contracts'
import { PeriodicPass } from '../periodic-pass.js'
import type { Logger } from 'pino'
import type { AdminConnection } from '../../control/bootstrap-roles.js'
import type { ProjectRow } from '../../control/project-store.js'
import type { Db } from '../../store/db.js'
import { DirectorySizer } from './dir-size.js'
import { postmasterPid, sampleProcessTree, type ProcessTreeSample } from './proc.js'
import { applyReadOnly } from './readonly.js'
import { insertSamples, maintainUsage, type UsageSampleRow } from './store.js'

const MAINTAIN_EVERY_MS = 60_000

export interface UsageCollectorOptions {
  db: Db
  log: Logger
  /** A project's live data directory when its instance runs on this machine; null otherwise (no /proc to read). */
  dataDirOf: (ref: string) => string | null
  adminConnection: (row: ProjectRow) => AdminConnection
  intervalMs: number
  diskIntervalMs: number
  /** Realtime's sockets now and its messages so far (a counter) for a project (services/realtime/service.ts). */
  realtimeUsage?: (ref: string) => { connections: number; messages: number }
}

interface Previous {
  pid: number
  atMs: number
  sample: ProcessTreeSample
  realtimeMessages: number
}

type Row = ProjectRow & { disk_quota_bytes: string; readonly_since: Date | null; readonly_override_until: Date | null; readonly_applied: boolean }

/**
 * Samples every running project every few seconds: CPU, memory, connections and disk IO of its instance's process
 * tree from /proc, and its data directory's size (less often: the walk is the costly part). Nothing queries the
 * instances, so sampling costs their query path nothing. After each disk measurement it puts the project into
 * read-only mode at 95% of its disk quota and takes it out below (readonly.ts).
 */
export class UsageCollector extends PeriodicPass {
  private lastMaintained = 0
  private readonly previous = new Map<string, Previous>()
  private readonly disk = new Map<string, { bytes: number; atMs: number }>()
  private readonly sizer = new DirectorySizer()
  /** Projects whose postmaster is new to this collector (started, restarted, upgraded): their read-only setting is applied again. */
  private readonly newPostmasters = new Set<string>()

  constructor(private readonly options: UsageCollectorOptions) {
    super()
  }

  protected interval(): number {
    return this.options.intervalMs
  }

  /** Measures a project's disk now and applies its read-only state (after a quota change or an override). */
  async reconcile(ref: string): Promise<void> {
    await this.running?.catch(() => {})
    this.disk.delete(ref)
    await this.collect()
  }

  protected async pass(): Promise<void> {
    const { db, log } = this.options
    try {
      if (Date.now() - this.lastMaintained > MAINTAIN_EVERY_MS) {
        await maintainUsage(db)
        this.lastMaintained = Date.now()
      }
      const { rows } = await db.query<Row>(`SELECT * FROM projects WHERE status = 'ACTIVE_HEALTHY' ORDER BY ref`)
      const samples: UsageSampleRow[] = []
      for (const row of rows) {
        const sample = this.sample(row.ref)
        if (sample) samples.push(sample)
        // The reads are synchronous (cheaper than promises for thousands of small files): requests run between projects.
        await new Promise((resolve) => setImmediate(resolve))
      }
      await insertSamples(db, samples)
      for (const row of rows) {
        await this.applyReadOnlyState(row).catch((error: Error) => log.warn({ err: error, ref: row.ref }, 'usage collector: cannot change read-only mode'))
      }
      const live = new Set(rows.map((row) => row.ref))
      for (const ref of this.previous.keys()) if (!live.has(ref)) this.previous.delete(ref)
      for (const ref of this.disk.keys()) if (!live.has(ref)) this.disk.delete(ref)
    } catch (error) {
      log.warn({ err: error }, 'usage collector: pass failed')
    }
  }

  private sample(ref: string): UsageSampleRow | null {
    const dataDir = this.options.dataDirOf(ref)
    const pid = dataDir ? postmasterPid(dataDir) : null
    if (!dataDir || !pid) return null
    const now = Date.now()
    const tree = sampleProcessTree(pid)
    if (!tree) return null
    const realtime = this.options.realtimeUsage?.(ref) ?? { connections: 0, messages: 0 }
    const before = this.previous.get(ref)
    this.previous.set(ref, { pid, atMs: now, sample: tree, realtimeMessages: realtime.messages })
    if (before?.pid !== pid) this.newPostmasters.add(ref)
    // Rates need two samples of the same postmaster; the first one after a (re)start only primes them.
    if (!before || before.pid !== pid || now <= before.atMs) return null
    const seconds = (now - before.atMs) / 1000
    const rate = (after: number, earlier: number) => Math.max(0, after - earlier) / seconds
    let disk = this.disk.get(ref)
    if (!disk || now - disk.atMs >= this.options.diskIntervalMs) {
      const bytes = this.sizer.size(dataDir)
      if (bytes !== null) this.disk.set(ref, (disk = { bytes, atMs: now }))
    }
    return {
      ref,
      diskBytes: disk?.bytes ?? null,
      cpuPercent: rate(tree.cpuSeconds, before.sample.cpuSeconds) * 100,
      memoryBytes: tree.memoryBytes,
      connections: tree.connections,
      readBytesPerSecond: rate(tree.readBytes, before.sample.readBytes),
      writeBytesPerSecond: rate(tree.writeBytes, before.sample.writeBytes),
      realtimeConnections: realtime.connections,
      // The counter starts again when the project's realtime state does (rate() keeps that from going negative).
      realtimeMessagesPerSecond: rate(realtime.messages, before.realtimeMessages),
    }
  }

  /** Read-only from 95% of the quota until below it; off while the owner's temporary override lasts. */
  private async applyReadOnlyState(row: Row): Promise<void> {
    const disk = this.disk.get(row.ref)
    const now = Date.now()
    let modeOn = row.readonly_since !== null
    if (disk) modeOn = disk.bytes >= READONLY_THRESHOLD * Number(row.disk_quota_bytes)
    const overriding = row.readonly_override_until !== null && row.readonly_override_until.getTime() > now
    const apply = modeOn && !overriding
    if (modeOn !== (row.readonly_since !== null)) {
      await this.options.db.query(`UPDATE projects SET readonly_since = CASE WHEN $2 THEN now() END WHERE ref = $1`, [row.ref, modeOn])
      this.options.log.info({ ref: row.ref, diskBytes: disk?.bytes, quota: Number(row.disk_quota_bytes) }, modeOn ? 'project read-only: disk at 95% of its quota' : 'project writable again')
    }
    // An upgrade moves the data by dump and restore, which leaves database settings behind: a new postmaster of a
    // read-only project gets the setting again.
    const restarted = this.newPostmasters.delete(row.ref) && apply
    if (apply !== row.readonly_applied || restarted) {
      await applyReadOnly(this.options.adminConnection(row), apply)
      await this.options.db.query('UPDATE projects SET readonly_applied = $2 WHERE ref = $1', [row.ref, apply])
    }
  }
}
