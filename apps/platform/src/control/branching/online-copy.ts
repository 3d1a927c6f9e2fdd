import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type { AdminConnection } from '../bootstrap-roles.js'
import { openProjectSession } from '../project-connections.js'

const run = promisify(execFile)

/**
 * A physical, consistent copy of a running Postgres cluster, taken online (the source keeps serving):
 * the low-level base backup API (pg_backup_start / pg_backup_stop, Postgres 15+) around a file copy. There
 * is no pg_basebackup binary in the embedded Postgres packages, and a file copy is what makes a branch
 * instant on a copy-on-write filesystem: `cp --reflink=auto` shares the blocks on XFS and btrfs (the copy
 * takes the same time for 10 MB or 10 GB) and falls back to a plain copy elsewhere (ext4).
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
}

/** Whether a directory's filesystem can share blocks between files (XFS with reflink, btrfs). */
export async function supportsReflink(dir: string): Promise<boolean> {
  const probe = path.join(dir, `.reflink-probe-${process.pid}`)
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(probe, 'x')
  try {
    await run('cp', ['--reflink=always', probe, `${probe}.copy`])
    return true
  } catch {
    return false
  } finally {
    fs.rmSync(probe, { force: true })
    fs.rmSync(`${probe}.copy`, { force: true })
  }
}

/** Files Postgres may create and drop while the copy runs: a vanished one is simply not copied (as pg_basebackup does). */
const vanished = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'

/**
 * Copies entries (files and trees) of `sourceDir` into `targetDir`. Each file goes through copyFile with
 * FICLONE: shared blocks where the filesystem can, a kernel copy (copy_file_range) elsewhere. Modes are kept;
 * the target's server takes the tree over (its own OS user) when it starts.
 */
export async function copyEntries(sourceDir: string, targetDir: string, names: string[]): Promise<void> {
  const files: [string, string][] = []
  const walk = (from: string, to: string) => {
    let stat: fs.Stats
    try {
      stat = fs.lstatSync(from)
    } catch (error) {
      if (vanished(error)) return
      throw error
    }
    if (stat.isDirectory()) {
      // Temporary files of running queries are never part of a copy.
      if (path.basename(from) === 'pgsql_tmp') return
      fs.mkdirSync(to, { recursive: true, mode: stat.mode & 0o777 })
      let children: string[] = []
      try {
        children = fs.readdirSync(from)
      } catch (error) {
        if (!vanished(error)) throw error
      }
      for (const child of children) walk(path.join(from, child), path.join(to, child))
    } else if (stat.isFile()) {
      files.push([from, to])
    }
  }
  for (const name of names) walk(path.join(sourceDir, name), path.join(targetDir, name))
  // A few copies at once: enough to keep the disk busy without opening thousands of files together.
  let next = 0
  const worker = async () => {
    for (let index = next++; index < files.length; index = next++) {
      const [from, to] = files[index]!
      try {
        await fs.promises.copyFile(from, to, fs.constants.COPYFILE_FICLONE)
        await fs.promises.chmod(to, (await fs.promises.stat(from)).mode & 0o777)
      } catch (error) {
        if (!vanished(error)) throw error
      }
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
}

/**
 * Copies the running cluster whose data directory is `sourceDataDir` (reached as its superuser through
 * `source`) into `targetDataDir`, which must not exist. The caller starts the copy as a new server.
 */
export async function copyRunningCluster(source: AdminConnection, sourceDataDir: string, targetDataDir: string, label: string): Promise<OnlineCopyResult> {
  if (fs.existsSync(targetDataDir)) throw new Error(`The copy's data directory ${targetDataDir} already exists`)
  const reflink = await supportsReflink(path.dirname(targetDataDir))
  const client = await openProjectSession(source, { applicationName: 'stratum-branch-copy' })
  try {
    const slot = `stratum_copy_${process.pid}_${Date.now()}`
    // Temporary: dropped with this session, also when the platform dies half-way.
    await client.query('SELECT pg_create_physical_replication_slot($1, true, true)', [slot])
    const { rows: started } = await client.query<{ lsn: string; timeline: number; walfile: string }>(
      `SELECT lsn::text, (SELECT timeline_id FROM pg_control_checkpoint()) AS timeline, pg_walfile_name(lsn) AS walfile
       FROM pg_backup_start($1, true) AS lsn`,
      [label.slice(0, 1000)],
    )
    fs.mkdirSync(targetDataDir, { mode: 0o700 })
    const names = fs.readdirSync(sourceDataDir).filter((name) => !SKIPPED.has(name))
    await copyEntries(sourceDataDir, targetDataDir, names)
    const { rows: stopped } = await client.query<{ lsn: string; labelfile: string; spcmapfile: string }>(
      `SELECT lsn::text, labelfile, spcmapfile FROM pg_backup_stop(false)`,
    )
    const end = stopped[0]!
    for (const dir of EMPTY_DIRS) fs.mkdirSync(path.join(targetDataDir, dir), { recursive: true, mode: 0o700 })
    // The WAL from the backup's start to its end (and a little after): copied now that the backup has ended.
    // Segments before the backup's start may be recycled (renamed) at any moment and are not needed.
    const startSegment = started[0]!.walfile.slice(8)
    const walFiles = fs
      .readdirSync(path.join(sourceDataDir, 'pg_wal'))
      .filter((name) => (/^[0-9A-F]{24}$/.test(name) && name.slice(8) >= startSegment) || name.endsWith('.history'))
    await copyEntries(path.join(sourceDataDir, 'pg_wal'), path.join(targetDataDir, 'pg_wal'), walFiles)
    fs.writeFileSync(path.join(targetDataDir, 'backup_label'), end.labelfile, { mode: 0o600 })
    if (end.spcmapfile) fs.writeFileSync(path.join(targetDataDir, 'tablespace_map'), end.spcmapfile, { mode: 0o600 })
    await client.query('SELECT pg_drop_replication_slot($1)', [slot]).catch(() => {})
    return { method: reflink ? 'reflink' : 'copy', stopLsn: end.lsn, timeline: started[0]!.timeline, startWalFile: started[0]!.walfile }
  } catch (error) {
    fs.rmSync(targetDataDir, { recursive: true, force: true })
    throw error
  } finally {
    await client.end().catch(() => {})
  }
}
