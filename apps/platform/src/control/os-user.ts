import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Postgres refuses to run as root. When the platform runs as root (containers, CI), each Postgres
 * server runs as an OS user of its own (`stratum-<ref>` for a project, `stratum-platform` for the
 * platform database), created here when missing: one project's server process can then read
 * neither another project's files nor the platform's. When the platform runs as an ordinary user,
 * every server runs as that user (the README says so).
 */
export interface RunAs {
  name: string
  uid: number
  gid: number
  /** True when we switched user: files we create for the server must be chowned to it. */
  switched: boolean
}

const cache = new Map<string, RunAs>()

/**
 * The uid and primary gid of a local user, read from /etc/passwd (where useradd writes them), or null when there is
 * none. Reading the file replaces two `id` processes per lookup: spawning a child from the platform's large process
 * was most of the cost of creating a project's users (measured: about 7% of the server tests' CPU).
 */
function localUser(name: string): { uid: number; gid: number } | null {
  for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const [entry, , uid, gid] = line.split(':')
    if (entry === name && uid !== undefined && gid !== undefined) return { uid: Number(uid), gid: Number(gid) }
  }
  return null
}

export const runningAsRoot = (): boolean => (process.getuid?.() ?? 1) === 0

/** OS user of a project's Postgres server (all its slots: live, next, previous). */
export const projectOsUser = (ref: string): string => `stratum-${ref}`
/** OS user of a project's edge function processes (services/functions). */
export const functionOsUser = (ref: string): string => `stratum-fn-${ref}`
export const PLATFORM_DB_OS_USER = 'stratum-platform'
/** Owns the pre-initialised clusters new instances are copied from (instance-templates.ts). */
export const TEMPLATE_OS_USER = 'stratum-template'

/** Held while /etc/passwd and /etc/group change: one change at a time on the machine. */
const USER_DATABASE_LOCK = '/run/lock/stratum-users.lock'

/**
 * useradd and userdel, one at a time across every process of the machine (flock(1) on a lock file).
 * Run side by side (test workers, two platforms), a useradd can fail half-way on the group files after
 * its passwd entry was visible, and undo it: another process that read the new uid then starts a
 * server as a user that no longer exists.
 */
function userDatabase(command: 'useradd' | 'userdel', args: string[]): void {
  try {
    fs.mkdirSync(path.dirname(USER_DATABASE_LOCK), { recursive: true })
    execFileSync('flock', ['--timeout', '60', USER_DATABASE_LOCK, command, ...args], { stdio: 'ignore' })
  } catch (error) {
    // No flock(1) on this machine (util-linux missing): unserialized, as before.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    execFileSync(command, args, { stdio: 'ignore' })
  }
}

/** The OS identity a server runs as; when root, the named system user (created when missing). */
export function osUser(name: string): RunAs {
  const known = cache.get(name)
  if (known) return known
  let user: RunAs
  if (!runningAsRoot()) {
    user = { name, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, switched: false }
  } else {
    let ids = localUser(name)
    if (!ids) {
      try {
        // Not --system: that range (100-999) holds fewer than 900 users, and every project takes two
        // (its Postgres and its functions). Regular ids (1000-60000) without a home or a login shell.
        userDatabase('useradd', ['--no-create-home', '--user-group', '--shell', '/usr/sbin/nologin', name])
      } catch (error) {
        // Two platforms (tests) may create the same user at once: fine if it exists now.
        if (!localUser(name)) throw new Error(`Could not create the OS user ${name}: ${(error as Error).message}`)
      }
      ids = localUser(name)
      if (!ids) throw new Error(`The OS user ${name} was created but is not in /etc/passwd`)
    }
    user = { name, uid: ids.uid, gid: ids.gid, switched: true }
  }
  cache.set(name, user)
  return user
}

/** Deletes a project's OS user once its files are gone (project deletion). */
export function removeOsUser(name: string): void {
  if (!runningAsRoot()) return
  cache.delete(name)
  try {
    userDatabase('userdel', [name])
  } catch {
    /* already gone, or still running a process: harmless leftover */
  }
}

/**
 * Removes the OS users of every project a data directory held (tests and benchmarks that throw their
 * data directory away: the users would otherwise pile up on the machine).
 */
export function removeOsUsersOfDataDir(dataDir: string): void {
  if (!runningAsRoot()) return
  const projects = path.join(dataDir, 'projects')
  const refs = fs.existsSync(projects) ? fs.readdirSync(projects).filter((name) => /^[a-z]{20}$/.test(name)) : []
  for (const ref of refs) {
    removeOsUser(projectOsUser(ref))
    removeOsUser(functionOsUser(ref))
  }
}

/** Creates a directory only its owner may enter (0700), owned by `user`. */
export function makeOwnedDir(dir: string, user: RunAs): void {
  // Parents stay traversable (0711 or wider) so the owner can reach its own directory.
  fs.mkdirSync(path.dirname(dir), { recursive: true })
  if (!fs.existsSync(dir)) fs.mkdirSync(dir, { mode: 0o700 })
  fs.chmodSync(dir, 0o700)
  if (user.switched) fs.chownSync(dir, user.uid, user.gid)
}

/** Writes a file readable only by `user` (0600). */
export function writeOwnedFile(file: string, content: string, user: RunAs): void {
  fs.writeFileSync(file, content, { mode: 0o600 })
  fs.chmodSync(file, 0o600)
  if (user.switched) fs.chownSync(file, user.uid, user.gid)
}

/** Gives a whole tree to `user` (a server directory made by an earlier version under another user). */
export function chownTree(dir: string, user: RunAs): void {
  if (!user.switched) return
  const walk = (entry: string) => {
    fs.lchownSync(entry, user.uid, user.gid)
    if (fs.lstatSync(entry).isDirectory()) for (const child of fs.readdirSync(entry)) walk(path.join(entry, child))
  }
  walk(dir)
}

/** Owner uid of a path, or null when it does not exist. */
export function ownerOf(file: string): number | null {
  try {
    return fs.statSync(file).uid
  } catch {
    return null
  }
}
