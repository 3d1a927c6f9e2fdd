import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { removeOsUsersOfDataDir } from '../../src/control/os-user.js'
import { ADMIN_EMAIL, ADMIN_PASSWORD, discardDir, TEST_TEMPLATE_DIR, testPortBlock } from './harness.js'

const BIN = path.resolve(import.meta.dirname, '../../bin/stratum.mjs')

/**
 * The platform as its own process, as `npm start` runs it, so a test can kill -9 it and start it
 * again on the same data directory.
 */
export class ChildPlatform {
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-crash-'))
  readonly port = testPortBlock()
  readonly url = `http://127.0.0.1:${this.port + 99}`
  /** The project listener (project URLs are `${apiUrl}/projects/{ref}`): inside this platform's block of ports. */
  readonly apiUrl = `http://127.0.0.1:${this.port + 98}`
  private child: ChildProcess | null = null

  constructor() {
    fs.chmodSync(this.dataDir, 0o755)
  }

  async start(env: Record<string, string> = {}): Promise<void> {
    if (this.child) throw new Error('The platform is already running: stop or crash it first')
    const launched = this.launch(this.port + 99, this.port + 98, env)
    await launched.running
    this.child = launched.child
  }

  /**
   * `stratum start` on this data directory with the given HTTP ports, not awaited: `running` settles once it
   * serves (or rejects with its output when it exits). start() uses it; tests that run a second platform beside
   * this one (another start on the same data directory) call it with other ports.
   */
  launch(port: number, projectPort: number, env: Record<string, string> = {}): { child: ChildProcess; running: Promise<void>; output: () => string } {
    const child = spawn(process.execPath, [BIN, 'start'], {
      env: {
        ...process.env,
        PORT: String(port),
        STRATUM_PROJECT_PORT: String(projectPort),
        STRATUM_DATA_DIR: this.dataDir,
        STRATUM_ADMIN_EMAIL: ADMIN_EMAIL,
        STRATUM_ADMIN_PASSWORD: ADMIN_PASSWORD,
        STRATUM_PLATFORM_DB_PORT: String(this.port),
        STRATUM_PROJECT_PORT_START: String(this.port + 1),
        STRATUM_TEMPLATE_DIR: TEST_TEMPLATE_DIR,
        // As startTestPlatform: no spare copies in the background (instance-templates.test.ts tests them).
        STRATUM_SPARE_INSTANCES: '0',
        // Tests make operations fail on purpose: their error logs are noise unless asked for.
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'fatal',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    const running = new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('Stratum is running')) resolve()
      }
      child.stdout!.on('data', onData)
      child.stderr!.on('data', onData)
      child.once('exit', (code) => reject(new Error(`platform exited with ${code}:\n${output}`)))
    })
    running.catch(() => {})
    return { child, running, output: () => output }
  }

  /** kill -9: no shutdown handler runs. */
  async crash(): Promise<void> {
    const child = this.child
    this.child = null
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }

  /** The platform's process id while it runs (memory measurements read /proc/<pid>). */
  get pid(): number | null {
    return this.child?.pid ?? null
  }

  async stop(): Promise<void> {
    const child = this.child
    this.child = null
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }

  async cleanup(): Promise<void> {
    if (!this.child) await this.start().catch(() => {}) // adopts and then stops whatever still runs
    await this.stop()
    removeOsUsersOfDataDir(this.dataDir)
    discardDir(this.dataDir)
  }
}
