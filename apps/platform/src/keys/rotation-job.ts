import type { OperationDefinition } from '../control/operations/operation.js'
import { inTransaction, type Queryable } from '../store/db.js'
import { signKeys, verifyKey } from './project-keys.js'

interface PendingUpdate {
  new_secret_sealed: string | null
  new_anon_key: string | null
  new_service_role_key_sealed: string | null
}

/**
 * A JWT secret update as an operation of the runner (the 'keys' lane: one update at a time per
 * project, beside whatever runs on its instance). The new secret waits, sealed, in
 * jwt_secret_updates (rotation.ts puts it there with the operation). Steps:
 *   1. sign-keys: sign the anon and service_role keys with the new secret, kept beside it, not live;
 *   2. update-keys: in one transaction, make the new secret and keys the project's.
 * Until step 2 commits, the old secret and keys stay in use, so a failure or a cancel leaves them
 * as they were. Both steps are idempotent: 1 signs again, 2 does nothing once the update's
 * secret has been taken (it is cleared in the same transaction).
 */
export const jwtSecretRotation: OperationDefinition = {
  lane: 'keys',
  steps: [
    {
      name: 'sign-keys',
      async run(ctx, project, op) {
        const { rows } = await ctx.db.query<PendingUpdate>('SELECT new_secret_sealed FROM jwt_secret_updates WHERE id = $1', [op.id])
        const sealed = rows[0]?.new_secret_sealed
        if (!sealed) throw new Error('The new secret of this update is gone')
        const secret = ctx.secrets.open(sealed)
        const keys = await signKeys(secret, project.ref)
        await verifyKey(secret, keys.anon, project.ref, 'anon')
        await verifyKey(secret, keys.serviceRole, project.ref, 'service_role')
        await ctx.db.query(
          'UPDATE jwt_secret_updates SET new_anon_key = $2, new_service_role_key_sealed = $3 WHERE id = $1',
          [op.id, keys.anon, ctx.secrets.seal(keys.serviceRole)],
        )
      },
    },
    {
      name: 'update-keys',
      async run(ctx, project, op) {
        await inTransaction(ctx.db, async (tx) => {
          const { rows } = await tx.query<PendingUpdate>('SELECT * FROM jwt_secret_updates WHERE id = $1 FOR UPDATE', [op.id])
          const update = rows[0]
          if (!update?.new_secret_sealed) return // taken by an earlier run of this step
          if (!update.new_anon_key || !update.new_service_role_key_sealed) throw new Error('The new keys were not signed')
          await tx.query(
            `UPDATE project_api_keys SET jwt_secret_sealed = $2, anon_key = $3, service_role_key_sealed = $4, updated_at = now()
             WHERE project_ref = $1`,
            [project.ref, update.new_secret_sealed, update.new_anon_key, update.new_service_role_key_sealed],
          )
          await clearPending(tx, op.id)
        })
        ctx.log.info({ ref: project.ref, update: op.id }, 'JWT secret updated')
      },
    },
  ],
  // Once the keys are live there is nothing left to cancel.
  cancellableUntil: 'update-keys',
  // The old secret and keys were never touched: only the update's own secret is forgotten.
  async rollBack(ctx, _project, op) {
    await clearPending(ctx.db, op.id)
    return null
  },
}

async function clearPending(db: Queryable, id: string): Promise<void> {
  await db.query(
    'UPDATE jwt_secret_updates SET new_secret_sealed = NULL, new_anon_key = NULL, new_service_role_key_sealed = NULL WHERE id = $1',
    [id],
  )
}
