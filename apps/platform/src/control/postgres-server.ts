import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type { PostgresMajor } from '@stratum/contracts'
import { instanceUser, makeInstanceDir, writeInstanceFile } from './os-user.js'
import { postgresBinaries } from './postgres-binaries.js'

const run = promisify(execFile)

/** Settings we own, written to stratum.conf (included from postgresql.conf). */
export type ServerSettings = Record<string, string | number>

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
  ) {
    this.dataDir = path.join(dir, 'data')
    this.logFile = path.join(dir, 'postgres.log')
  }

  isInitialized(): boolean {
    return fs.existsSync(path.join(this.dataDir, 'PG_VERSION'))
  }

  /** initdb with a SCRAM-authenticated superuser; does nothing when the cluster exists. */
  async init(superuser: string, password: string): Promise<void> {
    if (this.isInitialized()) return
    makeInstanceDir(this.dir)
    // A half-made cluster from an interrupted initdb is useless: start again from nothing.
    fs.rmSync(this.dataDir, { recursive: true, force: true })
    const pwfile = path.join(this.dir, '.initdb-password')
    writeInstanceFile(pwfile, password + '\n')
    try {
      await this.exec(postgresBinaries(this.major).initdb, [
        '-D', this.dataDir,
        '-U', superuser,
        '--pwfile', pwfile,
        '--auth', 'scram-sha-256',
        '-E', 'UTF8',
        '--locale', 'C.UTF-8',
        '--no-instructions',
      ])
    } finally {
      fs.rmSync(pwfile, { force: true })
    }
    fs.appendFileSync(path.join(this.dataDir, 'postgresql.conf'), "\ninclude_if_exists = 'stratum.conf'\n")
  }

  /** Writes our settings; they take effect at the next start (or restart). */
  writeSettings(settings: ServerSettings, listenAnywhere: boolean): void {
    const lines = Object.entries(settings).map(([key, value]) =>
      typeof value === 'number' ? `${key} = ${value}` : `${key} = '${value.replace(/'/g, "''")}'`,
    )
    writeInstanceFile(path.join(this.dataDir, 'stratum.conf'), '# Written by Stratum; edits are overwritten.\n' + lines.join('\n') + '\n')
    const hba = [
      '# Written by Stratum; edits are overwritten.',
      'local all all scram-sha-256',
      'host all all 127.0.0.1/32 scram-sha-256',
      'host all all ::1/128 scram-sha-256',
      ...(listenAnywhere ? ['host all all 0.0.0.0/0 scram-sha-256', 'host all all ::/0 scram-sha-256'] : []),
    ]
    writeInstanceFile(path.join(this.dataDir, 'pg_hba.conf'), hba.join('\n') + '\n')
  }

  async isRunning(): Promise<boolean> {
    if (!this.isInitialized()) return false
    try {
      await this.exec(postgresBinaries(this.major).pgCtl, ['status', '-D', this.dataDir])
      return true
    } catch {
      return false // pg_ctl status exits 3 when no server runs
    }
  }

  /** Starts the server and waits until it accepts connections; a running server is left alone. */
  async start(): Promise<void> {
    if (await this.isRunning()) return
    await this.exec(postgresBinaries(this.major).pgCtl, ['start', '-D', this.dataDir, '-l', this.logFile, '-w', '-t', '60', '-s'])
  }

  async stop(): Promise<void> {
    if (!(await this.isRunning())) return
    await this.exec(postgresBinaries(this.major).pgCtl, ['stop', '-D', this.dataDir, '-m', 'fast', '-w', '-t', '60', '-s'])
  }

  async restart(): Promise<void> {
    await this.stop()
    await this.start()
  }

  /** Last lines of the server log, for error messages a user can act on. */
  logTail(lines = 20): string {
    try {
      return fs.readFileSync(this.logFile, 'utf8').trim().split('\n').slice(-lines).join('\n')
    } catch {
      return ''
    }
  }

  private async exec(binary: string, args: string[]): Promise<void> {
    const user = instanceUser()
    try {
      await run(binary, args, {
        uid: user.switched ? user.uid : undefined,
        gid: user.switched ? user.gid : undefined,
        cwd: this.dir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
        timeout: 120_000,
      })
    } catch (error) {
      const err = error as { stderr?: string; message: string }
      const detail = (err.stderr || err.message).trim()
      throw new Error(`${path.basename(binary)} ${args[0]} failed: ${detail}`)
    }
  }
}
