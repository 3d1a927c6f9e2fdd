import fs from 'node:fs'
import path from 'node:path'
import { PITR_RETENTION_DAYS, type PitrVariant, type PitrWindow } from '@stratum/contracts'
import type { Queryable } from '../../store/db.js'
import { adminConnection, withAdminClient } from '../bootstrap-roles.js'
import { RECOVERY_SETTINGS } from './local-archive.js'
import type { OperationContext } from '../operations/operation.js'
import type { ProjectRow } from '../project-store.js'
import { ProjectService } from '../projects.js'
import { baseBackupsDir, walArchiveDir } from './archive-paths.js'

/**
 * Point-in-time recovery over a project's WAL archive: base backups (taken online, pruned to the add-on's
 * retention window), the recoverable window, and a copy of the project as it was at a moment: the newest
 * base backup consistent before it, plus the archived WAL replayed up to it.
 */

interface BaseBackupRow {
  id: string
  directory: string
  timeline: number
  start_wal_file: string
  consistent_at: Date
}

/** How long the newest archived WAL may take to reach the archive after a switch. */
const ARCHIVE_WAIT_MS = 120_000

export async function takeBaseBackup(ctx: OperationContext, project: ProjectRow): Promise<void> {
  const admin = ctx.projects.adminConnection(project)
  const archiving = await withAdminClient(admin, async (client) => (await client.query<{ mode: string }>(`SELECT current_setting('archive_mode') AS mode`)).rows[0]?.mode)
  if (archiving !== 'on') throw new Error('WAL archiving is not on yet: the instance turns it on at its next restart')
  const dir = path.join(baseBackupsDir(ctx.dataDir, project.ref), new Date().toISOString().replace(/[:.]/g, '-'))
  const copy = await ctx.provider.baseBackup(ProjectService.spec(project), ctx.projects.credentials(project).adminPassword, dir)
  await ctx.db.query(
    `INSERT INTO pitr_base_backups (project_ref, directory, timeline, start_wal_file, consistent_at) VALUES ($1, $2, $3, $4, now())`,
    [project.ref, dir, copy.timeline, copy.startWalFile],
  )
  await pruneArchive(ctx, project)
}

/**
 * Keeps what the retention window needs: every base backup consistent inside it, the newest one before
 * it (the window's start replays from there), and the WAL from the oldest kept backup on.
 */
async function pruneArchive(ctx: OperationContext, project: ProjectRow): Promise<void> {
  const days = PITR_RETENTION_DAYS[(project.pitr_variant ?? 'pitr_7') as PitrVariant]
  const backups = await listBaseBackups(ctx.db, project.ref)
  const windowStart = Date.now() - days * 24 * 3600 * 1000
  const before = backups.filter((backup) => backup.consistent_at.getTime() < windowStart)
  const doomed = before.slice(0, -1)
  for (const backup of doomed) {
    fs.rmSync(backup.directory, { recursive: true, force: true })
    await ctx.db.query('DELETE FROM pitr_base_backups WHERE id = $1', [backup.id])
  }
  const oldest = backups.find((backup) => !doomed.includes(backup))
  if (!oldest) return
  const walDir = walArchiveDir(ctx.dataDir, project.ref)
  const keepFrom = oldest.start_wal_file.slice(8)
  for (const name of fs.existsSync(walDir) ? fs.readdirSync(walDir) : []) {
    if (/^[0-9A-F]{24}$/.test(name) && name.slice(8) < keepFrom) fs.rmSync(path.join(walDir, name), { force: true })
  }
}

export async function listBaseBackups(db: Queryable, ref: string): Promise<BaseBackupRow[]> {
  const { rows } = await db.query<BaseBackupRow>('SELECT * FROM pitr_base_backups WHERE project_ref = $1 ORDER BY consistent_at', [ref])
  return rows
}

/** The moments a project can be restored to: from its oldest base backup's consistent point until now. */
export async function recoverableWindow(db: Queryable, project: ProjectRow): Promise<PitrWindow> {
  if (!project.pitr_variant) return {}
  const oldest = (await listBaseBackups(db, project.ref))[0]
  if (!oldest) return {}
  const earliest = Math.ceil(oldest.consistent_at.getTime() / 1000)
  const latest = Math.floor(Date.now() / 1000)
  // In the second after the first backup's consistent point no whole second is recoverable yet: the window
  // opens with the next one (an inverted window would read as "no window" to a client and stay so until it asked again).
  return latest >= earliest ? { earliestPhysicalBackupDateUnix: earliest, latestPhysicalBackupDateUnix: latest } : {}
}

/**
 * Makes sure the archive holds the WAL past `target`: a commit now (a record after the target for the
 * recovery to stop at), then a switch to a new segment, then a wait until that segment is archived.
 * A stopped instance has archived everything it wrote at its shutdown.
 */
export async function archiveThrough(ctx: OperationContext, project: ProjectRow): Promise<void> {
  if (!(await ctx.provider.isRunning(ProjectService.spec(project)))) return
  await withAdminClient(ctx.projects.adminConnection(project), async (client) => {
    await client.query('BEGIN')
    await client.query('SELECT txid_current()')
    await client.query('COMMIT')
    const { rows } = await client.query<{ segment: string }>('SELECT pg_walfile_name(pg_switch_wal()) AS segment')
    const segment = rows[0]!.segment
    const deadline = Date.now() + ARCHIVE_WAIT_MS
    for (;;) {
      const archived = await client.query<{ last: string | null; failed: string | null }>(
        'SELECT last_archived_wal AS last, last_failed_wal AS failed FROM pg_stat_archiver',
      )
      const last = archived.rows[0]?.last
      if (last && last.slice(8) >= segment.slice(8)) return
      if (Date.now() > deadline) throw new Error(`The WAL archive did not receive ${segment} in time${archived.rows[0]?.failed ? ` (last failure: ${archived.rows[0].failed})` : ''}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })
}

/** The newest base backup consistent at or before the target; an error in plain words when none is. */
export async function baseBackupFor(db: Queryable, project: ProjectRow, target: Date): Promise<BaseBackupRow> {
  if (!project.pitr_variant) throw new Error('Point-in-time recovery needs the PITR add-on')
  if (target.getTime() > Date.now()) throw new Error('The recovery target is in the future')
  const candidates = (await listBaseBackups(db, project.ref)).filter((backup) => backup.consistent_at.getTime() <= target.getTime())
  const chosen = candidates.at(-1)
  if (!chosen || !fs.existsSync(chosen.directory)) throw new Error(`No backup covers ${target.toISOString()}: the recoverable window starts later`)
  return chosen
}

/** A branch as its parent was at `target`: built from the parent's archive into the branch's (empty) data. */
export async function copyFromArchive(ctx: OperationContext, parent: ProjectRow, branch: ProjectRow, target: Date): Promise<void> {
  const base = await baseBackupFor(ctx.db, parent, target)
  await archiveThrough(ctx, parent)
  await ctx.provider.buildFromArchive(ProjectService.spec(branch), { baseBackupDir: base.directory, walDir: walArchiveDir(ctx.dataDir, parent.ref), startWalFile: base.start_wal_file, target })
}

/**
 * After a recovery from the archive: waits until the server has promoted itself, then removes the
 * recovery settings and the staged WAL (a later recovery writes its own). A copy that needed no
 * archive recovery passes straight through.
 */
export async function finishRecovery(ctx: OperationContext, project: ProjectRow, adminPassword: string): Promise<void> {
  const deadline = Date.now() + RECOVERY_WAIT_MS
  await withAdminClient(adminConnectionOf(project, adminPassword), async (client) => {
    for (;;) {
      const { rows } = await client.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering')
      if (!rows[0]?.recovering) break
      if (Date.now() > deadline) throw new Error('The recovery did not reach its target in time')
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    for (const setting of RECOVERY_SETTINGS) await client.query(`ALTER SYSTEM RESET ${setting}`)
    await client.query('SELECT pg_reload_conf()')
  })
  await ctx.provider.clearRecoveryFiles(ProjectService.spec(project))
}

const RECOVERY_WAIT_MS = 10 * 60_000
const adminConnectionOf = (project: ProjectRow, password: string) => adminConnection(project.port, password)
