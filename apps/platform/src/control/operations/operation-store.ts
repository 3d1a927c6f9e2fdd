import type { Queryable } from '../../store/db.js'

export type OperationKind = 'pause' | 'restore' | 'restart' | 'resize' | 'upgrade'

export interface OperationRow {
  id: string
  project_ref: string
  kind: OperationKind
  status: 'running' | 'succeeded' | 'failed'
  step: string | null
  params: Record<string, unknown>
  error: string | null
  initiated_by: string | null
  initiated_at: Date
  updated_at: Date
  finished_at: Date | null
}

/** Records a new running operation; null when the project already has one running. */
export async function insertOperation(
  db: Queryable,
  ref: string,
  kind: OperationKind,
  params: Record<string, unknown>,
  initiatedBy: string | null,
): Promise<OperationRow | null> {
  const { rows } = await db.query<OperationRow>(
    `INSERT INTO operations (project_ref, kind, params, initiated_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_ref) WHERE status = 'running' DO NOTHING RETURNING *`,
    [ref, kind, JSON.stringify(params), initiatedBy],
  )
  return rows[0] ?? null
}

export async function findOperation(db: Queryable, id: string): Promise<OperationRow | null> {
  const { rows } = await db.query<OperationRow>('SELECT * FROM operations WHERE id = $1', [id])
  return rows[0] ?? null
}

export async function runningOperations(db: Queryable): Promise<OperationRow[]> {
  const { rows } = await db.query<OperationRow>(`SELECT * FROM operations WHERE status = 'running' ORDER BY initiated_at`)
  return rows
}

export async function latestOperation(db: Queryable, ref: string, kind: OperationKind): Promise<OperationRow | null> {
  const { rows } = await db.query<OperationRow>(
    'SELECT * FROM operations WHERE project_ref = $1 AND kind = $2 ORDER BY initiated_at DESC LIMIT 1',
    [ref, kind],
  )
  return rows[0] ?? null
}

export async function recordStep(db: Queryable, id: string, step: string | null, params?: Record<string, unknown>): Promise<void> {
  await db.query(
    `UPDATE operations SET step = $2, params = COALESCE($3::jsonb, params), updated_at = now() WHERE id = $1`,
    [id, step, params ? JSON.stringify(params) : null],
  )
}

export async function finishOperation(db: Queryable, id: string, outcome: 'succeeded' | 'failed', error: string | null = null): Promise<void> {
  await db.query(
    `UPDATE operations SET status = $2, error = $3, finished_at = now(), updated_at = now() WHERE id = $1`,
    [id, outcome, error],
  )
}
