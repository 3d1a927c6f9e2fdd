import fs from 'node:fs'
import path from 'node:path'

/**
 * Permissions of the data directory (DESIGN.md "Isolation"): the top and `projects/` can be
 * traversed but not listed by the servers' OS users (0711), so each reaches its own 0700 directory
 * and nothing else; everything the platform alone reads (backups, storage files, TLS keys, secrets)
 * is 0700/0600 and owned by the platform's user. Function code is the exception: functions/<ref> is
 * readable by that project's function user (group) alone. Applied at every boot, which
 * also tightens directories made by earlier versions.
 */
// functions/: each project's function user reaches its own functions/<ref> (0750, services/functions/sandbox.ts).
const TRAVERSABLE = ['', 'projects', 'functions']
const PRIVATE_DIRS = ['backups', 'storage', 'tls']
const PRIVATE_FILES = ['secret.key', 'platform-db.json']

export function protectDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true })
  for (const dir of TRAVERSABLE) {
    const full = path.join(dataDir, dir)
    fs.mkdirSync(full, { recursive: true })
    fs.chmodSync(full, 0o711)
  }
  for (const dir of PRIVATE_DIRS) {
    const full = path.join(dataDir, dir)
    fs.mkdirSync(full, { recursive: true })
    fs.chmodSync(full, 0o700)
  }
  for (const file of PRIVATE_FILES) {
    const full = path.join(dataDir, file)
    if (fs.existsSync(full)) fs.chmodSync(full, 0o600)
  }
}
