import path from 'node:path'
import type { Logger } from 'pino'
import { reapStrays } from '../../control/child-processes.js'
import type { GatewayProject, ProjectDirectory } from '../../gateway/project-directory.js'
import { launchFingerprint, PostgrestProcess, postgrestBinary } from './postgrest-process.js'
import { ensureSchemaReloadTriggers } from './schema-reload.js'
import type { ProjectService } from '../../control/projects.js'
import { findProject } from '../../control/project-store.js'
import type { Db } from '../../store/db.js'

/** Longest wait for a PostgREST to load its schema cache before the request fails. */
const START_TIMEOUT_MS = 30_000
/** A PostgREST that dies is started again after this, doubling up to the maximum while it keeps dying. */
const RESTART_BACKOFF_MS = 500
const MAX_RESTART_BACKOFF_MS = 30_000
/** Up this long, a process counts as healthy again: the backoff starts over. */
const HEALTHY_AFTER_MS = 60_000

interface Running {
  process: PostgrestProcess
  /** Resolves once it serves; rejects when it could not start. */
  ready: Promise<PostgrestProcess>
  startedAt: number
  lastUsed: number
}

export interface RestSupervisorOptions {
  db: Db
  projects: ProjectService
  directory: ProjectDirectory
  /** Where the Unix sockets live (under the data directory). */
  runDir: string
  /** `${public URL}/projects/${ref}/rest/v1` for the OpenAPI document's host and base path. */
  publicApiUrl: (ref: string) => string | null
  /** Stop a project's PostgREST after this long without a request. */
  idleMs: number
  log: Logger
}

/**
 * One PostgREST per active project: started on its first request, stopped after an idle time, on
 * pause and on delete, restarted when its launch settings change (JWT secret rotation, data API
 * settings, a new port after an upgrade) and when it dies. The gateway asks `acquire(ref)` for
 * each request.
 */
export class RestSupervisor {
  private running = new Map<string, Running>()
  private backoff = new Map<string, number>()
  private transitions = new Map<string, Promise<void>>()
  private restartTimers = new Map<string, NodeJS.Timeout>()
  private triggersEnsured = new Set<string>()
  private idleTimer: NodeJS.Timeout
  private stopped = false
  private straysReaped: Promise<unknown> | null = null

  constructor(private readonly options: RestSupervisorOptions) {
    options.directory.onChange((ref) => void this.recheck(ref))
    this.idleTimer = setInterval(() => void this.stopIdle(), Math.max(1_000, Math.min(options.idleMs / 4, 60_000)))
    this.idleTimer.unref()
  }

  /** The REST API's public URL as the project's PostgREST advertises it (its OpenAPI host and base path), if it is given one. */
  publicApiUrl(ref: string): string | null {
    return this.options.publicApiUrl(ref)
  }

  /** The project's PostgREST, started (and waited for) when it is not running. */
  async acquire(project: GatewayProject): Promise<PostgrestProcess> {
    if (this.stopped) throw new Error('The platform is stopping')
    const current = this.running.get(project.ref)
    if (current && current.process.fingerprint === launchFingerprint(project)) {
      current.lastUsed = Date.now()
      return current.ready
    }
    // Starting and replacing are one at a time per project: two requests must not start two processes on one socket.
    return this.exclusive(project.ref, () => this.ensure(project))
  }

  private async ensure(project: GatewayProject): Promise<PostgrestProcess> {
    const current = this.running.get(project.ref)
    if (current && current.process.fingerprint === launchFingerprint(project)) return current.ready
    if (current) await this.stopNow(project.ref)
    await this.reapStraysOnce()
    return this.start(project).ready
  }

  /**
   * Before the first start: a PostgREST serving a socket under our run directory that no pid file
   * named (left by a version before pid files; boot reaps the others, main.ts) is stopped, so that a
   * project never has two.
   */
  private reapStraysOnce(): Promise<unknown> {
    const runDir = this.options.runDir
    const under = (socket: string) => socket.startsWith(runDir + path.sep) || path.resolve(socket).startsWith(path.resolve(runDir) + path.sep)
    this.straysReaped ??= reapStrays({ binary: postgrestBinary(), belongs: (env) => !!env.PGRST_SERVER_UNIX_SOCKET && under(env.PGRST_SERVER_UNIX_SOCKET) }, this.options.log).catch(
      (error: Error) => this.options.log.warn({ err: error }, 'could not look for PostgREST processes left running'),
    )
    return this.straysReaped
  }

  /** Runs fn after any start, stop or replacement of the project's PostgREST in progress. */
  private exclusive<T>(ref: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.transitions.get(ref) ?? Promise.resolve()
    const next = previous.then(fn, fn)
    const settled = next.then(
      () => undefined,
      () => undefined,
    )
    this.transitions.set(ref, settled)
    void settled.then(() => {
      if (this.transitions.get(ref) === settled) this.transitions.delete(ref)
    })
    return next
  }

  /** Is a PostgREST running (or starting) for the project? For tests and the memory benchmark. */
  processOf(ref: string): PostgrestProcess | null {
    return this.running.get(ref)?.process ?? null
  }

  /** The data API settings changed: the next request gets a PostgREST with the new ones. */
  async configChanged(ref: string): Promise<void> {
    this.options.directory.changed(ref)
    await this.recheck(ref)
  }

  async stop(ref: string): Promise<void> {
    await this.exclusive(ref, () => this.stopNow(ref))
  }

  private async stopNow(ref: string): Promise<void> {
    const timer = this.restartTimers.get(ref)
    if (timer) clearTimeout(timer)
    this.restartTimers.delete(ref)
    const current = this.running.get(ref)
    if (!current) return
    this.running.delete(ref)
    await current.process.stop()
  }

  async stopAll(): Promise<void> {
    this.stopped = true
    clearInterval(this.idleTimer)
    await Promise.all([...this.running.keys()].map((ref) => this.stop(ref)))
  }

  private start(project: GatewayProject): Running {
    const process = new PostgrestProcess(project, this.options.runDir, this.options.publicApiUrl(project.ref), (code, output) =>
      this.died(project.ref, process, code, output),
    )
    const entry: Running = { process, startedAt: Date.now(), lastUsed: Date.now(), ready: Promise.resolve(process) }
    entry.ready = (async () => {
      if (!this.triggersEnsured.has(project.ref)) {
        // Projects made before the gateway get the DDL watch that reloads PostgREST's schema cache.
        const row = await findProject(this.options.db, project.ref)
        if (row) await ensureSchemaReloadTriggers(this.options.projects.adminConnection(row))
        this.triggersEnsured.add(project.ref)
      }
      await process.start(AbortSignal.timeout(START_TIMEOUT_MS))
      return process
    })()
    entry.ready.catch((error: Error) => {
      this.options.log.warn({ ref: project.ref, err: error }, 'PostgREST could not start')
      if (this.running.get(project.ref) === entry) {
        this.running.delete(project.ref)
        void process.stop()
      }
    })
    this.running.set(project.ref, entry)
    return entry
  }

  /** A PostgREST that dies comes back, after a backoff that grows while it keeps dying. */
  private died(ref: string, process: PostgrestProcess, code: number | null, output: string): void {
    const current = this.running.get(ref)
    if (current?.process !== process) return
    this.running.delete(ref)
    void process.stop()
    if (this.stopped) return
    const healthy = Date.now() - current.startedAt > HEALTHY_AFTER_MS
    const delay = healthy ? RESTART_BACKOFF_MS : Math.min((this.backoff.get(ref) ?? RESTART_BACKOFF_MS / 2) * 2, MAX_RESTART_BACKOFF_MS)
    this.backoff.set(ref, delay)
    this.options.log.warn({ ref, code, output, restartInMs: delay }, 'PostgREST exited; starting it again')
    const timer = setTimeout(() => {
      this.restartTimers.delete(ref)
      void this.restart(ref)
    }, delay)
    timer.unref()
    this.restartTimers.set(ref, timer)
  }

  private async restart(ref: string): Promise<void> {
    if (this.stopped || this.running.has(ref)) return
    const project = await this.options.directory.get(ref).catch(() => null)
    if (project?.status === 'ACTIVE_HEALTHY') await this.acquire(project).catch(() => {})
  }

  /** After a change: stop what should no longer run, restart what runs with old settings. */
  private async recheck(ref: string): Promise<void> {
    const current = this.running.get(ref)
    if (!current) return
    const project = await this.options.directory.get(ref).catch(() => null)
    if (!project || project.status !== 'ACTIVE_HEALTHY') {
      await this.stop(ref)
      return
    }
    if (current.process.fingerprint !== launchFingerprint(project)) await this.exclusive(ref, () => this.ensure(project)).catch(() => {})
  }

  private async stopIdle(): Promise<void> {
    const now = Date.now()
    for (const [ref, entry] of this.running) {
      if (now - entry.lastUsed > this.options.idleMs) {
        this.options.log.info({ ref }, 'PostgREST idle: stopping it')
        await this.stop(ref)
      }
    }
  }
}
