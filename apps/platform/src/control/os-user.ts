import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Postgres refuses to run as root. When the platform runs as root (containers, CI), instances run
 * as the OS user 'postgres', created here when missing; otherwise they run as the current user.
 */
export interface RunAs {
  uid: number
  gid: number
  /** True when we switched user: files we create for the instance must be chowned. */
  switched: boolean
}

let cached: RunAs | undefined

function idOf(flag: '-u' | '-g', user: string): number {
  return Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim())
}

export function instanceUser(): RunAs {
  if (cached) return cached
  const uid = process.getuid?.() ?? 0
  if (uid !== 0) {
    cached = { uid, gid: process.getgid?.() ?? 0, switched: false }
    return cached
  }
  try {
    idOf('-u', 'postgres')
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'])
  }
  cached = { uid: idOf('-u', 'postgres'), gid: idOf('-g', 'postgres'), switched: true }
  return cached
}

/** Creates a directory owned by the instance user. */
export function makeInstanceDir(dir: string): void {
  // Parents stay traversable (0755) so the instance user can reach its own directory.
  fs.mkdirSync(path.dirname(dir), { recursive: true })
  if (!fs.existsSync(dir)) fs.mkdirSync(dir, { mode: 0o700 })
  const user = instanceUser()
  if (user.switched) fs.chownSync(dir, user.uid, user.gid)
}

/** Writes a file readable only by the instance user. */
export function writeInstanceFile(file: string, content: string): void {
  fs.writeFileSync(file, content, { mode: 0o600 })
  const user = instanceUser()
  if (user.switched) fs.chownSync(file, user.uid, user.gid)
}
