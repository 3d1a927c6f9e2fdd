import type { Branch, BranchStatus, ProjectStatus } from '@stratum/contracts'
import type { Queryable } from '../../store/db.js'

/** A row of `branches` (migration 025), with its project's status. */
export interface BranchRow {
  id: string
  parent_project_ref: string
  project_ref: string
  name: string
  git_branch: string | null
  is_default: boolean
  persistent: boolean
  with_data: boolean
  status: BranchStatus
  error_message: string | null
  recovery_time_target: Date | null
  created_at: Date
  updated_at: Date
  project_status: ProjectStatus
}

const SELECT_BRANCH = `SELECT b.*, p.status AS project_status FROM branches b JOIN projects p ON p.ref = b.project_ref`

export function toBranch(row: BranchRow): Branch {
  return {
    id: row.id,
    name: row.name,
    project_ref: row.project_ref,
    parent_project_ref: row.parent_project_ref,
    is_default: row.is_default,
    ...(row.git_branch ? { git_branch: row.git_branch } : {}),
    persistent: row.persistent,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    with_data: row.with_data,
    preview_project_status: row.project_status,
    ...(row.error_message ? { error_message: row.error_message } : {}),
    ...(row.recovery_time_target ? { recovery_time_target: row.recovery_time_target.toISOString() } : {}),
  }
}

/** The project's branches, its production branch first; empty when branching is not enabled. */
export async function listBranches(db: Queryable, parentRef: string): Promise<BranchRow[]> {
  const { rows } = await db.query<BranchRow>(`${SELECT_BRANCH} WHERE b.parent_project_ref = $1 ORDER BY b.is_default DESC, b.created_at`, [parentRef])
  return rows
}

export async function findBranchByName(db: Queryable, parentRef: string, name: string): Promise<BranchRow | null> {
  const { rows } = await db.query<BranchRow>(`${SELECT_BRANCH} WHERE b.parent_project_ref = $1 AND b.name = $2`, [parentRef, name])
  return rows[0] ?? null
}

/** By the branch's id or its project's ref (the Management API takes either). */
export async function findBranch(db: Queryable, idOrRef: string): Promise<BranchRow | null> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrRef)
  // A production branch shares its project's ref with the project: a ref names the preview branch first.
  const { rows } = await db.query<BranchRow>(
    `${SELECT_BRANCH} WHERE ${isUuid ? 'b.id = $1::uuid' : 'b.project_ref = $1'} ORDER BY b.is_default LIMIT 1`,
    [idOrRef],
  )
  return rows[0] ?? null
}

/** The preview branch whose project is `ref` (null for the production branch and plain projects). */
export async function findPreviewBranchOfProject(db: Queryable, ref: string): Promise<BranchRow | null> {
  const { rows } = await db.query<BranchRow>(`${SELECT_BRANCH} WHERE b.project_ref = $1 AND NOT b.is_default`, [ref])
  return rows[0] ?? null
}

export async function setBranchStatus(db: Queryable, id: string, status: BranchStatus, errorMessage: string | null = null): Promise<void> {
  await db.query('UPDATE branches SET status = $2, error_message = $3, updated_at = now() WHERE id = $1', [id, status, errorMessage])
}
