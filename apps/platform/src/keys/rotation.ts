import { DomainError } from '../errors.js'
import { JWT_SECRET_UPDATE_STATUS, type JwtSecretUpdateStatus } from '@stratum/contracts'
import { latestOperation, type OperationRow } from '../control/operations/operation-store.js'
import { toOperationProgress } from '../control/operations/progress.js'
import { DuplicateOperationError, OperationConflictError, type OperationRunner } from '../control/operations/runner.js'
import type { SecretBox } from '../control/secret-box.js'
import type { Db, Queryable } from '../store/db.js'
import { ensureProjectKeys, newJwtSecret } from './project-keys.js'

/**
 * JWT secret updates, in the spec's words: an update is an operation of the platform's job runner
 * (its steps are in rotation-job.ts), whose id is the update's change_tracking_id. The runner
 * resumes an update interrupted by a shutdown or a crash at the next start.
 */

/** One update at a time per project, and a change_tracking_id only once: both answer 409. */
export class RotationConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message)
  }
}

/** The spec's update status, read off the operation: progress is its steps done (JWT_SECRET_UPDATE_PROGRESS). */
export function toUpdateStatus(op: OperationRow | null): JwtSecretUpdateStatus {
  if (!op) return { update_status: null }
  const status = op.status === 'running' ? 'Updating' : op.status === 'succeeded' ? 'Updated' : 'Failed'
  return {
    update_status: {
      change_tracking_id: op.id,
      error: op.error,
      progress: toOperationProgress(op).steps_done,
      status: JWT_SECRET_UPDATE_STATUS[status],
    },
  }
}

export function latestUpdate(db: Queryable, ref: string): Promise<OperationRow | null> {
  return latestOperation(db, ref, 'jwt_secret_rotation')
}

/** Accepts an update: records it as Updating, its new secret sealed beside it, and has the runner run it. */
export async function requestJwtSecretUpdate(
  ctx: { db: Db; secrets: SecretBox; operations: OperationRunner },
  ref: string,
  input: { jwtSecret?: string; changeTrackingId?: string },
  userId: string | null,
): Promise<OperationRow> {
  // The secret being replaced must exist: it is what a failed or cancelled update keeps.
  await ensureProjectKeys(ctx.db, ctx.secrets, ref)
  try {
    return await ctx.operations.request(ref, 'jwt_secret_rotation', {}, userId, {
      id: input.changeTrackingId,
      record: (tx, op) =>
        tx.query('INSERT INTO jwt_secret_updates (id, project_ref, new_secret_sealed) VALUES ($1, $2, $3)', [
          op.id,
          ref,
          ctx.secrets.seal(input.jwtSecret ?? newJwtSecret()),
        ]),
    })
  } catch (error) {
    if (error instanceof OperationConflictError) throw new RotationConflictError('A JWT secret update is already in progress for this project')
    if (error instanceof DuplicateOperationError) throw new RotationConflictError('This change_tracking_id was already used')
    throw error
  }
}
