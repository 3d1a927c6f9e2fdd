import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * Copies of file trees that are on disk when the call returns: what a Postgres data directory copy needs
 * (branches, resets, PITR base backups) before the platform records it as whole.
 *
 * Why durable here and not by Postgres: a copy's first start replays WAL from its backup's checkpoint and
 * assumes every page before it is on disk. Postgres fsyncs the data directory once at that start
 * (SyncDataDirectory), but the copy's directory is renamed into place before, and a host crash between
 * the rename and that start would leave a "whole" copy with pages that never reached the disk. So every
 * file and directory is synced before the call returns (the caller renames after), and Postgres's own
 * pass at the start then finds nothing left to write.
 *
 * How it stays fast (measured on this machine's ext4: a 1 GB database copied and synced in 1-2 s, where `cp -a`
 * without any sync took 12-20 s):
 * - Reflink first (FICLONE): where the filesystem shares blocks (XFS, btrfs) a file costs a metadata
 *   update, whatever its size; probed once per copy, and a file that cannot be cloned is copied.
 * - Otherwise a large file is copied by cp in the kernel and a small one read to its end and written here (copyContents
 *   says why not copyFile), a large one synced as soon as it is written, so the disk writes it while the next ones
 *   are copied.
 * - Small files (a fresh cluster has about a thousand catalog files) are synced together at the end by one
 *   syncfs: an fsync each costs a journal commit each (measured: 2 s of fsyncs for 25 MB).
 * - A few files at once, largest first (a 1 GB relation segment does not start last).
 */

/** Files from this size are synced each on its own as soon as copied; smaller ones all together at the end. */
const SYNCED_ALONE_FROM = 16 * 1024 * 1024
/** Bytes read and written at a time: measured on this ext4, 1 GB took 0.85-1.2 s at 16 MB and 9-11 s at 4 MB. */
const CHUNK = 16 * 1024 * 1024
/** Files copied at once: enough to overlap the disk and two cores without thousands of open files. */
const WORKERS = 4

export type CopyMethod = 'reflink' | 'copy'

/** Who the copy's files belong to (the server that will run on them), when the platform runs as root. */
export interface FileOwner {
  uid: number
  gid: number
}

export interface CopyOptions {
  /** Whether to clone (probed when absent). */
  reflink?: boolean
  /**
   * Given to every file and directory before the sync: the server then does not chown its tree at its first
   * start, which would dirty every inode again for Postgres's own fsync pass (measured on XFS: 0.25 s of
   * log forces for a fresh cluster's thousand files).
   */
  owner?: FileOwner
}

interface FileEntry {
  from: string
  to: string
  size: number
  mode: number
}

/** Files Postgres may create and drop while a copy runs: a vanished one is simply not copied (as pg_basebackup does). */
const vanished = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'
/** A filesystem without reflinks answers one of these to FICLONE. */
const cannotClone = (error: unknown) => ['EOPNOTSUPP', 'ENOTSUP', 'EXDEV', 'EINVAL', 'ENOSYS', 'ENOTTY'].includes((error as NodeJS.ErrnoException).code ?? '')

/** Whether `dir`'s filesystem clones files (FICLONE through copyFile, without a child process). */
export async function supportsReflink(dir: string): Promise<boolean> {
  fs.mkdirSync(dir, { recursive: true })
  const probe = path.join(dir, `.reflink-probe-${process.pid}-${Date.now()}`)
  try {
    await fs.promises.writeFile(probe, 'x')
    await fs.promises.copyFile(probe, `${probe}.copy`, fs.constants.COPYFILE_FICLONE_FORCE)
    return true
  } catch {
    return false
  } finally {
    await fs.promises.rm(probe, { force: true })
    await fs.promises.rm(`${probe}.copy`, { force: true })
  }
}

/** Files and directories under the named entries of `sourceDir`; directories are made in `targetDir` (modes kept). */
function walk(sourceDir: string, targetDir: string, names: string[], owner: FileOwner | undefined): { files: FileEntry[]; dirs: string[] } {
  const files: FileEntry[] = []
  const dirs: string[] = []
  const visit = (from: string, to: string) => {
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
      if (owner) fs.chownSync(to, owner.uid, owner.gid)
      dirs.push(to)
      let children: string[] = []
      try {
        children = fs.readdirSync(from)
      } catch (error) {
        if (!vanished(error)) throw error
      }
      for (const child of children) visit(path.join(from, child), path.join(to, child))
    } else if (stat.isFile()) {
      files.push({ from, to, size: stat.size, mode: stat.mode & 0o777 })
    }
  }
  for (const name of names) visit(path.join(sourceDir, name), path.join(targetDir, name))
  return { files, dirs }
}

/** fsync of a path (a file, or a directory for the entries in it). */
export const syncDirectory = (dir: string) => syncPath(dir)

async function syncPath(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * One file, copied to its end, then synced when large. Never libuv's copyFile (copy_file_range from Node): that copies
 * the size the file had when it began and, when the file shrinks meanwhile, never returns (measured: a 300 MB file
 * truncated during copyFile kept its thread spinning). An online copy meets exactly that: Postgres truncates relation
 * files while it runs (TRUNCATE and DROP empty the first segment, VACUUM cuts empty pages at the end). What a
 * relation lost or gained after it was read is in the WAL replayed at the copy's first start.
 *
 * A large file goes to coreutils' cp, which copies in the kernel (copy_file_range) until the source's end as it is
 * then, and ends when the file shrinks (measured: a 2 GB file truncated mid-copy, cp ended with what was there). Read
 * and written here in 16 MB steps, 1 GB took 2.0-3.2 s against cp's 0.61-0.64 s, each synced (this machine's ext4).
 * Small files stay in this process: a process each would cost more than their copy.
 */
async function copyContents(file: FileEntry, buffer: Buffer, owner: FileOwner | undefined, unsynced: string[]): Promise<void> {
  if (file.size >= SYNCED_ALONE_FROM && (await copiedByCp(file))) {
    const target = await fs.promises.open(file.to, 'r')
    try {
      await target.chmod(file.mode)
      if (owner) await target.chown(owner.uid, owner.gid)
      // Synced as soon as copied: the disk writes it while the next ones are copied.
      await target.sync()
    } finally {
      await target.close()
    }
    return
  }
  // Never through a link (walk() took regular files only; one put in a file's place since is refused, not followed).
  const source = await fs.promises.open(file.from, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
  try {
    const target = await fs.promises.open(file.to, 'w', file.mode)
    try {
      if (owner) await target.chown(owner.uid, owner.gid)
      for (let offset = 0; ; ) {
        const { bytesRead } = await source.read(buffer, 0, buffer.length, offset)
        if (bytesRead === 0) break
        for (let written = 0; written < bytesRead; ) written += (await target.write(buffer, written, bytesRead - written, offset + written)).bytesWritten
        offset += bytesRead
      }
      // A large file's sync starts as soon as it is written: the disk writes it while the next ones are copied.
      if (file.size >= SYNCED_ALONE_FROM) await target.sync()
      else unsynced.push(file.to)
    } finally {
      await target.close()
    }
  } finally {
    await source.close()
  }
}

/**
 * Copies a file with cp (no attributes kept: the caller sets mode and owner). False when cp could not (none on this
 * host, or a failure the in-process copy then meets and reports in its own words); a source gone meanwhile throws
 * ENOENT, as the in-process copy would. A link put in the file's place since walk() is copied as a link (-P), then
 * refused: never followed to a file outside the data directory, never chmod-ed or chown-ed through.
 */
async function copiedByCp(file: FileEntry): Promise<boolean> {
  try {
    await run('cp', ['-P', '--no-preserve=all', '--', file.from, file.to])
  } catch {
    if (!fs.existsSync(file.from)) throw Object.assign(new Error(`${file.from} vanished during the copy`), { code: 'ENOENT' })
    fs.rmSync(file.to, { force: true })
    return false
  }
  if (!(await fs.promises.lstat(file.to)).isFile()) {
    await fs.promises.rm(file.to, { force: true })
    throw new Error(`${file.from} is no longer a regular file: not copied`)
  }
  return true
}

async function copyOne(file: FileEntry, options: CopyOptions, buffer: Buffer, unsynced: string[]): Promise<void> {
  const { owner } = options
  if (options.reflink) {
    try {
      await fs.promises.copyFile(file.from, file.to, fs.constants.COPYFILE_FICLONE_FORCE)
      if (owner) await fs.promises.chown(file.to, owner.uid, owner.gid)
      // Only metadata to write: synced with the others at the end.
      unsynced.push(file.to)
      return
    } catch (error) {
      if (!cannotClone(error)) throw error
    }
  }
  await copyContents(file, buffer, owner, unsynced)
}

/**
 * Copies entries (files and trees) of `sourceDir` into `targetDir` and syncs every file and directory
 * made. Modes are kept; owners are `options.owner` or the caller (a server otherwise takes its tree over
 * when it starts). Answers how: 'reflink' when the filesystem shared the blocks.
 */
export async function copyEntries(sourceDir: string, targetDir: string, names: string[], options: CopyOptions = {}): Promise<CopyMethod> {
  const clone = options.reflink ?? (await supportsReflink(targetDir))
  const { files, dirs } = walk(sourceDir, targetDir, names, options.owner)
  files.sort((a, b) => b.size - a.size)
  const unsynced: string[] = []
  let next = 0
  const worker = async () => {
    const buffer = Buffer.allocUnsafe(CHUNK)
    for (let index = next++; index < files.length; index = next++) {
      try {
        await copyOne(files[index]!, { ...options, reflink: clone }, buffer, unsynced)
      } catch (error) {
        if (!vanished(error)) throw error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(WORKERS, files.length) }, worker))
  await syncAll(targetDir, unsynced, [...new Set([...dirs, targetDir])].reverse())
  return clone ? 'reflink' : 'copy'
}

/**
 * The small (or cloned) files and the directories made: one syncfs of the target's filesystem (`sync -f`,
 * coreutils; one journal commit) rather than an fsync per file; where that fails, fsync one by one.
 */
async function syncAll(targetDir: string, files: string[], dirs: string[]): Promise<void> {
  if (!files.length && !dirs.length) return
  try {
    await run('sync', ['-f', targetDir])
    return
  } catch {
    // No coreutils sync with -f (syncfs): one by one below.
  }
  let next = 0
  const worker = async () => {
    for (let index = next++; index < files.length; index = next++) await syncPath(files[index]!).catch((error: unknown) => {
      if (!vanished(error)) throw error
    })
  }
  await Promise.all(Array.from({ length: WORKERS }, worker))
  for (const dir of dirs) await syncPath(dir)
}

/** Writes a small file and syncs it (backup_label beside a synced copy). */
export async function writeDurably(file: string, text: string, owner?: FileOwner): Promise<void> {
  const handle = await fs.promises.open(file, 'w', 0o600)
  try {
    if (owner) await handle.chown(owner.uid, owner.gid)
    await handle.writeFile(text)
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Renames and syncs the directory holding the new name, so that the rename survives a host crash. */
export async function renameDurably(from: string, to: string): Promise<void> {
  await fs.promises.rename(from, to)
  await syncPath(path.dirname(to))
}
