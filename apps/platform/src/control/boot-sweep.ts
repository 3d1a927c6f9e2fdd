import fs from 'node:fs'
import path from 'node:path'
import type { Logger } from 'pino'
import { isRunning, reapChildren } from './child-processes.js'
import { lockDataDir, type PlatformLock } from './platform-lock.js'

/**
 * What a platform that did not stop cleanly (kill -9, power cut) leaves in its data directory, removed
 * at the next boot before anything starts:
 * - its child processes (PostgREST, Deno) that outlived it: stopped through their pid files;
 * - partial uploads: `storage/<ref>/tmp/*` (services/storage/files.ts streams each upload there and
 *   renames it into place once complete; nothing else reads tmp/);
 * - interrupted deploys: `functions/<ref>/<slug>/.staging-*` (functions/store.ts writes a deploy's files
 *   there and renames the directory into place in the deploy's transaction).
 */

/**
 * Takes the data directory for this platform (waiting for one still stopping on it: platform-lock.ts),
 * then clears what an earlier run left behind. The lock is released when anything here fails.
 */
export async function takeDataDir(dataDir: string, log: Pick<Logger, 'info' | 'warn'>): Promise<PlatformLock> {
  const lock = await lockDataDir(dataDir, log)
  try {
    const reaped = await reapChildren(path.join(dataDir, 'run'), log)
    const killed = reaped.filter((entry) => entry.killed)
    if (killed.length) log.warn({ reaped: killed }, 'stopped child processes an earlier platform left running')
    const removed = sweepInterruptedWrites(dataDir)
    if (removed.length) log.info({ removed }, 'removed partial uploads and interrupted deploys')
    return lock
  } catch (error) {
    lock.release()
    throw error
  }
}

/** Removes partial uploads and interrupted deploys; returns the paths removed. */
export function sweepInterruptedWrites(dataDir: string): string[] {
  const removed: string[] = []
  const remove = (target: string) => {
    fs.rmSync(target, { recursive: true, force: true })
    removed.push(target)
  }
  for (const ref of subdirectories(path.join(dataDir, 'storage'))) {
    const tmp = path.join(dataDir, 'storage', ref, 'tmp')
    for (const entry of entries(tmp)) remove(path.join(tmp, entry))
  }
  for (const ref of subdirectories(path.join(dataDir, 'functions'))) {
    for (const slug of subdirectories(path.join(dataDir, 'functions', ref))) {
      const dir = path.join(dataDir, 'functions', ref, slug)
      for (const entry of entries(dir)) if (entry.startsWith('.staging-')) remove(path.join(dir, entry))
    }
  }
  // The lock file's own temporary names (platform-lock.ts), left by a crash between write and link.
  for (const entry of entries(dataDir)) {
    const writer = /^platform\.pid\.(\d+)\.\d+\.tmp$/.exec(entry)?.[1]
    if (writer && !isRunning(Number(writer))) remove(path.join(dataDir, entry))
  }
  return removed
}

function entries(dir: string): string[] {
  try {
    return fs.readdirSync(dir)
  } catch {
    return []
  }
}

function subdirectories(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  } catch {
    return []
  }
}
