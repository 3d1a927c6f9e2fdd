import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { createInterface } from 'node:readline'
import { spawnChild, type ChildSpec } from '../child-processes.js'

/** Longest path a Unix socket may have on Linux (sun_path is 108 bytes with its NUL). */
export const MAX_SOCKET_PATH = 107
/** Kept of the process's stderr: what a crash or a failed start answers with. */
const STDERR_TAIL = 4_000

export interface ExitInfo {
  code: number | null
  signal: NodeJS.Signals | null
}

export interface SocketProcessSpec extends ChildSpec {
  /** Where it serves HTTP. Removed before the start and after the stop. */
  socketPath: string
  /** SIGTERM, then SIGKILL after this long. */
  stopGraceMs: number
  /** Each line it prints, for the platform log; stderr's lines are also kept as its tail. */
  onLine?: (stream: 'stdout' | 'stderr', line: string) => void
}

/** Throws when a socket path is too long for the OS (a deep STRATUM_DATA_DIR), before anything is spawned. */
export function checkSocketPath(socketPath: string): void {
  if (socketPath.length > MAX_SOCKET_PATH) {
    throw new Error(`The socket path ${socketPath} is longer than ${MAX_SOCKET_PATH} characters: choose a shorter STRATUM_DATA_DIR`)
  }
}

/**
 * A child process that serves HTTP on a Unix socket (PostgREST, a function's Deno): spawned through
 * child-processes.ts (it dies with the platform; its pid file lets the next boot reap it), its stderr's tail kept to
 * explain a failed start or a crash, ready once a probe of its socket answers, stopped with SIGTERM then SIGKILL.
 */
export class SocketProcess {
  /** Resolves once it exited and its output was read to the end (so a crash's message is complete). */
  readonly exited: Promise<ExitInfo>
  private readonly child: ChildProcess
  private tail = ''
  private exit: ExitInfo | null = null
  private stopping = false

  constructor(private readonly spec: SocketProcessSpec) {
    checkSocketPath(spec.socketPath)
    fs.rmSync(spec.socketPath, { force: true })
    this.child = spawnChild(spec)
    for (const stream of ['stdout', 'stderr'] as const) {
      const readable = this.child[stream]
      if (!readable) continue
      createInterface({ input: readable, crlfDelay: Infinity }).on('line', (line) => {
        if (stream === 'stderr') this.tail = (this.tail + line + '\n').slice(-STDERR_TAIL)
        spec.onLine?.(stream, line)
      })
    }
    this.exited = new Promise((resolve) => {
      this.child.once('close', (code, signal) => resolve({ code, signal }))
      this.child.once('error', (error) => {
        this.tail += error.message
        resolve({ code: null, signal: null })
      })
    })
    void this.exited.then((info) => {
      this.exit = info
    })
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  /** How it ended, once it did. */
  get exitInfo(): ExitInfo | null {
    return this.exit
  }

  /** Whether stop() or kill() was asked: its exit is then expected, not a crash. */
  get stopRequested(): boolean {
    return this.stopping
  }

  /** The end of what it printed on stderr. */
  get stderrTail(): string {
    return this.tail.trim()
  }

  /**
   * Resolves once `probe` says it serves (called every `pollMs` while the socket file exists); rejects with
   * `exitedMessage(info)` when it exits first and with `timeoutMessage` when `signal` aborts.
   */
  async waitReady(options: {
    signal: AbortSignal
    pollMs: number
    probe: (signal: AbortSignal) => Promise<boolean>
    exitedMessage: (info: ExitInfo) => string
    timeoutMessage: string
  }): Promise<void> {
    for (;;) {
      if (this.exit) throw new Error(options.exitedMessage(this.exit))
      if (options.signal.aborted) throw new Error(options.timeoutMessage)
      if (fs.existsSync(this.spec.socketPath) && (await options.probe(options.signal))) return
      await Promise.race([new Promise((resolve) => setTimeout(resolve, options.pollMs)), this.exited])
    }
  }

  /** SIGTERM, then SIGKILL after the grace time; resolves once it is gone and its socket removed. */
  async stop(): Promise<void> {
    this.stopping = true
    if (!this.exit && this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM')
      const killer = setTimeout(() => this.child.kill('SIGKILL'), this.spec.stopGraceMs)
      await this.exited
      clearTimeout(killer)
    }
    fs.rmSync(this.spec.socketPath, { force: true })
  }

  /** SIGKILL at once (a hung request, a limit passed): nothing it does now is worth waiting for. */
  kill(): void {
    this.stopping = true
    if (!this.exit) this.child.kill('SIGKILL')
  }
}
