import fs from 'node:fs'
import path from 'node:path'

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on every Linux build that matters). */
const TICKS_PER_SECOND = 100
const PAGE_BYTES = 4096
/** A backend's process title: `postgres: <user> <database> <host>(<port>) <state>` or `[local]`; background processes have none. */
const BACKEND_TITLE = /^postgres: \S+ \S+ (\[local\]|\S+\(\d+\))/

/** Counters of one instance's process tree at one moment (cumulative ones are turned into rates by the caller). */
export interface ProcessTreeSample {
  /** CPU seconds used by the postmaster, its live children and its children that have exited (cutime). */
  cpuSeconds: number
  readBytes: number
  writeBytes: number
  /** Private memory of every process plus the shared memory once (shared_buffers is mapped by all). */
  memoryBytes: number
  /** Client backends (process titles with a client address), the way pg_stat_activity counts client connections. */
  connections: number
}

/** The postmaster's pid from its data directory's postmaster.pid, when that process still runs. */
export function postmasterPid(dataDir: string): number | null {
  let text: string
  try {
    text = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8')
  } catch {
    return null
  }
  const pid = Number(text.slice(0, text.indexOf('\n')))
  if (!Number.isInteger(pid) || pid <= 0) return null
  // A stale file after a crash may name a pid reused by another program.
  const comm = readOrNull(`/proc/${pid}/comm`)
  return comm?.trim() === 'postgres' ? pid : null
}

/**
 * Reads the postmaster's process tree from /proc: no query reaches the instance, so sampling costs its
 * query path nothing. Postgres forks every backend and helper from the postmaster, so the tree is the
 * postmaster and its direct children (/proc/<pid>/task/<pid>/children).
 */
export function sampleProcessTree(pid: number): ProcessTreeSample | null {
  const root = readStat(pid)
  if (!root) return null
  const sample: ProcessTreeSample = { cpuSeconds: root.cpu + root.childrenCpu, readBytes: 0, writeBytes: 0, memoryBytes: 0, connections: 0 }
  let maxShared = 0
  const add = (child: number, isRoot: boolean) => {
    if (!isRoot) {
      const stat = readStat(child)
      if (!stat) return // exited since the list was read: its time is in the postmaster's cutime now
      sample.cpuSeconds += stat.cpu
      const title = readOrNull(`/proc/${child}/cmdline`)
      if (title && BACKEND_TITLE.test(title.replace(/\0+/g, ' '))) sample.connections++
    }
    const io = readOrNull(`/proc/${child}/io`)
    if (io) {
      sample.readBytes += field(io, 'read_bytes')
      sample.writeBytes += field(io, 'write_bytes')
    }
    const statm = readOrNull(`/proc/${child}/statm`)
    if (statm) {
      const [, resident = 0, shared = 0] = statm.split(' ').map(Number)
      sample.memoryBytes += Math.max(0, resident - shared) * PAGE_BYTES
      maxShared = Math.max(maxShared, shared)
    }
  }
  add(pid, true)
  for (const child of (readOrNull(`/proc/${pid}/task/${pid}/children`) ?? '').split(' ')) {
    if (child) add(Number(child), false)
  }
  sample.memoryBytes += maxShared * PAGE_BYTES
  return sample
}

function readStat(pid: number): { cpu: number; childrenCpu: number } | null {
  const text = readOrNull(`/proc/${pid}/stat`)
  if (!text) return null
  // Fields after the command name (which may hold spaces), counted from field 3 (state).
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const [utime, stime, cutime, cstime] = [rest[11], rest[12], rest[13], rest[14]].map(Number)
  return { cpu: (utime! + stime!) / TICKS_PER_SECOND, childrenCpu: (cutime! + cstime!) / TICKS_PER_SECOND }
}

function field(text: string, name: string): number {
  const at = text.indexOf(`${name}: `)
  return at < 0 ? 0 : Number.parseInt(text.slice(at + name.length + 2), 10) || 0
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}
