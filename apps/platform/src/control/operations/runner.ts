import { DomainError } from '../../errors.js'
import type { ProjectStatus } from '@stratum/contracts'
import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import { inTransaction, type Queryable } from '../../store/db.js'
import { findProject, listAllProjects, setProjectStatus, type ProjectRow } from '../project-store.js'
import { definitionFor } from './definitions.js'
import { cancellableAfter, stepsDone, type OperationContext, type OperationDefinition } from './operation.js'
import {
  beginStep, findOperation, finishOperation, insertOperation, lockOperation, markStarted, recordStep, requestCancel,
  runningOperations, type OperationKind, type OperationLane, type OperationRow,
} from './operation-store.js'

/** Any fixed number: one runner per platform database runs the operations (two platforms take turns). */
const RUNNER_LOCK = 7_211_044 // distinct from migrate.ts (042) and projects.ts port allocation (043)
/** Operations at once, across projects: dumps and restarts are heavy, key updates light. */
const LANE_CONCURRENCY: Record<OperationLane, number> = { instance: 2, keys: 8 }
/** How often the runner looks for work it was not told about (another process's) and retries its lock. */
const POLL_MS = 2_000
/** Daily logical backups start at 03:00 UTC (README "Project lifecycle and backups"). */
const DAILY_BACKUP_HOUR_UTC = 3
/** The error recorded for a cancelled operation. */
export const CANCELLED_MESSAGE = 'The operation was cancelled'

/** Another operation holds the project (the routes answer 409). */
export class OperationConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message)
  }
}
/** The caller's own operation id (a change_tracking_id) was used before. */
export class DuplicateOperationError extends DomainError {
  constructor(message: string) {
    super('conflict', message)
  }
}
export class NotCancellableError extends DomainError {
  constructor(message: string) {
    super('conflict', message)
  }
}
/**
 * Where the runner stands, for /api/health: `running` holds the lock and runs the operations; `standby`
 * reaches the database while another platform on it holds the lock; `unreachable` cannot reach the
 * database (its lock connection failed or was lost).
 */
export type RunnerState = 'starting' | 'running' | 'standby' | 'unreachable' | 'stopped'

/**
 * The one durable job runner of the platform: lifecycle operations (pause, restore, restart,
 * resize, upgrade), JWT secret rotations and logical backups. The operations table is its queue
 * and its record: each operation is a list of idempotent steps (operation.ts), and each completed
 * step is recorded, so an operation interrupted by a crash (kill -9) or a shutdown resumes after
 * its last completed step at the next start. A failed step rolls back. A cancel is honoured at
 * the next step boundary while the operation has not passed its point of no return.
 */
export class OperationRunner {
  private stopping = false
  private lock: pg.Client | null = null
  private waitingForLock = false
  private lockState: RunnerState = 'starting'
  private poller: NodeJS.Timeout | undefined
  private daily: NodeJS.Timeout | undefined
  private readonly active = new Map<string, { lane: OperationLane; done: Promise<void> }>()
  private readonly waiters = new Map<string, (() => void)[]>()
  private pumping: Promise<void> | null = null
  private pumpAgain = false

  constructor(
    private readonly ctx: OperationContext,
    private readonly connectionString: string,
    /** Pause before each step: only for tests that look at (or interrupt) an operation half-way. */
    private readonly stepDelayMs = 0,
  ) {}

  /** Refs whose status belongs to a running operation: boot reconciliation leaves them alone. */
  async busyRefs(): Promise<Set<string>> {
    const running = await runningOperations(this.ctx.db)
    return new Set(running.filter((op) => definitionFor(op.kind, op.params).runningStatus).map((op) => op.project_ref))
  }

  get state(): RunnerState {
    return this.stopping ? 'stopped' : this.lockState
  }

  /** Takes up the operations the previous run left unfinished, then whatever is requested. */
  async start(): Promise<void> {
    await this.acquireLock()
    this.poller = setInterval(() => void this.tick(), POLL_MS)
    this.poller.unref()
    this.scheduleDailyBackups()
    void this.pump()
  }

  /** Finishes the current step of each running operation and leaves the rest for the next start. */
  async stop(): Promise<void> {
    this.stopping = true
    clearInterval(this.poller)
    clearTimeout(this.daily)
    await this.pumping
    await Promise.allSettled([...this.active.values()].map((run) => run.done))
    for (const id of [...this.waiters.keys()]) this.resolveWaiters(id)
    await this.lock?.end().catch(() => {})
    this.lock = null
  }

  /**
   * Accepts an operation: records it (with `record`, the caller's own rows, in the same
   * transaction), shows its first status, and wakes the runner.
   */
  async request(
    ref: string,
    kind: OperationKind,
    params: Record<string, unknown>,
    userId: string | null,
    options: {
      id?: string
      /** Runs first in the same transaction (e.g. inserts the project the operation is about). */
      prepare?: (tx: Queryable) => Promise<unknown>
      record?: (tx: Queryable, op: OperationRow) => Promise<unknown>
    } = {},
  ): Promise<OperationRow> {
    const definition = definitionFor(kind, params)
    const op = await inTransaction(this.ctx.db, async (tx) => {
      await options.prepare?.(tx)
      const inserted = await insertOperation(tx, { id: options.id, ref, kind, lane: definition.lane ?? 'instance', params, initiatedBy: userId }).catch(
        (error: { code?: string; constraint?: string }) => {
          if (error.code === '23505' && error.constraint === 'operations_pkey') throw new DuplicateOperationError('This operation id was already used')
          throw error
        },
      )
      if (!inserted) throw new OperationConflictError('Another operation is already running on this project')
      if (definition.requestedStatus) await setProjectStatus(tx, ref, definition.requestedStatus)
      await options.record?.(tx, inserted)
      return inserted
    })
    void this.pump()
    return op
  }

  /**
   * Asks a running operation to stop at its next step boundary and roll back. Refused once the
   * operation ended, or when that boundary is past its point of no return (operation.ts).
   */
  async cancel(id: string): Promise<OperationRow> {
    const op = await inTransaction(this.ctx.db, async (tx) => {
      const current = await lockOperation(tx, id)
      if (!current || current.status !== 'running') throw new NotCancellableError('This operation has already ended')
      if (current.cancel_requested_at) return current
      const definition = definitionFor(current.kind, current.params)
      // A running step is never interrupted: the cancel takes effect once it is done.
      const doneAtBoundary = stepsDone(definition, current.step) + (current.current_step ? 1 : 0)
      if (!cancellableAfter(definition, doneAtBoundary)) throw new NotCancellableError('This operation can no longer be cancelled')
      return (await requestCancel(tx, id))!
    })
    void this.pump()
    return op
  }

  /** The daily logical backup of every active project that is not in the middle of an operation. */
  async backUpActiveProjects(): Promise<void> {
    const requested: string[] = []
    for (const project of await listAllProjects(this.ctx.db)) {
      if (project.status !== 'ACTIVE_HEALTHY' || this.stopping) continue
      try {
        requested.push((await this.request(project.ref, 'logical_backup', {}, null)).id)
      } catch (error) {
        // Busy with another operation: today's backup is skipped, tomorrow's comes.
        if (!(error instanceof OperationConflictError)) this.ctx.log.error({ err: error, ref: project.ref }, 'daily logical backup not requested')
      }
    }
    await Promise.all(requested.map((id) => this.settled(id)))
  }

  /** Resolves once the operation is no longer running (or the runner stops): for tests and the daily backups. */
  async settled(id: string): Promise<void> {
    const ended = new Promise<void>((resolve) => this.waiters.set(id, [...(this.waiters.get(id) ?? []), resolve]))
    if ((await findOperation(this.ctx.db, id))?.status !== 'running' || this.stopping) this.resolveWaiters(id)
    return ended
  }

  private resolveWaiters(id: string): void {
    for (const resolve of this.waiters.get(id) ?? []) resolve()
    this.waiters.delete(id)
  }

  private async tick(): Promise<void> {
    if (!this.lock) await this.acquireLock()
    await this.pump()
  }

  /** The runner lock lives as long as its connection: a platform killed with -9 releases it. */
  private async acquireLock(): Promise<void> {
    if (this.stopping) return
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'stratum-jobs' })
    client.on('error', (error) => this.ctx.log.warn({ err: error }, 'job runner lost its database connection'))
    client.on('end', () => {
      if (this.lock !== client) return
      this.lock = null
      // Lost with its database (stopped, restarted, network): known again at the next tick.
      this.lockState = 'unreachable'
    })
    try {
      await client.connect()
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [RUNNER_LOCK])
      if (rows[0]?.locked) {
        this.lock = client
        this.waitingForLock = false
        this.lockState = 'running'
        return
      }
      if (!this.waitingForLock) this.ctx.log.info('another platform runs the operations of this database; waiting for it to stop')
      this.waitingForLock = true
      this.lockState = 'standby'
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'job runner cannot take its lock yet')
      this.lockState = 'unreachable'
    }
    await client.end().catch(() => {})
  }

  /** Launches the running operations that are not running here yet, as far as each lane has room. */
  private pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true
      return this.pumping
    }
    this.pumping = (async () => {
      do {
        this.pumpAgain = false
        if (!this.lock || this.stopping) return
        for (const op of await runningOperations(this.ctx.db)) {
          const busy = [...this.active.values()].filter((run) => run.lane === op.lane).length
          if (!this.active.has(op.id) && busy < LANE_CONCURRENCY[op.lane]) this.launch(op)
        }
      } while (this.pumpAgain)
    })()
      .catch((error: unknown) => this.ctx.log.error({ err: error }, 'job runner could not read its queue'))
      .finally(() => {
        this.pumping = null
        // A wake-up that came while this pass was ending gets its own pass.
        if (this.pumpAgain) void this.pump()
      })
    return this.pumping
  }

  private launch(op: OperationRow): void {
    const done = this.execute(op.id)
      .catch((error: unknown) => this.ctx.log.error({ err: error, id: op.id }, 'operation could not be recorded'))
      .finally(() => {
        this.active.delete(op.id)
        this.resolveWaiters(op.id)
        void this.pump()
      })
    this.active.set(op.id, { lane: op.lane, done })
  }

  private async execute(id: string): Promise<void> {
    const { db } = this.ctx
    const op = await findOperation(db, id)
    if (!op || op.status !== 'running' || this.stopping) return
    const definition = definitionFor(op.kind, op.params)
    const log = this.ctx.log.child({ ref: op.project_ref, operation: op.kind, id: op.id })
    if (op.cancel_requested_at) return this.cancelNow(op, definition, log)
    await markStarted(db, id)
    if (definition.runningStatus) await setProjectStatus(db, op.project_ref, definition.runningStatus)
    let lastDone = op.step
    for (const step of definition.steps.slice(stepsDone(definition, lastDone))) {
      if (this.stepDelayMs && !this.stopping) await new Promise((resolve) => setTimeout(resolve, this.stepDelayMs))
      if (this.stopping) return log.info('platform stopping: the operation resumes at the next start')
      if (!(await beginStep(db, id, step.name))) {
        const current = await findOperation(db, id)
        return current?.status === 'running' && current.cancel_requested_at ? this.cancelNow(current, definition, log) : undefined
      }
      const project = await findProject(db, op.project_ref)
      if (!project) return finishOperation(db, id, 'failed', 'The project no longer exists')
      try {
        const stepStarted = performance.now()
        await step.run(this.ctx, project, op)
        Object.assign(op.params, step.marks)
        await recordStep(db, id, step.name, op.params)
        lastDone = op.step = step.name
        // Where an operation's time goes, for whoever reads the platform's log.
        log.info({ step: step.name, ms: Math.round(performance.now() - stepStarted) }, 'operation step done')
      } catch (error) {
        // A step cut short by the shutdown is run again at the next start (steps are idempotent).
        if (this.stopping) return log.warn({ err: error }, 'step interrupted by the shutdown; it runs again at the next start')
        const reason = `${step.name}: ${(error as Error).message}`
        log.error({ err: error }, 'operation step failed; rolling back')
        Object.assign(op.params, step.failureMarks)
        await recordStep(db, id, lastDone, op.params)
        // The rollback may tell the user why (a branch records it): the reason is on the row it gets.
        op.error = reason
        const status = await this.rollBack(definition, project, op, log)
        if (status) await setProjectStatus(db, op.project_ref, status, { reason })
        return finishOperation(db, id, 'failed', reason)
      }
    }
    if (definition.succeededStatus) await setProjectStatus(db, op.project_ref, definition.succeededStatus)
    await finishOperation(db, id, 'succeeded')
    log.info('operation finished')
  }

  /**
   * Ends a cancelled operation. Before anything was done, the project gets back the status it had
   * when the operation was accepted; after, the operation's rollback puts things back.
   */
  private async cancelNow(op: OperationRow, definition: OperationDefinition, log: FastifyBaseLogger): Promise<void> {
    const project = await findProject(this.ctx.db, op.project_ref)
    if (!project) return finishOperation(this.ctx.db, op.id, 'cancelled', CANCELLED_MESSAGE)
    const untouched = op.step === null && op.current_step === null
    // An operation that makes its project (a branch: accepted while the project was COMING_UP) has no earlier
    // status to go back to: it rolls back like any other, so the project does not wait forever.
    const restorable = op.previous_status && op.previous_status !== 'COMING_UP'
    const status = untouched && definition.requestedStatus && restorable
      ? (op.previous_status as ProjectStatus)
      : await this.rollBack(definition, project, op, log)
    if (status && definition.runningStatus) await setProjectStatus(this.ctx.db, op.project_ref, status)
    await finishOperation(this.ctx.db, op.id, 'cancelled', CANCELLED_MESSAGE)
    log.info('operation cancelled')
  }

  private async rollBack(definition: OperationDefinition, project: ProjectRow, op: OperationRow, log: FastifyBaseLogger): Promise<ProjectStatus | null> {
    try {
      return await definition.rollBack(this.ctx, project, op)
    } catch (error) {
      log.error({ err: error }, 'operation rollback failed')
      return definition.runningStatus ? ('ACTIVE_UNHEALTHY' as const) : null
    }
  }

  /** Requests the daily logical backups at the next 03:00 UTC, then every day. */
  private scheduleDailyBackups(): void {
    const now = new Date()
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DAILY_BACKUP_HOUR_UTC))
    if (next <= now) next.setUTCDate(next.getUTCDate() + 1)
    this.daily = setTimeout(() => {
      if (this.lock && !this.stopping) {
        void this.backUpActiveProjects().catch((error: unknown) => this.ctx.log.error({ err: error }, 'daily logical backups failed'))
      }
      this.scheduleDailyBackups()
    }, next.getTime() - now.getTime())
    this.daily.unref()
  }
}
