import { SQL_HISTORY_RETENTION, type SqlHistoryEntry, type SqlHistoryParameter, type SqlHistoryPage, type SqlHistoryQuery } from '@stratum/contracts'
import type { Db } from '../store/db.js'

/** One run through the SQL editor's route, as the member's query history keeps it. */
export interface RecordedRun {
  projectRef: string
  userId: string
  query: string
  durationMs: number
  rowCount: number | null
  error?: string
  /** The named parameters' values, when `query` is the text as written. */
  parameters?: SqlHistoryParameter[] | null
}

/**
 * Records a run, then deletes the member's runs on the project past the newest `retention`, so the
 * history stays bounded without a sweeper.
 */
export async function recordRun(db: Db, run: RecordedRun, retention = SQL_HISTORY_RETENTION): Promise<void> {
  await db.query(
    `INSERT INTO query_history (project_ref, user_id, query, duration_ms, row_count, status, error_message, parameters) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [run.projectRef, run.userId, run.query, Math.round(run.durationMs), run.rowCount, run.error === undefined ? 'ok' : 'error', run.error ?? null, run.parameters ? JSON.stringify(run.parameters) : null],
  )
  await db.query(
    `DELETE FROM query_history WHERE project_ref = $1 AND user_id = $2 AND id < (
       SELECT id FROM query_history WHERE project_ref = $1 AND user_id = $2 ORDER BY id DESC OFFSET $3 LIMIT 1)`,
    [run.projectRef, run.userId, retention - 1],
  )
}

interface HistoryRow {
  id: string
  query: string
  ran_at: Date
  duration_ms: number
  row_count: string | null
  status: 'ok' | 'error'
  error_message: string | null
  parameters: SqlHistoryParameter[] | null
}

/** LIKE's wildcards in a search term are matched as themselves. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/** A page of the member's own runs on the project, newest first; `search` matches the query text, case-insensitive. */
export async function listRuns(db: Db, projectRef: string, userId: string, page: SqlHistoryQuery): Promise<SqlHistoryPage> {
  const search = page.search?.trim() ? `%${likeEscaped(page.search.trim())}%` : null
  // The id is sent as text (bigint); the order is the column's, not the text alias's ("9" > "18").
  const { rows } = await db.query<HistoryRow>(
    `SELECT id::text AS id, query, ran_at, duration_ms, row_count::text AS row_count, status, error_message, parameters
     FROM query_history
     WHERE project_ref = $1 AND user_id = $2 AND ($3::text IS NULL OR query ILIKE $3) AND ($4::bigint IS NULL OR id < $4)
     ORDER BY query_history.id DESC LIMIT $5`,
    [projectRef, userId, search, page.cursor ?? null, page.limit + 1],
  )
  const entries: SqlHistoryEntry[] = rows.slice(0, page.limit).map((row) => ({
    id: row.id,
    query: row.query,
    ran_at: row.ran_at.toISOString(),
    duration_ms: row.duration_ms,
    row_count: row.row_count === null ? null : Number(row.row_count),
    status: row.status,
    error_message: row.error_message,
    parameters: row.parameters,
  }))
  return { entries, next_cursor: rows.length > page.limit ? (entries.at(-1)?.id ?? null) : null }
}
