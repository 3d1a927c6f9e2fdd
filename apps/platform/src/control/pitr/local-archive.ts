import fs from 'node:fs'
import path from 'node:path'
import { copyEntries } from '../branching/online-copy.js'
import { restoreCommand } from './archive-paths.js'

/**
 * The file side of a point-in-time recovery on this machine: a data directory made from a base backup,
 * told to replay the WAL archive up to a moment and then open as a server of its own (a new timeline).
 * The settings go to postgresql.auto.conf; the first connection after the recovery resets them
 * (clearRecoverySettings in control/branching/branch-data.ts).
 */
export async function buildFromArchive(targetDataDir: string, baseBackupDir: string, walDir: string, startWalFile: string, target: Date): Promise<void> {
  const partial = `${targetDataDir}.partial`
  fs.rmSync(partial, { recursive: true, force: true })
  fs.mkdirSync(partial, { mode: 0o700 })
  await copyEntries(baseBackupDir, partial, fs.readdirSync(baseBackupDir))
  // The archive belongs to the archiving instance's OS user: the segments the recovery needs are copied
  // beside the new data (its own user's once it starts), and read from there.
  const staged = restoreWalDir(targetDataDir)
  fs.rmSync(staged, { recursive: true, force: true })
  fs.mkdirSync(staged, { mode: 0o700 })
  const needed = fs.readdirSync(walDir).filter((name) => (/^[0-9A-F]{24}$/.test(name) && name.slice(8) >= startWalFile.slice(8)) || name.endsWith('.history'))
  await copyEntries(walDir, staged, needed)
  const settings = [
    `restore_command = '${restoreCommand(staged).replace(/'/g, "''")}'`,
    // Postgres's own timestamptz spelling: its check of this setting refuses ISO 8601's 'T' and 'Z'.
    `recovery_target_time = '${target.toISOString().replace('T', ' ').replace('Z', '+00')}'`,
    // Commits at exactly the target moment are kept; the first one after it is not.
    `recovery_target_inclusive = on`,
    `recovery_target_action = 'promote'`,
    `recovery_target_timeline = 'latest'`,
  ]
  fs.appendFileSync(path.join(partial, 'postgresql.auto.conf'), `\n# Point-in-time recovery (Stratum): reset once recovered\n${settings.join('\n')}\n`)
  fs.writeFileSync(path.join(partial, 'recovery.signal'), '')
  fs.renameSync(partial, targetDataDir)
}

/** The WAL segments a recovery reads, staged next to the data directory (removed once recovered). */
export const restoreWalDir = (dataDir: string) => path.join(path.dirname(dataDir), 'restore-wal')

/** Recovery settings a recovered server no longer needs (they would confuse the next recovery). */
export const RECOVERY_SETTINGS = ['restore_command', 'recovery_target_time', 'recovery_target_inclusive', 'recovery_target_action', 'recovery_target_timeline']

/** The data directory set aside while a restore builds the new one; back in place if the restore fails. */
export const setAsideDir = (dataDir: string) => `${dataDir}.before-restore`

export function setAside(dataDir: string): void {
  const aside = setAsideDir(dataDir)
  // Idempotent: once moved, a repeated call finds the data aside and nothing in place.
  if (fs.existsSync(aside) && !fs.existsSync(dataDir)) return
  if (fs.existsSync(aside)) throw new Error(`A set-aside copy already exists at ${aside}`)
  fs.renameSync(dataDir, aside)
}

export function bringBack(dataDir: string): boolean {
  const aside = setAsideDir(dataDir)
  if (!fs.existsSync(aside)) return false
  fs.rmSync(dataDir, { recursive: true, force: true })
  fs.rmSync(`${dataDir}.partial`, { recursive: true, force: true })
  fs.renameSync(aside, dataDir)
  return true
}

export function dropSetAside(dataDir: string): void {
  fs.rmSync(setAsideDir(dataDir), { recursive: true, force: true })
}
