import fs from 'node:fs'
import path from 'node:path'
import type { Logger } from 'pino'
import { isRunning, startTimeOf } from './child-processes.js'

/**
 * One platform per data directory. Its instances, sockets and child processes belong to one process:
 * a second platform on the same directory would adopt the first one's Postgres servers and be left
 * without them (ECONNREFUSED forever) when the first one, still stopping, shut them down.
 *
 * `<dataDir>/platform.pid` names the platform that holds the directory (pid and start time, so a
 * reused pid is not mistaken for it) and whether it is stopping. A start waits while the holder is
 * stopping (up to STOPPING_WAIT_MS), and gives up with a message naming it when it keeps running.
 * A holder killed with -9 leaves its file behind; a file whose process is gone is taken over.
 */

const LOCK_FILE = 'platform.pid'
/** Longest wait for a platform that is stopping on the same data directory. */
export const STOPPING_WAIT_MS = 60_000
/** Longest wait for a running one to start stopping (a restart script signals it just before starting us). */
export const RUNNING_WAIT_MS = 10_000
const POLL_MS = 100

interface LockRecord {
  pid: number
  startTime: string | null
  state: 'running' | 'stopping'
}

export interface PlatformLock {
  readonly file: string
  /** Tells a platform starting on the same directory that this one is stopping: it waits instead of giving up. */
  markStopping(): void
  /** Frees the directory: call last, once every instance and child process is stopped. */
  release(): void
}

/** Data directories locked by platforms of this process. */
const heldHere = new Set<string>()

export class DataDirBusyError extends Error {}

export async function lockDataDir(
  dataDir: string,
  log?: Pick<Logger, 'info'>,
  waits: { stoppingMs?: number; runningMs?: number } = {},
): Promise<PlatformLock> {
  fs.mkdirSync(dataDir, { recursive: true })
  const file = path.join(path.resolve(dataDir), LOCK_FILE)
  const started = Date.now()
  let announced = ''
  for (;;) {
    const own: LockRecord = { pid: process.pid, startTime: startTimeOf(process.pid), state: 'running' }
    if (tryCreate(file, own)) {
      heldHere.add(file)
      return handle(file, own)
    }
    const holder = readHolder(file)
    if (!holder || !holderAlive(holder, file)) {
      // Left by a platform that is gone (kill -9, power cut): take it over.
      removeIfSame(file, holder)
      continue
    }
    const waited = Date.now() - started
    const limit = holder.state === 'stopping' ? (waits.stoppingMs ?? STOPPING_WAIT_MS) : (waits.runningMs ?? RUNNING_WAIT_MS)
    if (waited >= limit) {
      throw new DataDirBusyError(
        holder.state === 'stopping'
          ? `Another Stratum platform (pid ${holder.pid}) is still stopping on the data directory ${dataDir} after ${Math.round(waited / 1000)} s: wait for it to exit, or stop it (kill ${holder.pid}), then start again`
          : `Another Stratum platform (pid ${holder.pid}) runs on the data directory ${dataDir}: stop it first (kill ${holder.pid}), or give this one another STRATUM_DATA_DIR`,
      )
    }
    if (announced !== holder.state) {
      announced = holder.state
      log?.info({ pid: holder.pid, state: holder.state }, `waiting for the platform ${holder.state === 'stopping' ? 'still stopping' : 'running'} on this data directory to exit`)
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

function handle(file: string, own: LockRecord): PlatformLock {
  let released = false
  return {
    file,
    markStopping() {
      if (released) return
      try {
        writeRecord(file, { ...own, state: 'stopping' })
      } catch {
        // The directory went away: nothing to tell.
      }
    },
    release() {
      if (released) return
      released = true
      heldHere.delete(file)
      removeIfSame(file, own)
    },
  }
}

function tryCreate(file: string, record: LockRecord): boolean {
  // Written to a private name first, then linked: the lock file never exists half-written.
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`
  fs.writeFileSync(temporary, JSON.stringify(record) + '\n', { mode: 0o600 })
  try {
    fs.linkSync(temporary, file)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    fs.rmSync(temporary, { force: true })
  }
}

function writeRecord(file: string, record: LockRecord): void {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`
  fs.writeFileSync(temporary, JSON.stringify(record) + '\n', { mode: 0o600 })
  fs.renameSync(temporary, file)
}

function readHolder(file: string): LockRecord | null {
  try {
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as LockRecord
    return Number.isInteger(record.pid) ? record : null
  } catch (error) {
    // Vanished between the create and the read: try again. Unreadable: treated as stale.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { pid: -1, startTime: null, state: 'stopping' } : null
  }
}

function holderAlive(holder: LockRecord, file: string): boolean {
  if (holder.pid === -1) return false
  // This process: held by one of its platforms, else a leftover of a pid this process reuses.
  if (holder.pid === process.pid) return heldHere.has(file)
  if (!isRunning(holder.pid)) return false
  return holder.startTime === null || startTimeOf(holder.pid) === holder.startTime
}

/** Removes the lock file if it still holds `expected` (another start may have taken it meanwhile). */
function removeIfSame(file: string, expected: LockRecord | null): void {
  try {
    const current = fs.readFileSync(file, 'utf8')
    if (expected === null) {
      const parsed = (() => {
        try {
          return JSON.parse(current) as LockRecord
        } catch {
          return null
        }
      })()
      if (parsed && Number.isInteger(parsed.pid)) return // became readable: look again
    } else {
      const parsed = JSON.parse(current) as LockRecord
      if (parsed.pid !== expected.pid || parsed.startTime !== expected.startTime) return
    }
    fs.rmSync(file, { force: true })
  } catch {
    // Already gone.
  }
}
