import type { Logger } from 'pino'
import { findProject, listAllProjects } from '../../control/project-store.js'
import type { ProjectService } from '../../control/projects.js'
import type { ProjectDirectory } from '../../gateway/project-directory.js'
import type { Db } from '../../store/db.js'
import type { DeliverySettings } from './delivery.js'
import { ProjectNetWorker } from './worker.js'

export interface NetServiceOptions {
  db: Db
  projects: ProjectService
  directory: ProjectDirectory
  settings: DeliverySettings
  log: Logger
}

/**
 * pg_net for every project: one ProjectNetWorker per healthy project, following the project directory as the other
 * services do (started when a project becomes ACTIVE_HEALTHY, again on a new port after a restart or an upgrade;
 * stopped on pause, delete or any other status), and for every healthy project at boot.
 */
export class NetService {
  private readonly workers = new Map<string, { port: number; worker: ProjectNetWorker }>()
  private stopped = false

  constructor(private readonly options: NetServiceOptions) {
    options.directory.onSettled(
      async (ref, project) => {
        if (project?.status === 'ACTIVE_HEALTHY') return this.run(ref, project.port)
        await this.stopProject(ref)
      },
      (error, ref) => options.log.warn({ err: error, ref }, 'net: a project change was not followed'),
    )
  }

  /** Every healthy project's queue is drained and followed (what was queued before a restart is sent now). */
  async start(): Promise<void> {
    const rows = await listAllProjects(this.options.db)
    for (const row of rows) if (row.status === 'ACTIVE_HEALTHY') this.run(row.ref, row.port)
  }

  async stop(): Promise<void> {
    this.stopped = true
    await Promise.all([...this.workers.keys()].map((ref) => this.stopProject(ref)))
  }

  private run(ref: string, port: number): void {
    if (this.stopped) return
    const current = this.workers.get(ref)
    if (current?.port === port) return
    if (current) void current.worker.stop()
    const worker = new ProjectNetWorker({
      ref,
      settings: this.options.settings,
      log: this.options.log,
      login: async () => {
        const row = await findProject(this.options.db, ref)
        if (!row) throw new Error(`No project ${ref}`)
        return this.options.projects.adminConnection(row)
      },
    })
    this.workers.set(ref, { port, worker })
    worker.start()
  }

  private async stopProject(ref: string): Promise<void> {
    const current = this.workers.get(ref)
    if (!current) return
    this.workers.delete(ref)
    await current.worker.stop()
  }
}
