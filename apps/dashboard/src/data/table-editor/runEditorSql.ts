import type { SqlStatementResult } from '@stratum/contracts'
import { runBackgroundQuery } from '../sql/backgroundQueries'

/** A failed statement with Postgres's own message, and its DETAIL and HINT when it gave them. */
export class EditorSqlError extends Error {
  override name = 'EditorSqlError'
  constructor(
    message: string,
    readonly detail?: string,
    readonly hint?: string,
  ) {
    super(message)
  }
}

/**
 * Runs table-editor SQL through the SQL editor's route, one request at a time per project: reads on the
 * read-only connection, writes on the full one (which the server refuses to a member without sql.write).
 * Throws EditorSqlError.
 */
export async function runEditorSql(ref: string, sql: string, options: { write: boolean; signal?: AbortSignal }): Promise<SqlStatementResult[]> {
  const outcome = await runBackgroundQuery({ ref, query: sql, readOnly: !options.write, signal: options.signal })
  if (outcome.kind === 'ok') return outcome.response.results
  const error = outcome.error
  throw new EditorSqlError(error?.message ?? outcome.message, error?.detail, error?.hint)
}

/** The `data` json column of a catalog read's single row (packages/sql table-editor/catalog.ts). */
export async function readCatalog<T>(ref: string, sql: string, signal?: AbortSignal): Promise<T> {
  const results = await runEditorSql(ref, sql, { write: false, signal })
  return results[0]?.rows[0]?.data as T
}
