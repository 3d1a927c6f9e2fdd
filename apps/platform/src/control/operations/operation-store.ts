import type { Queryable } from '../../store/db.js'

export type OperationKind =
  | 'pause' | 'restore' | 'restart' | 'resize' | 'upgrade' | 'jwt_secret_rotation' | 'logical_backup'
  | 'branch_create' | 'branch_reset' | 'pitr_restore' | 'pitr_base_backup'

/** Operations of one lane run one at a time per project: the instance's, or the JWT secret's. */
export type OperationLane = 'instance' | 'keys'

export interface OperationRow {
  id: string
  project_ref: string
  kind: OperationKind
  lane: OperationLane
  status: 'running' | 'succeeded' | 'failed' | 'cancelled'
  /** The last step that completed. */
  step: string | null
  /** The step running right now; null between steps. */
  current_step: string | null
  params: Record<string, unknown>
  error: string | null
  previous_status: string | null
  cancel_requested_at: Date | null
  started_at: Date | null
  initiated_by: string | null
  initiated_at: Date
  updated_at: Date
  finished_at: Date | null
}

/**
 * Records a new operation (queued: status running, not started); null when the project already
 * has one running in the same lane. `id` is the caller's own when it has one (a JWT secret
 * update's change_tracking_id); reusing an id fails with the primary key's unique violation.
 */
export async function insertOperation(
  db: Queryable,
  input: { id?: string; ref: string; kind: OperationKind; lane: OperationLane; params: Record<string, unknown>; initiatedBy: string | null },
): Promise<OperationRow | null> {
  const { rows } = await db.query<OperationRow>(
    `INSERT INTO operations (id, project_ref, kind, lane, params, initiated_by, previous_status)
     VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, (SELECT status FROM projects WHERE ref = $2))
     ON CONFLICT (project_ref, lane) WHERE status = 'running' DO NOTHING RETURNING *`,
    [input.id ?? null, input.ref, input.kind, input.lane, JSON.stringify(input.params), input.initiatedBy],
  )
  return rows[0] ?? null
}

export async function findOperation(db: Queryable, id: string): Promise<OperationRow | null> {
  const { rows } = await db.query<OperationRow>('SELECT * FROM operations WHERE id = $1', [id])
  return rows[0] ?? null
}

/** The operation, its row locked until the caller's transaction ends. */
export async function lockOperation(tx: Queryable, id: string): Promise<OperationRow | null> {
  const { rows } = await tx.query<OperationRow>('SELECT * FROM operations WHERE id = $1 FOR UPDATE', [id])
  return rows[0] ?? null
}

export async function runningOperations(db: Queryable): Promise<OperationRow[]> {
  const { rows } = await db.query<OperationRow>(`SELECT * FROM operations WHERE status = 'running' ORDER BY initiated_at`)
  return rows
}

export async function latestOperation(db: Queryable, ref: string, kind: OperationKind): Promise<OperationRow | null> {
  const { rows } = await db.query<OperationRow>(
    'SELECT * FROM operations WHERE project_ref = $1 AND kind = $2 ORDER BY initiated_at DESC, id LIMIT 1',
    [ref, kind],
  )
  return rows[0] ?? null
}

/** A project's operations, newest first. */
export async function recentOperations(db: Queryable, ref: string, limit: number): Promise<OperationRow[]> {
  const { rows } = await db.query<OperationRow>(
    'SELECT * FROM operations WHERE project_ref = $1 ORDER BY initiated_at DESC, id LIMIT $2',
    [ref, limit],
  )
  return rows
}

/** The runner takes the operation up: from here on its steps may run. */
export async function markStarted(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE operations SET started_at = COALESCE(started_at, now()), updated_at = now() WHERE id = $1', [id])
}

/**
 * Claims the next step: false when a cancel came first (or the operation ended). The row lock
 * orders this against requestCancel(): whichever commits first wins.
 */
export async function beginStep(db: Queryable, id: string, step: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE operations SET current_step = $2, updated_at = now()
     WHERE id = $1 AND status = 'running' AND cancel_requested_at IS NULL`,
    [id, step],
  )
  return rowCount === 1
}

export async function recordStep(db: Queryable, id: string, step: string | null, params?: Record<string, unknown>): Promise<void> {
  await db.query(
    `UPDATE operations SET step = $2, current_step = NULL, params = COALESCE($3::jsonb, params), updated_at = now() WHERE id = $1`,
    [id, step, params ? JSON.stringify(params) : null],
  )
}

/** Marks a running operation to be cancelled at its next step boundary; the row after it. */
export async function requestCancel(db: Queryable, id: string): Promise<OperationRow | null> {
  const { rows } = await db.query<OperationRow>(
    `UPDATE operations SET cancel_requested_at = COALESCE(cancel_requested_at, now()), updated_at = now()
     WHERE id = $1 AND status = 'running' RETURNING *`,
    [id],
  )
  return rows[0] ?? null
}

export async function finishOperation(
  db: Queryable,
  id: string,
  outcome: 'succeeded' | 'failed' | 'cancelled',
  error: string | null = null,
): Promise<void> {
  await db.query(
    `UPDATE operations SET status = $2, error = $3, current_step = NULL, finished_at = now(), updated_at = now() WHERE id = $1`,
    [id, outcome, error],
  )
}
