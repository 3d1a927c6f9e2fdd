import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { Logger } from 'pino'

/**
 * The platform's long-lived child processes (PostgREST, Deno): they die with the platform, and a
 * platform that died anyway (kill -9, a crash half-way through a spawn) leaves a pid file behind, from
 * which the next boot finds and stops any survivor before it starts new ones (one PostgREST per
 * project, ever).
 *
 * - Parent-death signal: on Linux each child runs through `setpriv --pdeathsig SIGKILL -- <command>`,
 *   so the kernel kills it when the thread that spawned it ends. Node spawns from its main thread:
 *   the child dies with the platform process. setpriv execs the command, so the pid stays the same.
 * - Pid files: `<runDir>/pids/<kind>.<id>.pid` (JSON: pid, kind, id, binary, start time), written at
 *   spawn and removed when the child exits. `reapChildren(runDir)` reads every pid file, whatever its
 *   kind, and stops a process that still runs only when its start time and its command line are the
 *   ones recorded (a reused pid is never killed).
 */

export const SETPRIV = '/usr/bin/setpriv'
const PID_DIR = 'pids'
/** A name part of a pid file: no separators, no dots at the start. */
const NAME_PART = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,120}$/
const TERM_GRACE_MS = 3_000
const KILL_WAIT_MS = 10_000
const DEATH_POLL_MS = 25

export interface ChildSpec {
  /** `<dataDir>/run`: pid files go to its `pids/` directory. */
  runDir: string
  /** What the process is, e.g. 'postgrest' or 'deno': part of the pid file's name. */
  kind: string
  /** Unique among the running processes of this kind, e.g. the project ref: part of the pid file's name. */
  id: string
  /** Absolute path of the binary: the reaper checks the survivor's command line against it. */
  command: string
  args?: readonly string[]
  /**
   * A launcher that ends by exec'ing the rest of its arguments, put before the command (e.g.
   * `['/usr/bin/prlimit', '--as=268435456', '--']`): the pid stays the child's, and the reaper still
   * expects `command` on its command line.
   */
  wrapper?: readonly string[]
  /** As for child_process.spawn (env, cwd, stdio, uid, gid...). `detached` is refused: the child must die with us. */
  options?: Omit<SpawnOptions, 'detached'>
}

export interface PidRecord {
  pid: number
  kind: string
  id: string
  binary: string
  /** Field 22 of /proc/<pid>/stat (clock ticks since boot), null off Linux. */
  startTime: string | null
  /** The platform process that spawned it. */
  parent: number
}

let setprivWorks: boolean | undefined

/** Whether children can be given a parent-death signal here (Linux with util-linux's setpriv). */
export function parentDeathSignalAvailable(): boolean {
  if (setprivWorks === undefined) {
    setprivWorks = false
    if (process.platform === 'linux') {
      try {
        fs.accessSync(SETPRIV, fs.constants.X_OK)
        setprivWorks = true
      } catch {
        // Without setpriv, children are still reaped through their pid files at the next boot.
      }
    }
  }
  return setprivWorks
}

export const pidDirOf = (runDir: string): string => path.join(runDir, PID_DIR)
export const pidFileOf = (runDir: string, kind: string, id: string): string => path.join(pidDirOf(runDir), `${kind}.${id}.pid`)

/**
 * Spawns a child that dies with the platform and records it in a pid file until it exits. Use it in
 * place of child_process.spawn for every process meant to run as long as the platform.
 */
export function spawnChild(spec: ChildSpec): ChildProcess {
  if (!NAME_PART.test(spec.kind) || !NAME_PART.test(spec.id)) throw new Error(`Not a child process name: ${spec.kind}.${spec.id}`)
  if (!path.isAbsolute(spec.command)) throw new Error(`The command of a child process must be an absolute path: ${spec.command}`)
  const argv = [...(spec.wrapper ?? []), spec.command, ...(spec.args ?? [])]
  const options: SpawnOptions = { ...spec.options, detached: false }
  const child = parentDeathSignalAvailable() ? spawn(SETPRIV, ['--pdeathsig', 'SIGKILL', '--', ...argv], options) : spawn(argv[0]!, argv.slice(1), options)
  const pid = child.pid
  // No pid: the spawn failed ('error' follows), nothing runs.
  if (pid === undefined) return child
  const file = pidFileOf(spec.runDir, spec.kind, spec.id)
  const record: PidRecord = { pid, kind: spec.kind, id: spec.id, binary: spec.command, startTime: startTimeOf(pid), parent: process.pid }
  try {
    // The run directory stays traversable for the children's sockets below it; the pid files are the platform's alone.
    fs.mkdirSync(spec.runDir, { recursive: true, mode: 0o711 })
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    writeAtomically(file, JSON.stringify(record) + '\n')
  } catch (error) {
    // Untracked it must not run: it could survive a crash unseen.
    child.kill('SIGKILL')
    throw error
  }
  child.once('exit', () => removePidFile(file, pid))
  return child
}

/** Removes the pid file if it still names this process (a newer child of the same name may own it now). */
function removePidFile(file: string, pid: number): void {
  try {
    if ((JSON.parse(fs.readFileSync(file, 'utf8')) as PidRecord).pid === pid) fs.rmSync(file, { force: true })
  } catch {
    // Gone already, or not ours to remove.
  }
}

function writeAtomically(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temporary, content, { mode: 0o600 })
  fs.renameSync(temporary, file)
}

export interface Reaped {
  kind: string
  id: string
  pid: number
  /** True when a live process was stopped; false when the pid file was stale. */
  killed: boolean
}

/**
 * Stops every process recorded under `<runDir>/pids` that still runs (a survivor of a platform that
 * did not stop cleanly), whatever its kind, and removes the pid files. Run at boot, before any child
 * is started, while holding the data directory (platform-lock.ts): no live platform owns them then.
 */
export async function reapChildren(runDir: string, log?: Pick<Logger, 'warn'>): Promise<Reaped[]> {
  const dir = pidDirOf(runDir)
  let entries: string[]
  try {
    entries = fs.readdirSync(dir)
  } catch {
    return []
  }
  const reaped: Reaped[] = []
  await Promise.all(
    entries.map(async (entry) => {
      const file = path.join(dir, entry)
      if (!entry.endsWith('.pid')) {
        // A temporary file of an interrupted write.
        if (entry.endsWith('.tmp')) fs.rmSync(file, { force: true })
        return
      }
      const record = readRecord(file)
      if (record && isSameProcess(record)) {
        log?.warn({ kind: record.kind, id: record.id, pid: record.pid }, 'a child process of an earlier platform still runs: stopping it')
        await terminate(record.pid)
        reaped.push({ kind: record.kind, id: record.id, pid: record.pid, killed: true })
      } else if (record) {
        reaped.push({ kind: record.kind, id: record.id, pid: record.pid, killed: false })
      }
      fs.rmSync(file, { force: true })
    }),
  )
  return reaped
}

function readRecord(file: string): PidRecord | null {
  try {
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as PidRecord
    return Number.isInteger(record.pid) && record.pid > 1 && typeof record.binary === 'string' ? record : null
  } catch {
    return null
  }
}

/** The recorded process, still running: same start time, and its command line runs the recorded binary. */
function isSameProcess(record: PidRecord): boolean {
  if (record.pid === process.pid || !isRunning(record.pid)) return false
  if (process.platform !== 'linux') return true
  if (record.startTime !== null && startTimeOf(record.pid) !== record.startTime) return false
  // A launcher still on its way to the binary counts only when the start time proved it is the same process.
  return runsBinary(record.pid, record.binary, realpathOrNull(record.binary), record.startTime !== null)
}

/** Does the process run `binary` (or is it still a launcher, setpriv or a wrapper, about to exec it)? */
export function runsBinary(pid: number, binary: string, resolved = realpathOrNull(binary), launching = true): boolean {
  const argv = commandLineOf(pid)
  if (!argv?.length) return false
  if (argv[0] === binary || (launching && argv.includes(binary))) return true
  try {
    return resolved !== null && fs.readlinkSync(`/proc/${pid}/exe`) === resolved
  } catch {
    return false
  }
}

function realpathOrNull(file: string): string | null {
  try {
    return fs.realpathSync(file)
  } catch {
    return null
  }
}

/** argv of a running process (null when it is gone; empty for a zombie or a kernel thread). */
export function commandLineOf(pid: number): string[] | null {
  try {
    const raw = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    return raw ? raw.replace(/\0$/, '').split('\0') : []
  } catch {
    return null
  }
}

/** Alive and not a zombie (a zombie has exited: only its parent has yet to read its status). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  if (process.platform !== 'linux') return true
  const stat = statFieldsOf(pid)
  return stat !== null && stat[0] !== 'Z' && stat[0] !== 'X'
}

/** The fields of /proc/<pid>/stat after the command name: [state, ppid, ...]. */
function statFieldsOf(pid: number): string[] | null {
  try {
    const raw = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return raw.slice(raw.lastIndexOf(')') + 2).split(' ')
  } catch {
    return null
  }
}

/** When the process started (field 22 of /proc/<pid>/stat): with the pid, names one process for good. */
export function startTimeOf(pid: number): string | null {
  return statFieldsOf(pid)?.[19] ?? null
}

/** SIGTERM, then SIGKILL after a grace time; resolves once the process is gone (or after KILL_WAIT_MS more). */
export async function terminate(pid: number, graceMs = TERM_GRACE_MS): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name)
    } catch {
      // Gone already.
    }
  }
  signal('SIGTERM')
  const deadline = Date.now() + graceMs
  while (isRunning(pid)) {
    if (Date.now() > deadline) {
      signal('SIGKILL')
      break
    }
    await new Promise((resolve) => setTimeout(resolve, DEATH_POLL_MS))
  }
  // SIGKILL cannot be refused, but a process stuck in the kernel (uninterruptible I/O) ends only when that does: not waited for forever.
  const killDeadline = Date.now() + KILL_WAIT_MS
  while (isRunning(pid) && Date.now() < killDeadline) await new Promise((resolve) => setTimeout(resolve, DEATH_POLL_MS))
}

export interface StrayMatch {
  /** Absolute path of the binary the stray runs. */
  binary: string
  /**
   * Decides from the process's environment (read only for processes running `binary`) whether it is one
   * of ours; the pid lets a caller look further (e.g. /proc/<pid>/cwd under the data directory).
   */
  belongs: (environment: Record<string, string>, pid: number) => boolean
}

/**
 * Processes that no pid file names (started by a version before pid files, or whose pid file was
 * lost) found by their binary and environment, e.g. a PostgREST whose socket is under our run
 * directory; stopped like reaped ones. Linux only (reads /proc); returns the pids stopped.
 */
export async function reapStrays(match: StrayMatch, log?: Pick<Logger, 'warn'>): Promise<number[]> {
  if (process.platform !== 'linux') return []
  const found: number[] = []
  const resolved = realpathOrNull(match.binary)
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const pid = Number(entry)
    if (pid === process.pid || !runsBinary(pid, match.binary, resolved, false)) continue
    const environment = environmentOf(pid)
    if (environment && match.belongs(environment, pid) && isRunning(pid)) found.push(pid)
  }
  for (const pid of found) log?.warn({ pid, binary: match.binary }, 'a child process no pid file names still runs: stopping it')
  await Promise.all(found.map((pid) => terminate(pid)))
  return found
}

function environmentOf(pid: number): Record<string, string> | null {
  try {
    const raw = fs.readFileSync(`/proc/${pid}/environ`, 'utf8')
    const environment: Record<string, string> = {}
    for (const pair of raw.split('\0')) {
      const at = pair.indexOf('=')
      if (at > 0) environment[pair.slice(0, at)] = pair.slice(at + 1)
    }
    return environment
  } catch {
    return null
  }
}
