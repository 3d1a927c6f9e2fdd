import type { GitHubConnection } from '@stratum/contracts'
import pg from 'pg'
import type { SecretBox } from '../../control/secret-box.js'
import { invalidInput, conflict, upstreamFailed } from '../../errors.js'
import type { Queryable } from '../../store/db.js'
import { GitHubError, type GitHubClient } from './client.js'

/**
 * GitHub connections (table github_connections, migration 025): a project linked to one repository, reached with
 * a token the organization gave. The token is sealed with the data-dir key and never returned; only the
 * branching code opens it (migrations-source.ts) to read a branch's migrations.
 */
export interface GitHubConnectionRow {
  id: string
  organization_id: string
  project_ref: string
  project_id: string
  project_name: string
  /** owner/repo as GitHub spells it. */
  repository: string
  repository_id: string
  token_sealed: string
  /** The folder holding supabase/ ('.' = the repository's root). */
  workdir: string
  inserted_at: Date
  updated_at: Date
}

const SELECT_CONNECTION = `SELECT c.*, p.id AS project_id, p.name AS project_name
  FROM github_connections c JOIN projects p ON p.ref = c.project_ref`

export function toGitHubConnection(row: GitHubConnectionRow): GitHubConnection {
  return {
    id: Number(row.id),
    organization_id: Number(row.organization_id),
    inserted_at: row.inserted_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    repository: { id: Number(row.repository_id), name: row.repository },
    project: { id: Number(row.project_id), ref: row.project_ref, name: row.project_name },
    workdir: row.workdir,
  }
}

/** 'apps/web/' -> 'apps/web', '' or './' -> '.'; a folder outside the repository ('..', '/etc') is refused. */
export function normalizeWorkdir(workdir: string | undefined): string {
  const segments = (workdir ?? '').trim().replace(/\\/g, '/').split('/').filter((segment) => segment !== '' && segment !== '.')
  if ((workdir ?? '').trim().startsWith('/') || segments.some((segment) => segment === '..' || [...segment].some((char) => char.charCodeAt(0) < 32))) {
    throw invalidInput('Workdir must be a folder inside the repository, such as . or apps/web')
  }
  return segments.length ? segments.join('/') : '.'
}

export async function listConnections(db: Queryable, organizationId: number): Promise<GitHubConnectionRow[]> {
  const { rows } = await db.query<GitHubConnectionRow>(
    `${SELECT_CONNECTION} WHERE c.organization_id = $1 AND p.status <> 'REMOVED' ORDER BY c.inserted_at, c.id`,
    [organizationId],
  )
  return rows
}

export async function findConnection(db: Queryable, id: number): Promise<GitHubConnectionRow | null> {
  const { rows } = await db.query<GitHubConnectionRow>(`${SELECT_CONNECTION} WHERE c.id = $1`, [id])
  return rows[0] ?? null
}

/** The connection of a project (a branch's parent, when it makes a branch from a Git branch), or null. */
export async function findConnectionForProject(db: Queryable, projectRef: string): Promise<GitHubConnectionRow | null> {
  const { rows } = await db.query<GitHubConnectionRow>(`${SELECT_CONNECTION} WHERE c.project_ref = $1`, [projectRef])
  return rows[0] ?? null
}

export interface NewConnection {
  organizationId: number
  projectRef: string
  repository: string
  token: string
  workdir?: string
}

/**
 * Connects a project to a repository. GitHub is asked first, with the token: a bad token or a repository it cannot
 * read is a 400 with GitHub's reason, and nothing is stored. A project has one connection (a second is a 409).
 */
export async function createConnection(db: Queryable, secrets: SecretBox, github: GitHubClient, input: NewConnection): Promise<GitHubConnectionRow> {
  const workdir = normalizeWorkdir(input.workdir)
  const existing = await findConnectionForProject(db, input.projectRef)
  if (existing) throw conflict(`Project ${input.projectRef} is already connected to ${existing.repository}: remove that connection first`)
  let repository
  try {
    repository = await github.getRepository(input.repository, input.token)
  } catch (error) {
    // GitHub down or unreachable is not the caller's mistake: a 502; anything GitHub refused is a 400 with its reason.
    if (error instanceof GitHubError) throw error.status === 0 || error.status >= 500 ? upstreamFailed(error.message) : invalidInput(error.message)
    throw error
  }
  try {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO github_connections (organization_id, project_ref, repository, repository_id, token_sealed, workdir)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [input.organizationId, input.projectRef, repository.full_name, repository.id, secrets.seal(input.token), workdir],
    )
    return (await findConnection(db, Number(rows[0]!.id)))!
  } catch (error) {
    // Two connects of one project at once: the second meets the unique project_ref.
    if (error instanceof pg.DatabaseError && error.code === '23505') throw conflict(`Project ${input.projectRef} is already connected to a repository`)
    throw error
  }
}

export async function deleteConnection(db: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM github_connections WHERE id = $1', [id])
  return (rowCount ?? 0) > 0
}
