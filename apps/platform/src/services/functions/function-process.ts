import fs from 'node:fs'
import path from 'node:path'
import net from 'node:net'
import type { Logger } from 'pino'
import { Agent } from 'undici'
import { SocketProcess, type ExitInfo } from '../../control/processes/socket-process.js'
import type { RunAs } from '../../control/os-user.js'
import { denoBinary } from './deno.js'
import { denoArgs, osLimits, processEnv, type LaunchInput } from './sandbox.js'

/**
 * How often a starting process's socket is looked for: a cold start (about 60 ms of Deno's own) waits on average
 * half of this after the socket listens, and a look is one stat (and one connect once the file is there).
 */
const READY_POLL_MS = 2
const STOP_GRACE_MS = 2_000
/** How often the process's resident memory and CPU time are read (/proc). */
const WATCH_MS = 200
/** How old a CPU-time reading may be when a request starts (see `set active`). */
const CPU_READING_MAX_AGE_MS = 20
/** Clock ticks of /proc/<pid>/stat's CPU times: USER_HZ, 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100
/**
 * What Deno, V8, Rust and the C library print when memory runs out (the OS limit refused an
 * allocation): "Fatal process out of memory", "JavaScript heap out of memory", "RangeError: Array
 * buffer allocation failed", "memory allocation of N bytes failed", ENOMEM.
 */
const OUT_OF_MEMORY = /out of memory|allocation (of \d+ bytes )?failed|Cannot allocate memory/i

/** A limit the platform stopped the process for. */
type LimitHit = { kind: 'memory'; usedMb: number } | { kind: 'cpu'; usedMs: number }

/**
 * One deployed function version in its own Deno process, listening on a Unix socket (bootstrap.ts).
 * Its console output goes to the platform log with the project and function; the last of its stderr
 * is kept to explain a crash or a failed start.
 *
 * Limits, for the whole process (every thread, Workers included):
 * - Memory: the OS refuses allocations past RLIMIT_DATA (sandbox.ts osLimits: the limit plus V8's
 *   reservations), and the platform stops (SIGKILL) a process whose resident anonymous memory
 *   (/proc/<pid>/status RssAnon) passes the limit itself, read every WATCH_MS.
 * - CPU time per request: the process's CPU time (/proc/<pid>/stat, all threads) is noted when each
 *   request starts; when the process has used more than `cpuLimitMs` since the oldest request in
 *   flight started, it is stopped. With concurrent requests it is the process's time, not one
 *   request's: a request that ends releases the oldest start noted, so a busy process is judged from
 *   its latest requests, never wrongly from a long one that is waiting.
 * Either way the request in flight answers a 5xx whose message (exitReason) names the limit.
 */
export class FunctionProcess {
  /** HTTP over the socket, kept alive between requests. */
  readonly http: Agent
  readonly exited: Promise<ExitInfo>
  lastUsed = Date.now()
  private readonly process: SocketProcess
  /** The process's CPU time (ms) when each request in flight started, oldest first. */
  private requestCpu: number[] = []
  private lastCpuMs = 0
  /** When lastCpuMs was read (performance.now()); -Infinity before the first reading. */
  private lastCpuAt = -Infinity
  private watcher: NodeJS.Timeout | null = null
  private limitHit: LimitHit | null = null
  /** Its stderr said memory ran out (the OS limit refused an allocation). */
  private sawOutOfMemory = false

  constructor(
    readonly key: string,
    readonly fingerprint: string,
    private readonly launch: LaunchInput,
    user: RunAs,
    private readonly log: Logger,
  ) {
    // prlimit sets the OS limits, then execs Deno: the pid below is Deno's.
    this.process = new SocketProcess({
      runDir: path.dirname(launch.dirs.runDir),
      kind: 'deno',
      id: `${key}-${path.basename(launch.socketPath, '.sock')}`.replace(/[^A-Za-z0-9_.-]/g, '-'),
      command: denoBinary(),
      args: denoArgs(launch),
      wrapper: osLimits(launch.memoryMb),
      socketPath: launch.socketPath,
      stopGraceMs: STOP_GRACE_MS,
      options: {
        cwd: launch.versionDir,
        // Built from nothing (sandbox.ts processEnv): none of the platform's own environment.
        env: processEnv(launch),
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(user.switched ? { uid: user.uid, gid: user.gid } : {}),
      },
      // Its console output goes to the platform log with the project and function.
      onLine: (stream, line) => {
        if (stream === 'stderr' && OUT_OF_MEMORY.test(line)) this.sawOutOfMemory = true
        this.log[stream === 'stderr' ? 'warn' : 'info']({ stream }, line.slice(0, 10_000))
      },
    })
    this.http = new Agent({ connect: { socketPath: launch.socketPath }, keepAliveTimeout: 30_000 })
    this.exited = this.process.exited
    void this.exited.then((info) => {
      this.stopWatching()
      if (!this.process.stopRequested) this.log.warn({ code: info.code, signal: info.signal, limit: this.limitHit?.kind }, 'edge function process exited')
    })
    if (this.process.pid !== undefined) {
      this.watcher = setInterval(() => this.watch(), WATCH_MS)
      this.watcher.unref()
    }
  }

  /** Requests in flight: a process is never stopped for idleness while it serves one. */
  get active(): number {
    return this.requestCpu.length
  }

  /**
   * A request starts: counted in now; the function returned counts it out (once, however often it is called) and
   * marks the process used. Both gateway paths (gateway-route.ts, fast-route.ts) count their requests this way.
   */
  begin(): () => void {
    this.active++
    let ended = false
    return () => {
      if (ended) return
      ended = true
      this.active--
      this.lastUsed = Date.now()
    }
  }

  /** Requests are counted in (`active++`) and out (`active--`); each start notes the CPU time. */
  set active(count: number) {
    const target = Math.max(0, Math.floor(count))
    if (target > this.requestCpu.length) {
      // A reading of the last few ms will do (a warm function's requests come faster than that): /proc is read
      // at most once per CPU_READING_MAX_AGE_MS on the request path, and the start noted is at most that old,
      // which counts a little more against the request, never less.
      const now = this.cpuMs(CPU_READING_MAX_AGE_MS)
      while (this.requestCpu.length < target) this.requestCpu.push(now)
    } else {
      // Which request ended is not known: the oldest start goes (the lenient choice, see the class).
      this.requestCpu.splice(0, this.requestCpu.length - target)
    }
  }

  /** The memory limit (MB) and the CPU time a request may use (ms). */
  get limits(): { memoryMb: number; cpuMs: number } {
    return { memoryMb: this.launch.memoryMb, cpuMs: this.launch.cpuLimitMs }
  }

  get pid(): number | undefined {
    return this.process.pid
  }

  get hasExited(): boolean {
    return this.process.exitInfo !== null
  }

  /** Why the process is gone, with the end of its stderr (the error the user's code printed); a limit it passed is named. */
  exitReason(): string {
    const { memoryMb, cpuMs } = this.limits
    const hit = this.limitHit
    if (hit?.kind === 'memory') {
      return `The function ran out of memory: its process used ${hit.usedMb} MB, over its memory limit of ${memoryMb} MB, and was stopped`
    }
    if (hit?.kind === 'cpu') {
      return `The function exceeded its CPU-time limit of ${cpuMs} ms per request (${hit.usedMs} ms used): its process was stopped`
    }
    const info = this.process.exitInfo
    const how = !info ? 'is not answering' : info.signal ? `was killed (${info.signal})` : `exited with code ${info.code}`
    const tail = this.process.stderrTail
    const reason = tail ? `The function's process ${how}: ${tail}` : `The function's process ${how}`
    return this.sawOutOfMemory ? `The function ran out of memory (memory limit of ${memoryMb} MB). ${reason}` : reason
  }

  /** Resolves once the function's Deno.serve listens on the socket; rejects when the process exits first. */
  ready(signal: AbortSignal): Promise<void> {
    return this.process.waitReady({
      signal,
      pollMs: READY_POLL_MS,
      probe: () => canConnect(this.launch.socketPath),
      exitedMessage: () => this.exitReason(),
      timeoutMessage: 'The function did not call Deno.serve in time',
    })
  }

  /** SIGTERM, then SIGKILL after a grace time; closes the connections and removes the socket. */
  async stop(): Promise<void> {
    await this.process.stop()
    await this.http.destroy().catch(() => {})
  }

  /** Stops at once (a hung request): nothing it does now is worth waiting for. */
  kill(): void {
    this.process.kill()
  }

  /** The process's CPU time so far, all threads (ms); the last value read once it is gone, or when read within maxAgeMs. */
  private cpuMs(maxAgeMs = 0): number {
    const pid = this.process.pid
    if (pid === undefined || this.process.exitInfo) return this.lastCpuMs
    const now = performance.now()
    if (now - this.lastCpuAt <= maxAgeMs) return this.lastCpuMs
    this.lastCpuAt = now
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      // Fields after the command name (which may hold spaces and parentheses): utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const ticks = Number(fields[11]) + Number(fields[12])
      if (Number.isFinite(ticks)) this.lastCpuMs = Math.round((ticks * 1000) / TICKS_PER_SECOND)
    } catch {
      // Not Linux, or the process just ended.
    }
    return this.lastCpuMs
  }

  /** Resident anonymous memory of the process (MB), or null when it cannot be read. */
  private residentMb(): number | null {
    try {
      const status = fs.readFileSync(`/proc/${this.process.pid}/status`, 'utf8')
      const kb = /^RssAnon:\s+(\d+) kB/m.exec(status)?.[1]
      return kb === undefined ? null : Number(kb) / 1024
    } catch {
      return null
    }
  }

  private watch(): void {
    if (this.process.exitInfo || this.limitHit) return this.stopWatching()
    const { memoryMb, cpuMs } = this.limits
    const resident = this.residentMb()
    if (resident !== null && resident > memoryMb) return this.stopForLimit({ kind: 'memory', usedMb: Math.ceil(resident) })
    const oldest = this.requestCpu[0]
    if (oldest !== undefined) {
      const used = this.cpuMs() - oldest
      if (used > cpuMs) this.stopForLimit({ kind: 'cpu', usedMs: used })
    }
  }

  private stopForLimit(hit: LimitHit): void {
    this.limitHit = hit
    this.stopWatching()
    this.log.warn({ ...hit, limits: this.limits }, 'edge function stopped: over its limit')
    this.process.kill()
  }

  private stopWatching(): void {
    if (this.watcher) clearInterval(this.watcher)
    this.watcher = null
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
