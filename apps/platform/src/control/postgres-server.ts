import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { PostgresMajor } from '@stratum/contracts'
import { chownTree, makeOwnedDir, osUser, ownerOf, writeOwnedFile, type RunAs } from './os-user.js'
import { postgresBinaries } from './postgres-binaries.js'

/** How often a starting server's postmaster.pid is read: a copied cluster starts in tens of ms. */
const START_POLL_MS = 5

/** Settings we own, written to stratum.conf (included from postgresql.conf). */
export type ServerSettings = Record<string, string | number>

/** pg_hba.conf of a server only the platform uses (its own database): password logins from this machine, or from anywhere when it listens beyond it. */
export function platformHba(listenAnywhere: boolean): string {
  const lines = [
    '# Written by Stratum; edits are overwritten.',
    'local all all scram-sha-256',
    'host all all 127.0.0.1/32 scram-sha-256',
    'host all all ::1/128 scram-sha-256',
    ...(listenAnywhere ? ['host all all 0.0.0.0/0 scram-sha-256', 'host all all ::/0 scram-sha-256'] : []),
  ]
  return lines.join('\n') + '\n'
}

/**
 * One Postgres server on disk: a directory holding `data/` (the cluster) and `postgres.log`.
 * Used for every project instance and for the embedded platform database. Every method is
 * idempotent, so a caller interrupted half-way can simply call it again.
 */
export class PostgresServer {
  readonly dataDir: string
  readonly logFile: string

  constructor(
    readonly dir: string,
    readonly major: PostgresMajor,
    /** OS user the server runs as when the platform is root (os-user.ts). */
    readonly osUserName: string,
  ) {
    this.dataDir = path.join(dir, 'data')
    this.logFile = path.join(dir, 'postgres.log')
  }

  get owner(): RunAs {
    return osUser(this.osUserName)
  }

  isInitialized(): boolean {
    return fs.existsSync(path.join(this.dataDir, 'PG_VERSION'))
  }

  /** initdb with a SCRAM-authenticated superuser; does nothing when the cluster exists. */
  async init(superuser: string, password: string): Promise<void> {
    if (this.isInitialized()) return
    makeOwnedDir(this.dir, this.owner)
    // A half-made cluster from an interrupted initdb is useless: start again from nothing.
    fs.rmSync(this.dataDir, { recursive: true, force: true })
    // Versions before 0.2 wrote the password to a file first; a crash could leave it behind.
    fs.rmSync(path.join(this.dir, '.initdb-password'), { force: true })
    // The password goes through a pipe, never a file: a crash leaves no secret on disk. initdb
    // reopens /dev/stdin, which works for a pipe but not for the socket Node gives a child: `cat`
    // puts a real pipe in between.
    await this.exec(
      '/bin/sh',
      ['-c', 'cat | "$0" "$@"', postgresBinaries(this.major).initdb, '-D', this.dataDir, '-U', superuser, '--pwfile', '/dev/stdin', '--auth', 'scram-sha-256', '-E', 'UTF8', '--locale', 'C.UTF-8', '--no-instructions'],
      password + '\n',
    )
    fs.appendFileSync(path.join(this.dataDir, 'postgresql.conf'), "\ninclude_if_exists = 'stratum.conf'\n")
  }

  /** Writes our settings and pg_hba.conf; they take effect at the next start, or at reload() for those that allow it. */
  writeSettings(settings: ServerSettings, hba: string): void {
    const lines = Object.entries(settings).map(([key, value]) =>
      typeof value === 'number' ? `${key} = ${value}` : `${key} = '${value.replace(/'/g, "''")}'`,
    )
    writeOwnedFile(path.join(this.dataDir, 'stratum.conf'), '# Written by Stratum; edits are overwritten.\n' + lines.join('\n') + '\n', this.owner)
    writeOwnedFile(path.join(this.dataDir, 'pg_hba.conf'), hba, this.owner)
  }

  /** Re-reads stratum.conf and pg_hba.conf (SIGHUP): settings of context sighup or below apply at once. */
  async reload(): Promise<void> {
    if (!(await this.isRunning())) return
    await this.exec(postgresBinaries(this.major).pgCtl, ['reload', '-D', this.dataDir, '-s'])
  }

  async isRunning(): Promise<boolean> {
    if (!this.isInitialized()) return false
    // No postmaster.pid means no server, as pg_ctl itself decides; only a pid file needs pg_ctl's check of its process
    // (run as the server's owner: as root, a liveness check of our own would answer for any process with that pid).
    if (this.pidFileLines().length === 0) return false
    try {
      await this.exec(postgresBinaries(this.major).pgCtl, ['status', '-D', this.dataDir])
      return true
    } catch {
      return false // pg_ctl status exits 3 when no server runs
    }
  }

  /** Starts the server and waits until it accepts connections; a running server is left alone. */
  async start(): Promise<void> {
    await this.takeOwnership()
    // A server left running (e.g. by a platform killed while starting it) is adopted once ready.
    if (await this.isRunning()) return this.waitUntilReady()
    await this.launch()
  }

  /**
   * What `pg_ctl start -w` does, waiting at a finer grain: pg_ctl looks at postmaster.pid every 100 ms, most of a
   * copied cluster's start. The postmaster runs in its own session (it outlives the platform, as with pg_ctl), as the
   * server's OS user, and that user's shell opens the log: root never opens a path inside a tenant's directory.
   */
  private launch(timeoutMs = 60_000): Promise<void> {
    const owner = this.owner
    const child = spawn('/bin/sh', ['-c', 'exec "$0" -D "$1" >> "$2" 2>&1 < /dev/null', postgresBinaries(this.major).postgres, this.dataDir, this.logFile], {
      uid: owner.switched ? owner.uid : undefined,
      gid: owner.switched ? owner.gid : undefined,
      cwd: this.dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
      detached: true,
      stdio: 'ignore',
    })
    child.unref()
    return new Promise((resolve, reject) => {
      let exited: string | null = null
      child.once('error', (error) => (exited = `could not run postgres: ${error.message}`))
      child.once('exit', (code, signal) => (exited = `postgres exited while starting (${signal ?? `exit code ${code}`})`))
      const deadline = Date.now() + timeoutMs
      const poll = () => {
        const lines = this.pidFileLines()
        // Our postmaster's own pid file (a crashed server's stale one may still say ready), in a state that takes
        // connections: "ready", or "standby" for a hot standby, as pg_ctl accepts.
        const status = Number(lines[0]) === child.pid ? lines[7]?.trim() : undefined
        if (status === 'ready' || status === 'standby') return resolve()
        if (exited) return reject(new Error(exited))
        if (Date.now() > deadline) return reject(new Error(`Postgres in ${this.dataDir} did not accept connections within ${timeoutMs / 1000} s`))
        setTimeout(poll, START_POLL_MS)
      }
      poll()
    })
  }

  async stop(): Promise<void> {
    await this.takeOwnership()
    if (!(await this.isRunning())) return
    await this.exec(postgresBinaries(this.major).pgCtl, ['stop', '-D', this.dataDir, '-m', 'fast', '-w', '-t', '60', '-s'])
  }

  /**
   * Stops the server and removes its data (and a copy left half-made beside it): a branch's reset, before the parent is
   * copied in again. Removed without blocking the event loop: a gigabyte's files take a while to unlink.
   */
  async discardData(): Promise<void> {
    await this.stop()
    await fs.promises.rm(this.dataDir, { recursive: true, force: true })
    await fs.promises.rm(`${this.dataDir}.partial`, { recursive: true, force: true })
  }

  async restart(): Promise<void> {
    await this.stop()
    await this.start()
  }

  /** Waits until postmaster.pid says the server accepts connections (its status line, PG 10+). */
  private async waitUntilReady(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const status = this.pidFileLines()[7]?.trim()
      if (status === 'ready') return
      if (status === undefined && !(await this.isRunning())) return this.start()
      if (Date.now() > deadline) throw new Error(`Postgres in ${this.dataDir} did not become ready (status: ${status ?? 'unknown'})`)
      await new Promise((resolve) => setTimeout(resolve, START_POLL_MS))
    }
  }

  private pidFileLines(): string[] {
    try {
      return fs.readFileSync(path.join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')
    } catch {
      return []
    }
  }

  /**
   * Last lines of the server log, for error messages a user can act on. With the logging collector
   * (project instances: jsonlog files in data/log/), postgres.log only says where the log went: the
   * newest JSON log's messages are read instead, as "SEVERITY: message (detail)".
   */
  logTail(lines = 20): string {
    const fromCollector = this.jsonLogTail(lines)
    if (fromCollector) return fromCollector
    try {
      return fs.readFileSync(this.logFile, 'utf8').trim().split('\n').slice(-lines).join('\n')
    } catch {
      return ''
    }
  }

  private jsonLogTail(lines: number): string {
    try {
      const dir = path.join(this.dataDir, 'log')
      const newest = fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .at(-1)
      if (!newest) return ''
      const text = fs.readFileSync(path.join(dir, newest), 'utf8').trim()
      return text
        .split('\n')
        .slice(-lines)
        .map((line) => {
          try {
            const entry = JSON.parse(line) as { error_severity?: string; message?: string; detail?: string }
            return `${entry.error_severity ?? 'LOG'}: ${entry.message ?? ''}${entry.detail ? ` (${entry.detail})` : ''}`
          } catch {
            return line
          }
        })
        .join('\n')
    } catch {
      return ''
    }
  }

  /**
   * A directory made by an earlier version (one OS user for every server) moves to this server's
   * own user: the server is stopped as its old owner, the tree chowned, and 0700 enforced.
   */
  private async takeOwnership(): Promise<void> {
    const owner = this.owner
    const current = ownerOf(this.dataDir)
    if (!owner.switched || current === null || current === owner.uid) return
    await this.exec(postgresBinaries(this.major).pgCtl, ['stop', '-D', this.dataDir, '-m', 'fast', '-w', '-t', '60', '-s'], undefined, current).catch(() => {})
    chownTree(this.dir, owner)
    fs.chmodSync(this.dir, 0o700)
    fs.chmodSync(this.dataDir, 0o700)
  }

  private exec(binary: string, args: string[], input?: string, asUid?: number): Promise<void> {
    const owner = this.owner
    const uid = asUid ?? (owner.switched ? owner.uid : undefined)
    const gid = asUid !== undefined ? (fs.statSync(this.dataDir).gid) : owner.switched ? owner.gid : undefined
    return new Promise((resolve, reject) => {
      const child = execFile(
        binary,
        args,
        {
          uid,
          gid,
          cwd: this.dir,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
          timeout: 120_000,
        },
        (error, _stdout, stderr) => {
          if (!error) return resolve()
          const detail = (stderr || error.message).trim()
          const name = binary === '/bin/sh' ? path.basename(args[2] ?? 'sh') : `${path.basename(binary)} ${args[0]}`
          reject(new Error(`${name} failed: ${detail}`))
        },
      )
      child.stdin?.on('error', () => {}) // a binary that exits early closes its end of the pipe
      child.stdin?.end(input ?? '')
    })
  }
}
