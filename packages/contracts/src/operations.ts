import { z } from 'zod'
import { RefParams } from './common.js'

/**
 * Every long operation of a project runs on the platform's one job runner, and each one's
 * progress reads the same way: GET /platform/projects/{ref}/operations[/{id}].
 */
export const OPERATION_KINDS = ['pause', 'restore', 'restart', 'resize', 'upgrade', 'jwt_secret_rotation', 'logical_backup', 'branch_create', 'branch_reset', 'pitr_restore', 'pitr_base_backup'] as const
export type OperationKindName = (typeof OPERATION_KINDS)[number]

/**
 * queued: accepted, not taken up yet; running; cancelling: a cancel was accepted and takes effect
 * at the next step boundary; then one of succeeded, failed, cancelled.
 */
export const OPERATION_STATUSES = ['queued', 'running', 'cancelling', 'succeeded', 'failed', 'cancelled'] as const
export type OperationStatusName = (typeof OPERATION_STATUSES)[number]

export const OperationProgress = z.object({
  id: z.string(),
  kind: z.enum(OPERATION_KINDS),
  status: z.enum(OPERATION_STATUSES),
  /** The step running now, or the next one to run; null once the operation has ended. */
  current_step: z.string().nullable(),
  steps_done: z.number().int(),
  steps_total: z.number().int(),
  /** Why it failed ('<step>: <message>') or that it was cancelled; null otherwise. */
  error: z.string().nullable(),
  /** Whether POST .../cancel would be accepted now. */
  cancellable: z.boolean(),
  /**
   * What the operation moves the project to, as it recorded it when accepted (a resize's compute size, an
   * upgrade's major): screens name the target from here, since the project keeps its old values until a step applies them.
   */
  target: z.object({ compute_size: z.string().optional(), postgres_major: z.string().optional() }).nullable(),
  initiated_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
})
export type OperationProgress = z.infer<typeof OperationProgress>

export const OperationList = z.object({ operations: z.array(OperationProgress) })
export type OperationList = z.infer<typeof OperationList>

export const OperationParams = RefParams.extend({
  id: z.uuid({ error: 'The operation id must be a UUID' }),
})
