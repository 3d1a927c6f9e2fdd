import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import { createInterface } from 'node:readline'
import type { Logger } from 'pino'
import { Agent } from 'undici'
import type { RunAs } from '../../control/os-user.js'
import { denoBinary } from './deno.js'
import { denoArgs, processEnv, type LaunchInput } from './sandbox.js'

const READY_POLL_MS = 10
const STOP_GRACE_MS = 2_000
/** Kept of the process's stderr: what a crash or a failed start answers with. */
const STDERR_TAIL = 4_000
/** Longest path a Unix socket may have on Linux (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107

/**
 * One deployed function version in its own Deno process, listening on a Unix socket (bootstrap.ts).
 * Its console output goes to the platform log with the project and function; the last of its stderr
 * is kept to explain a crash or a failed start.
 */
export class FunctionProcess {
  /** HTTP over the socket, kept alive between requests. */
  readonly http: Agent
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  lastUsed = Date.now()
  /** Requests in flight: a process is never stopped for idleness while it serves one. */
  active = 0
  private child: ChildProcess
  private stderrTail = ''
  private stopping = false
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null

  constructor(
    readonly key: string,
    readonly fingerprint: string,
    private readonly launch: LaunchInput,
    user: RunAs,
    private readonly log: Logger,
  ) {
    if (launch.socketPath.length > MAX_SOCKET_PATH) {
      throw new Error(`The socket path ${launch.socketPath} is longer than ${MAX_SOCKET_PATH} characters: choose a shorter STRATUM_DATA_DIR`)
    }
    fs.rmSync(launch.socketPath, { force: true })
    this.http = new Agent({ connect: { socketPath: launch.socketPath }, keepAliveTimeout: 30_000 })
    this.child = spawn(denoBinary(), denoArgs(launch), {
      cwd: launch.versionDir,
      env: processEnv(launch),
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user.switched ? { uid: user.uid, gid: user.gid } : {}),
    })
    this.pipeOutput()
    this.exited = new Promise((resolve) => {
      // 'close', not 'exit': its stdout and stderr are read to the end, so a crash's message is complete.
      this.child.once('close', (code, signal) => resolve({ code, signal }))
      this.child.once('error', (error) => {
        this.stderrTail += error.message
        resolve({ code: null, signal: null })
      })
    })
    void this.exited.then((info) => {
      this.exitInfo = info
      if (!this.stopping) this.log.warn({ code: info.code, signal: info.signal }, 'edge function process exited')
    })
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  get hasExited(): boolean {
    return this.exitInfo !== null
  }

  /** Why the process is gone, with the end of its stderr (the error the user's code printed). */
  exitReason(): string {
    const info = this.exitInfo
    const how = !info ? 'is not answering' : info.signal ? `was killed (${info.signal})` : `exited with code ${info.code}`
    const tail = this.stderrTail.trim()
    return tail ? `The function's process ${how}: ${tail}` : `The function's process ${how}`
  }

  /** Resolves once the function's Deno.serve listens on the socket; rejects when the process exits first. */
  async ready(signal: AbortSignal): Promise<void> {
    for (;;) {
      if (this.exitInfo) throw new Error(this.exitReason())
      if (signal.aborted) throw new Error('The function did not call Deno.serve in time')
      if (fs.existsSync(this.launch.socketPath) && (await canConnect(this.launch.socketPath))) return
      await Promise.race([new Promise((resolve) => setTimeout(resolve, READY_POLL_MS)), this.exited])
    }
  }

  /** SIGTERM, then SIGKILL after a grace time; closes the connections and removes the socket. */
  async stop(): Promise<void> {
    this.stopping = true
    if (!this.exitInfo) {
      this.child.kill('SIGTERM')
      const killer = setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS)
      await this.exited
      clearTimeout(killer)
    }
    await this.http.destroy().catch(() => {})
    fs.rmSync(this.launch.socketPath, { force: true })
  }

  /** Stops at once (a hung request): nothing it does now is worth waiting for. */
  kill(): void {
    this.stopping = true
    if (!this.exitInfo) this.child.kill('SIGKILL')
  }

  private pipeOutput(): void {
    const lines = (stream: NodeJS.ReadableStream | null, level: 'info' | 'warn') => {
      if (!stream) return
      const reader = createInterface({ input: stream, crlfDelay: Infinity })
      reader.on('line', (line) => {
        if (level === 'warn') this.stderrTail = (this.stderrTail + line + '\n').slice(-STDERR_TAIL)
        this.log[level]({ stream: level === 'info' ? 'stdout' : 'stderr' }, line.slice(0, 10_000))
      })
    }
    lines(this.child.stdout, 'info')
    lines(this.child.stderr, 'warn')
  }
}

function canConnect(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ path: socketPath })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}
