import { randomUUID } from 'node:crypto'
import { JWT_SECRET_UPDATE_PROGRESS, JWT_SECRET_UPDATE_STATUS, type JwtSecretUpdateStatus, type JwtSecretUpdateStatusName } from '@stratum/contracts'
import type { FastifyBaseLogger } from 'fastify'
import type { SecretBox } from '../control/secret-box.js'
import { inTransaction, type Db, type Queryable } from '../store/db.js'
import { ensureProjectKeys, newJwtSecret, signKeys, verifyKey } from './project-keys.js'

export interface RotationContext {
  db: Db
  secrets: SecretBox
  log: FastifyBaseLogger
  /** Pause before each step: only for tests that look at (or interrupt) an update half-way. */
  stepDelayMs?: number
}

export interface JwtSecretUpdateRow {
  id: string
  project_ref: string
  status: JwtSecretUpdateStatusName
  progress: number
  new_secret_sealed: string | null
  new_anon_key: string | null
  new_service_role_key_sealed: string | null
  error: string | null
  initiated_at: Date
  finished_at: Date | null
}

export class RotationConflictError extends Error {}

const { SignedApiKeys, UpdatedApiKeys } = JWT_SECRET_UPDATE_PROGRESS

export function toUpdateStatus(row: JwtSecretUpdateRow | null): JwtSecretUpdateStatus {
  if (!row) return { update_status: null }
  return {
    update_status: {
      change_tracking_id: row.id,
      error: row.error,
      progress: row.progress,
      status: JWT_SECRET_UPDATE_STATUS[row.status],
    },
  }
}

export async function latestUpdate(db: Queryable, ref: string): Promise<JwtSecretUpdateRow | null> {
  const { rows } = await db.query<JwtSecretUpdateRow>(
    'SELECT * FROM jwt_secret_updates WHERE project_ref = $1 ORDER BY initiated_at DESC, id LIMIT 1',
    [ref],
  )
  return rows[0] ?? null
}

async function findUpdate(db: Queryable, id: string): Promise<JwtSecretUpdateRow | null> {
  const { rows } = await db.query<JwtSecretUpdateRow>('SELECT * FROM jwt_secret_updates WHERE id = $1', [id])
  return rows[0] ?? null
}

/**
 * JWT secret updates as small durable jobs: the jwt_secret_updates row is the job. Steps:
 *   1. sign the anon and service_role keys with the new secret (kept beside the update, not live);
 *   2. in one transaction, make the new secret and keys the project's and mark the update Updated.
 * Until step 2 commits the old secret and keys stay in use, so a failure (Failed, with its error)
 * leaves them as they were. An update interrupted by a shutdown or a crash is resumed by
 * resume() at the next boot: step 1 is idempotent, step 2 is atomic.
 *
 * Not an OperationRunner operation: those set the project status (RESTARTING...) and hold the
 * project's one-operation-at-a-time slot, and adding a kind means editing the runner's files.
 */
export class JwtSecretRotations {
  private stopping = false
  private readonly active = new Map<string, Promise<void>>()

  constructor(private readonly ctx: RotationContext) {}

  /** Accepts an update: records it as Updating (with its sealed new secret) and runs it. */
  async request(ref: string, input: { jwtSecret?: string; changeTrackingId?: string }, userId: string | null): Promise<JwtSecretUpdateRow> {
    const { db, secrets } = this.ctx
    // The secret being replaced must exist: it is what a failed update keeps.
    await ensureProjectKeys(db, secrets, ref)
    const id = input.changeTrackingId ?? randomUUID()
    try {
      const { rows } = await db.query<JwtSecretUpdateRow>(
        `INSERT INTO jwt_secret_updates (id, project_ref, new_secret_sealed, initiated_by) VALUES ($1, $2, $3, $4) RETURNING *`,
        [id, ref, secrets.seal(input.jwtSecret ?? newJwtSecret()), userId],
      )
      this.launch(rows[0]!.id)
      return rows[0]!
    } catch (error) {
      const pgError = error as { code?: string; constraint?: string }
      if (pgError.code === '23505' && pgError.constraint === 'jwt_secret_updates_one_running') {
        throw new RotationConflictError('A JWT secret update is already in progress for this project')
      }
      if (pgError.code === '23505') throw new RotationConflictError('This change_tracking_id was already used')
      throw error
    }
  }

  /** Boot: picks up every update left Updating by the previous run. Returns how many. */
  async resume(): Promise<number> {
    const { rows } = await this.ctx.db.query<{ id: string }>(`SELECT id FROM jwt_secret_updates WHERE status = 'Updating'`)
    for (const { id } of rows) this.launch(id)
    if (rows.length) this.ctx.log.info({ count: rows.length }, 'resuming JWT secret updates')
    return rows.length
  }

  /** Resolves when the updates running in this process have ended (or stopped): for tests. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.active.values()])
  }

  /** Finishes the current step of each update and leaves the rest for the next boot. */
  async stop(): Promise<void> {
    this.stopping = true
    await this.settled()
  }

  private launch(id: string): void {
    if (this.active.has(id) || this.stopping) return
    const run = this.execute(id)
      .catch((error: unknown) => this.ctx.log.error({ err: error, update: id }, 'JWT secret update could not be recorded'))
      .finally(() => this.active.delete(id))
    this.active.set(id, run)
  }

  private async execute(id: string): Promise<void> {
    const { db, secrets } = this.ctx
    for (;;) {
      if (this.ctx.stepDelayMs) await new Promise((resolve) => setTimeout(resolve, this.ctx.stepDelayMs))
      if (this.stopping) return
      const update = await findUpdate(db, id)
      if (!update || update.status !== 'Updating') return
      const step = update.progress < SignedApiKeys ? 'sign-keys' : 'update-keys'
      try {
        if (step === 'sign-keys') {
          const secret = secrets.open(update.new_secret_sealed!)
          const keys = await signKeys(secret, update.project_ref)
          await verifyKey(secret, keys.anon, update.project_ref, 'anon')
          await verifyKey(secret, keys.serviceRole, update.project_ref, 'service_role')
          await db.query(
            `UPDATE jwt_secret_updates SET new_anon_key = $2, new_service_role_key_sealed = $3, progress = $4, updated_at = now()
             WHERE id = $1 AND status = 'Updating'`,
            [id, keys.anon, secrets.seal(keys.serviceRole), SignedApiKeys],
          )
        } else {
          await inTransaction(db, async (tx) => {
            const { rows } = await tx.query<JwtSecretUpdateRow>(
              `UPDATE jwt_secret_updates u SET status = 'Updated', progress = $2, updated_at = now(), finished_at = now(),
                 new_secret_sealed = NULL, new_anon_key = NULL, new_service_role_key_sealed = NULL
               FROM jwt_secret_updates old WHERE u.id = $1 AND old.id = u.id AND u.status = 'Updating'
               RETURNING old.*`,
              [id, UpdatedApiKeys],
            )
            const done = rows[0]
            if (!done) return
            await tx.query(
              `UPDATE project_api_keys SET jwt_secret_sealed = $2, anon_key = $3, service_role_key_sealed = $4, updated_at = now()
               WHERE project_ref = $1`,
              [done.project_ref, done.new_secret_sealed, done.new_anon_key, done.new_service_role_key_sealed],
            )
          })
          this.ctx.log.info({ ref: update.project_ref, update: id }, 'JWT secret updated')
        }
      } catch (error) {
        // Interrupted by a shutdown: the update resumes at the next boot.
        if (this.stopping) return
        const reason = `${step}: ${(error as Error).message}`
        this.ctx.log.error({ err: error, ref: update.project_ref, update: id }, 'JWT secret update failed; the old secret is kept')
        await db.query(
          `UPDATE jwt_secret_updates SET status = 'Failed', error = $2, updated_at = now(), finished_at = now(),
             new_secret_sealed = NULL, new_anon_key = NULL, new_service_role_key_sealed = NULL
           WHERE id = $1 AND status = 'Updating'`,
          [id, reason],
        )
        return
      }
    }
  }
}

const registry = new WeakMap<object, JwtSecretRotations>()

/** The rotations of one platform (keyed by its context), created on first use. */
export function rotationsFor(owner: object, ctx: RotationContext): JwtSecretRotations {
  let rotations = registry.get(owner)
  if (!rotations) registry.set(owner, (rotations = new JwtSecretRotations(ctx)))
  return rotations
}
