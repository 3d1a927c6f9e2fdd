import PgBoss from 'pg-boss'
import { inTransaction } from '../../store/db.js'
import { takeLogicalBackup } from '../logical-backups.js'
import { findProject, listAllProjects, setProjectStatus } from '../project-store.js'
import { definitionFor, type OperationContext } from './definitions.js'
import {
  findOperation, finishOperation, insertOperation, recordStep, runningOperations, type OperationKind, type OperationRow,
} from './operation-store.js'

const QUEUE = 'project-operation'
const DAILY_BACKUPS = 'daily-logical-backups'

export class OperationConflictError extends Error {}

/**
 * Runs lifecycle operations as durable jobs (pg-boss on the platform database). The operations
 * table records each one's last completed step, so an operation interrupted by a crash or a
 * shutdown resumes after that step at the next boot; a failed step rolls the project back.
 */
export class OperationRunner {
  private boss: PgBoss | null = null
  private stopping = false
  private readonly active = new Set<Promise<void>>()

  constructor(
    private readonly ctx: OperationContext,
    private readonly connectionString: string,
    /** Pause between steps: only for tests that interrupt an operation half-way. */
    private readonly stepDelayMs = 0,
  ) {}

  /** Refs whose status belongs to a running operation: boot reconciliation leaves them alone. */
  async busyRefs(): Promise<Set<string>> {
    return new Set((await runningOperations(this.ctx.db)).map((op) => op.project_ref))
  }

  async start(): Promise<void> {
    const boss = new PgBoss({ connectionString: this.connectionString, schema: 'pgboss', max: 3, application_name: 'stratum-jobs' })
    boss.on('error', (error) => this.ctx.log.error({ err: error }, 'job queue error'))
    await boss.start()
    await boss.createQueue(QUEUE)
    this.boss = boss
    // Operations that were running when the platform stopped: their jobs died with it.
    for (const op of await runningOperations(this.ctx.db)) {
      await boss.deleteJob(QUEUE, op.id)
      await this.enqueue(op.id)
    }
    await boss.work<{ operationId: string }>(QUEUE, { pollingIntervalSeconds: 0.5, batchSize: 1 }, async ([job]) => {
      if (job) await this.track(this.execute(job.data.operationId))
    })
    await boss.createQueue(DAILY_BACKUPS)
    await boss.schedule(DAILY_BACKUPS, '0 3 * * *', {}, { tz: 'UTC', retryLimit: 0 })
    await boss.work(DAILY_BACKUPS, () => this.track(this.backUpActiveProjects()))
  }

  /** The daily logical backup of every active project that is not in the middle of an operation. */
  async backUpActiveProjects(): Promise<void> {
    const busy = await this.busyRefs()
    for (const project of await listAllProjects(this.ctx.db)) {
      if (project.status !== 'ACTIVE_HEALTHY' || busy.has(project.ref) || this.stopping) continue
      try {
        await takeLogicalBackup(this.ctx, project)
      } catch (error) {
        this.ctx.log.error({ err: error, ref: project.ref }, 'daily logical backup failed')
      }
    }
  }

  /** Accepts an operation: records it, shows its first status, queues its job. */
  async request(ref: string, kind: OperationKind, params: Record<string, unknown>, userId: string | null): Promise<OperationRow> {
    const definition = definitionFor(kind, params)
    if (!definition) throw new Error(`No operation ${kind}`)
    const op = await inTransaction(this.ctx.db, async (tx) => {
      const inserted = await insertOperation(tx, ref, kind, params, userId)
      if (!inserted) throw new OperationConflictError('Another operation is already running on this project')
      await setProjectStatus(tx, ref, definition.requestedStatus)
      return inserted
    })
    await this.enqueue(op.id)
    return op
  }

  /** Finishes the current step of each running operation and leaves the rest for the next boot. */
  async stop(): Promise<void> {
    this.stopping = true
    await Promise.allSettled([...this.active])
    await this.boss?.stop({ graceful: false, wait: true }).catch(() => {})
  }

  private async enqueue(operationId: string): Promise<void> {
    await this.boss?.send(QUEUE, { operationId }, { id: operationId, retryLimit: 0, expireInHours: 12 })
  }

  private track(run: Promise<void>): Promise<void> {
    this.active.add(run)
    return run.finally(() => this.active.delete(run))
  }

  private async execute(operationId: string): Promise<void> {
    const op = await findOperation(this.ctx.db, operationId)
    if (!op || op.status !== 'running' || this.stopping) return
    const definition = definitionFor(op.kind, op.params)!
    const log = this.ctx.log.child({ ref: op.project_ref, operation: op.kind, id: op.id })
    await setProjectStatus(this.ctx.db, op.project_ref, definition.runningStatus)
    let lastDone = op.step
    const start = lastDone ? definition.steps.findIndex((step) => step.name === lastDone) + 1 : 0
    for (const step of definition.steps.slice(start)) {
      if (this.stopping) return log.info('platform stopping: the operation resumes at the next boot')
      const project = await findProject(this.ctx.db, op.project_ref)
      if (!project) return finishOperation(this.ctx.db, op.id, 'failed', 'The project no longer exists')
      try {
        await step.run(this.ctx, project, op)
        Object.assign(op.params, step.marks)
        await recordStep(this.ctx.db, op.id, step.name, op.params)
        lastDone = step.name
        if (this.stepDelayMs) await new Promise((resolve) => setTimeout(resolve, this.stepDelayMs))
      } catch (error) {
        const reason = `${step.name}: ${(error as Error).message}`
        log.error({ err: error }, 'operation step failed; rolling back')
        Object.assign(op.params, step.failureMarks)
        await recordStep(this.ctx.db, op.id, lastDone, op.params)
        const status = await definition.rollBack(this.ctx, project, op).catch(() => 'ACTIVE_UNHEALTHY' as const)
        await setProjectStatus(this.ctx.db, op.project_ref, status, { reason })
        return finishOperation(this.ctx.db, op.id, 'failed', reason)
      }
    }
    await setProjectStatus(this.ctx.db, op.project_ref, definition.succeededStatus)
    await finishOperation(this.ctx.db, op.id, 'succeeded')
    log.info('operation finished')
  }
}
