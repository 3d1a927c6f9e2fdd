import { createHmac } from 'node:crypto'
import type { Logger } from 'pino'
import { findProject, listAllProjects } from '../../control/project-store.js'
import type { ProjectService } from '../../control/projects.js'
import type { ProjectDirectory } from '../../gateway/project-directory.js'
import type { Db } from '../../store/db.js'
import { ProjectCron } from './project-cron.js'
import { CRON_RUNNER_ROLE } from './schema.js'

/** A run's statement timeout (pg_cron has none; a run here never holds a session longer than this). */
export const CRON_STATEMENT_TIMEOUT_MS = 10 * 60_000
/** cron.job_run_details keeps the last runs of each job, this many (pg_cron keeps every run until purged by hand). */
export const CRON_RUNS_KEPT = 500

/** The runner's password, derived from the instance's sealed superuser password like the auth service's. */
export const cronRunnerPassword = (adminPassword: string): string => createHmac('sha256', adminPassword).update(CRON_RUNNER_ROLE).digest('base64url')

export interface CronSchedulerOptions {
  db: Db
  projects: ProjectService
  directory: ProjectDirectory
  log: Logger
  statementTimeoutMs?: number
  runsKept?: number
}

/**
 * pg_cron's background worker, once for the whole platform: it follows the projects that run (those ACTIVE_HEALTHY
 * at boot, then every change the project directory hears of) and keeps a ProjectCron for each. A project that
 * pauses, restarts or goes away loses it, so its jobs are skipped until it runs again.
 */
export class CronScheduler {
  private readonly followed = new Map<string, { port: number; cron: ProjectCron }>()
  private unsubscribe: (() => void) | null = null
  private stopped = false

  constructor(private readonly options: CronSchedulerOptions) {}

  async start(): Promise<void> {
    this.unsubscribe = this.options.directory.onSettled(
      async (ref, project) => {
        if (project?.status === 'ACTIVE_HEALTHY') this.follow(ref, project.port)
        else await this.unfollow(ref)
      },
      (error, ref) => this.options.log.warn({ err: error, ref }, 'cron: could not follow a change of the project'),
    )
    for (const row of await listAllProjects(this.options.db)) if (row.status === 'ACTIVE_HEALTHY') this.follow(row.ref, row.port)
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.unsubscribe?.()
    await Promise.all([...this.followed.keys()].map((ref) => this.unfollow(ref)))
  }

  /** The project's jobs, for tests: how many the scheduler knows of (undefined when it does not follow the project). */
  jobCount(ref: string): number | undefined {
    return this.followed.get(ref)?.cron.jobCount
  }

  private follow(ref: string, port: number): void {
    if (this.stopped) return
    const current = this.followed.get(ref)
    if (current?.port === port) return
    if (current) void current.cron.stop()
    const cron = new ProjectCron({
      ref,
      log: this.options.log,
      logins: async () => {
        const row = await findProject(this.options.db, ref)
        if (!row) throw new Error(`No project ${ref}`)
        const admin = this.options.projects.adminConnection(row)
        return { admin, runner: { port: row.port, user: CRON_RUNNER_ROLE, password: cronRunnerPassword(admin.password) } }
      },
      statementTimeoutMs: this.options.statementTimeoutMs ?? CRON_STATEMENT_TIMEOUT_MS,
      runsKept: this.options.runsKept ?? CRON_RUNS_KEPT,
    })
    this.followed.set(ref, { port, cron })
    cron.start()
  }

  private async unfollow(ref: string): Promise<void> {
    const current = this.followed.get(ref)
    if (!current) return
    this.followed.delete(ref)
    await current.cron.stop()
  }
}
