import path from 'node:path'
import type { Logger } from 'pino'
import { reapStrays } from '../../control/child-processes.js'
import type { GatewayProject, ProjectDirectory } from '../../gateway/project-directory.js'
import { ProjectProcessManager } from '../../control/processes/project-process-manager.js'
import { launchFingerprint, PostgrestProcess, postgrestBinary } from './postgrest-process.js'
import { ensureSchemaReloadTriggers } from './schema-reload.js'
import type { ProjectService } from '../../control/projects.js'
import { findProject } from '../../control/project-store.js'
import type { Db } from '../../store/db.js'

/** Longest wait for a PostgREST to load its schema cache before the request fails. */
const START_TIMEOUT_MS = 30_000

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
 * One PostgREST per active project, run by the platform's process manager: started on its first request, stopped
 * after an idle time, on pause and on delete, restarted when its launch settings change (JWT secret rotation, data
 * API settings, a new port after an upgrade) and, after a backoff, when it dies. The gateway asks `acquire(ref)` for
 * each request.
 */
export class RestSupervisor {
  private readonly processes: ProjectProcessManager<PostgrestProcess>
  private triggersEnsured = new Set<string>()
  private straysReaped: Promise<unknown> | null = null

  constructor(private readonly options: RestSupervisorOptions) {
    this.processes = new ProjectProcessManager<PostgrestProcess>({
      what: 'PostgREST',
      idleMs: options.idleMs,
      log: options.log,
      alive: (process) => !process.hasExited,
      // A long answer (an export, a slow RPC) outlasting the idle time is not cut off.
      busy: (process) => process.inFlight > 0,
      restart: (ref) => this.restart(ref),
    })
    options.directory.onChange((ref, latest) => void this.recheck(ref, latest))
  }

  /** The REST API's public URL as the project's PostgREST advertises it (its OpenAPI host and base path), if it is given one. */
  publicApiUrl(ref: string): string | null {
    return this.options.publicApiUrl(ref)
  }

  /** The project's PostgREST, started (and waited for) when it is not running. */
  acquire(project: GatewayProject): Promise<PostgrestProcess> {
    return this.processes.acquire(project.ref, launchFingerprint(project), () => this.start(project))
  }

  /** Is a PostgREST running for the project? For tests and the memory benchmark. */
  processOf(ref: string): PostgrestProcess | null {
    return this.processes.peek(ref)
  }

  /** The data API settings changed: the next request gets a PostgREST with the new ones. */
  async configChanged(ref: string): Promise<void> {
    this.options.directory.changed(ref)
    await this.recheck(ref, () => true)
  }

  stop(ref: string): Promise<void> {
    return this.processes.stop(ref)
  }

  stopAll(): Promise<void> {
    return this.processes.stopAll()
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

  private async start(project: GatewayProject): Promise<PostgrestProcess> {
    await this.reapStraysOnce()
    if (!this.triggersEnsured.has(project.ref)) {
      // Projects made before the gateway get the DDL watch that reloads PostgREST's schema cache.
      const row = await findProject(this.options.db, project.ref)
      if (row) await ensureSchemaReloadTriggers(this.options.projects.adminConnection(row))
      this.triggersEnsured.add(project.ref)
    }
    const process: PostgrestProcess = new PostgrestProcess(project, this.options.runDir, this.options.publicApiUrl(project.ref), (code, output) =>
      this.processes.died(project.ref, process, { code, output }),
    )
    try {
      await process.start(AbortSignal.timeout(START_TIMEOUT_MS))
    } catch (error) {
      await process.stop()
      throw error
    }
    return process
  }

  /** After a death: started again if the project should still be serving. */
  private async restart(ref: string): Promise<void> {
    const project = await this.options.directory.get(ref).catch(() => null)
    if (project?.status === 'ACTIVE_HEALTHY') await this.acquire(project).catch(() => {})
  }

  /** After a change: stop what should no longer run, restart what runs with old settings. */
  private async recheck(ref: string, latest: () => boolean): Promise<void> {
    const fingerprint = this.processes.fingerprintOf(ref)
    if (fingerprint === null) return
    const project = await this.options.directory.get(ref).catch(() => null)
    // A later change of the project decides (this read may predate it).
    if (!latest()) return
    if (!project || project.status !== 'ACTIVE_HEALTHY') {
      await this.stop(ref)
      return
    }
    if (fingerprint !== launchFingerprint(project)) await this.acquire(project).catch(() => {})
  }
}
