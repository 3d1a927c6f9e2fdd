import path from 'node:path'

/**
 * Where a project's point-in-time recovery data lives: `<data dir>/pitr/<ref>/wal` (the WAL archive the
 * instance's archive_command fills, one file per 16 MB segment) and `<data dir>/pitr/<ref>/base/<id>`
 * (base backups: consistent online copies of the data directory, pitr_base_backups rows).
 */
export const pitrDir = (dataDir: string, ref: string) => path.join(dataDir, 'pitr', ref)
export const walArchiveDir = (dataDir: string, ref: string) => path.join(pitrDir(dataDir, ref), 'wal')
export const baseBackupsDir = (dataDir: string, ref: string) => path.join(pitrDir(dataDir, ref), 'base')

/** Settings that make an instance archive each finished WAL segment (and at least once a minute while it writes). */
export function archiveSettings(walDir: string): Record<string, string | number> {
  const quoted = `'${walDir.replace(/'/g, "'\\''")}'`
  return {
    archive_mode: 'on',
    // Never overwrites a segment already archived (a repeated call after a crash finds it there).
    archive_command: `test ! -f ${quoted}/%f && cp %p ${quoted}/%f`,
    archive_timeout: 60,
  }
}

/** The restore_command that reads the archive back during a recovery. */
export function restoreCommand(walDir: string): string {
  const quoted = `'${walDir.replace(/'/g, "'\\''")}'`
  return `cp ${quoted}/%f %p`
}
