import fs from 'node:fs'
import path from 'node:path'
import type { AdminConnection } from '../bootstrap-roles.js'
import { openProjectSession } from '../project-connections.js'
import { copyEntries, supportsReflink, syncDirectory, writeDurably, type FileOwner } from './durable-copy.js'

/**
 * A physical, consistent copy of a running Postgres cluster, taken online (the source keeps serving):
 * the low-level base backup API (pg_backup_start / pg_backup_stop, Postgres 15+) around a file copy. There
 * is no pg_basebackup binary in the embedded Postgres packages, and a file copy is what makes a branch
 * instant on a copy-on-write filesystem: FICLONE shares the blocks on XFS and btrfs (the copy takes about
 * the same time for 10 MB or 10 GB), with the fastest durable copy elsewhere (ext4; durable-copy.ts).
 *
 * The copy starts as a cluster recovering from a base backup: backup_label names the checkpoint to
 * replay from, and pg_wal (copied after pg_backup_stop) holds every record up to the backup's end, so
 * the first start replays to a consistent state on its own. A temporary replication slot holds the WAL
 * from the backup's start until the copy is done: a checkpoint during a long copy cannot recycle it.
 */

/** Top-level entries of a data directory that a copy leaves out (as pg_basebackup does). */
const SKIPPED = new Set(['pg_wal', 'postmaster.pid', 'postmaster.opts', 'log', 'backup_label', 'tablespace_map', 'pg_replslot', 'recovery.signal', 'standby.signal'])
/** Directories whose contents are per-server state: created empty in the copy. */
const EMPTY_DIRS = ['pg_wal', 'pg_wal/archive_status', 'pg_replslot', 'log']

export interface OnlineCopyResult {
  /** 'reflink' when the filesystem shared the blocks (copy-on-write), else 'copy'. */
  method: 'reflink' | 'copy'
  /** WAL position the copy is consistent from (pg_backup_stop's). */
  stopLsn: string
  /** The source's timeline and the WAL file the backup starts in: what a WAL-archive restore needs. */
  timeline: number
  startWalFile: string
  /** Seconds spent in each part (the bench prints them): backup start (its checkpoint), files, backup stop, WAL. */
  phases: { backupStart: number; files: number; backupStop: number; wal: number }
}

export { copyEntries, supportsReflink }

const since = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9

/**
 * Copies the running cluster whose data directory is `sourceDataDir` (reached as its superuser through
 * `source`) into `targetDataDir`, which must not exist. Everything in it is on disk when this returns
 * (durable-copy.ts says why): the caller renames it into place, then starts it as a new server, which
 * `owner` names (its files are given to it as they are copied).
 */
export async function copyRunningCluster(source: AdminConnection, sourceDataDir: string, targetDataDir: string, label: string, owner?: FileOwner): Promise<OnlineCopyResult> {
  if (fs.existsSync(targetDataDir)) throw new Error(`The copy's data directory ${targetDataDir} already exists`)
  const reflink = await supportsReflink(path.dirname(targetDataDir))
  const client = await openProjectSession(source, { applicationName: 'stratum-branch-copy' })
  try {
    const slot = `stratum_copy_${process.pid}_${Date.now()}`
    let clock = process.hrtime.bigint()
    // Temporary: dropped with this session, also when the platform dies half-way.
    await client.query('SELECT pg_create_physical_replication_slot($1, true, true)', [slot])
    // fast = true: an immediate checkpoint, not one spread over checkpoint_timeout.
    const { rows: started } = await client.query<{ lsn: string; timeline: number; walfile: string }>(
      `SELECT lsn::text, (SELECT timeline_id FROM pg_control_checkpoint()) AS timeline, pg_walfile_name(lsn) AS walfile
       FROM pg_backup_start($1, true) AS lsn`,
      [label.slice(0, 1000)],
    )
    const backupStart = since(clock)
    clock = process.hrtime.bigint()
    // Made before the copy: its final sync of the data directory covers their entries.
    for (const dir of ['', ...EMPTY_DIRS]) {
      fs.mkdirSync(path.join(targetDataDir, dir), { mode: 0o700 })
      if (owner) fs.chownSync(path.join(targetDataDir, dir), owner.uid, owner.gid)
    }
    const names = fs.readdirSync(sourceDataDir).filter((name) => !SKIPPED.has(name))
    await copyEntries(sourceDataDir, targetDataDir, names, { reflink, owner })
    const files = since(clock)
    clock = process.hrtime.bigint()
    const { rows: stopped } = await client.query<{ lsn: string; labelfile: string; spcmapfile: string; walfile: string }>(
      `SELECT lsn::text, labelfile, spcmapfile, pg_walfile_name(lsn) AS walfile FROM pg_backup_stop(false)`,
    )
    const end = stopped[0]!
    const backupStop = since(clock)
    clock = process.hrtime.bigint()
    // The WAL from the backup's start to its end: copied now that the backup has ended. Segments before the
    // start may be recycled (renamed) at any moment and are not needed; those after the end are recycled
    // ones waiting for reuse (up to max_wal_size of old data) or hold records past the end, which the
    // recovery does not need: pg_basebackup leaves them out too.
    const startSegment = started[0]!.walfile.slice(8)
    const endSegment = end.walfile.slice(8)
    const walFiles = fs
      .readdirSync(path.join(sourceDataDir, 'pg_wal'))
      .filter((name) => (/^[0-9A-F]{24}$/.test(name) && name.slice(8) >= startSegment && name.slice(8) <= endSegment) || name.endsWith('.history'))
    await copyEntries(path.join(sourceDataDir, 'pg_wal'), path.join(targetDataDir, 'pg_wal'), walFiles, { reflink, owner })
    await writeDurably(path.join(targetDataDir, 'backup_label'), end.labelfile, owner)
    if (end.spcmapfile) await writeDurably(path.join(targetDataDir, 'tablespace_map'), end.spcmapfile, owner)
    await syncDirectory(targetDataDir)
    const wal = since(clock)
    await client.query('SELECT pg_drop_replication_slot($1)', [slot]).catch(() => {})
    return {
      method: reflink ? 'reflink' : 'copy',
      stopLsn: end.lsn,
      timeline: started[0]!.timeline,
      startWalFile: started[0]!.walfile,
      phases: { backupStart, files, backupStop, wal },
    }
  } catch (error) {
    fs.rmSync(targetDataDir, { recursive: true, force: true })
    throw error
  } finally {
    await client.end().catch(() => {})
  }
}
