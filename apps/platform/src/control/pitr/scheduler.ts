import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../store/db.js'
import { OperationConflictError, type OperationRunner } from '../operations/runner.js'

/** How often projects with the PITR add-on are checked for a due base backup. */
const CHECK_MS = 5_000
/** A new base backup each day: a restore replays at most a day of WAL. */
const BASE_BACKUP_EVERY = '1 day'
/** A base backup that failed (archiving not on yet) is tried again after this. */
const RETRY_AFTER = '1 minute'

/**
 * Requests a base backup (the pitr_base_backup job) for each running project with the PITR add-on whose
 * newest one is a day old, or that has none yet (the add-on was just turned on: its restart turned WAL
 * archiving on). The job itself runs on the operation runner like every other.
 */
export class PitrScheduler {
  private timer: NodeJS.Timeout | undefined
  private checking = false

  constructor(
    private readonly db: Db,
    private readonly operations: OperationRunner,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.check(), CHECK_MS)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  async check(): Promise<void> {
    if (this.checking) return
    this.checking = true
    try {
      const { rows } = await this.db.query<{ ref: string }>(
        `SELECT p.ref FROM projects p
         WHERE p.pitr_variant IS NOT NULL AND p.status = 'ACTIVE_HEALTHY'
           AND NOT EXISTS (SELECT 1 FROM pitr_base_backups b WHERE b.project_ref = p.ref AND b.consistent_at > now() - $1::interval)
           AND NOT EXISTS (SELECT 1 FROM operations o WHERE o.project_ref = p.ref AND o.lane = 'instance'
                             AND (o.status = 'running' OR (o.kind = 'pitr_base_backup' AND o.status = 'failed' AND o.finished_at > now() - $2::interval)))`,
        [BASE_BACKUP_EVERY, RETRY_AFTER],
      )
      for (const { ref } of rows) {
        await this.operations.request(ref, 'pitr_base_backup', {}, null).catch((error) => {
          if (!(error instanceof OperationConflictError)) this.log.error({ err: error, ref }, 'base backup not requested')
        })
      }
    } catch (error) {
      this.log.error({ err: error }, 'PITR base backup check failed')
    } finally {
      this.checking = false
    }
  }
}
