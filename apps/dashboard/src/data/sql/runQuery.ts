import { SQL_STREAM_MEDIA_TYPE, WRITE_CONNECTION_REQUIRED, type SqlError, type SqlHistoryParameter, type SqlQueryResponse } from '@stratum/contracts'
import { apiFetch } from '../api'
import { routeUrl, type RouteOptions } from '../request'
import { readQueryStream, type PartialResults } from './readQueryStream'

export interface RunQueryVariables {
  ref: string
  query: string
  readOnly: boolean
  /** The editor's row limit option; -1 means none. */
  rowLimit?: number
  /** The run's statement timeout (ms); the server's default when absent. */
  statementTimeoutMs?: number
  signal?: AbortSignal
  /** Whether the run goes in the member's query history (the SQL editor's runs); other reads (the table editor's) do not. */
  history?: boolean
  /** The text as written and its parameters' values, for the history, when `query` has the values filled in. */
  written?: { sql: string; parameters: SqlHistoryParameter[] } | undefined
  /** Asks for the rows as they arrive (a streamed answer) and reports them as they come. */
  onProgress?: (partial: PartialResults) => void
}

/** What a run came to: results, an SQL error with its position, or a refusal on the read-only connection. */
export type RunQueryOutcome =
  | { kind: 'ok'; response: SqlQueryResponse }
  | { kind: 'sql-error'; response: SqlQueryResponse | undefined; message: string; error: SqlError | undefined }
  | { kind: 'write-required'; response: SqlQueryResponse; message: string; error: SqlError; canRunWithFullConnection: boolean }

type ErrorBody = Partial<SqlQueryResponse> & {
  message?: string
  code?: string
  can_run_with_full_connection?: boolean
  error?: SqlError
}

/**
 * POST /platform/pg-meta/{ref}/query. Unlike api(), an answer with an SQL error is not thrown:
 * the editor needs its position, statement and partial results. Network failures and other
 * refusals (permissions, a project that is not ready) are thrown as Errors with the server's text.
 */
export async function runQuery({ ref, query, readOnly, rowLimit, statementTimeoutMs, history, written, signal, onProgress }: RunQueryVariables): Promise<RunQueryOutcome> {
  const response = await apiFetch(routeUrl('POST /platform/pg-meta/{ref}/query', { params: { ref } }), {
    method: 'POST',
    headers: { Accept: onProgress ? `${SQL_STREAM_MEDIA_TYPE}, application/json` : 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({
      query,
      read_only: readOnly,
      history: history === true,
      ...(history === true && written ? { history_query: written.sql, history_parameters: written.parameters } : {}),
      ...(rowLimit !== undefined && rowLimit > 0 ? { row_limit: rowLimit } : {}),
      ...(statementTimeoutMs !== undefined ? { statement_timeout_ms: statementTimeoutMs } : {}),
    } satisfies RouteOptions<'POST /platform/pg-meta/{ref}/query'>['body']),
    signal,
  })
  let status = response.status
  let body: ErrorBody
  if (onProgress && response.body && (response.headers.get('content-type') ?? '').startsWith(SQL_STREAM_MEDIA_TYPE)) {
    // Streamed: the end frame carries the status and body the plain answer would have had.
    const streamed = await readQueryStream(response.body, onProgress)
    status = streamed.status
    body = streamed.body as ErrorBody
  } else body = (await response.json().catch(() => ({}))) as ErrorBody
  if (status >= 200 && status < 300) return { kind: 'ok', response: body as SqlQueryResponse }
  const message = body.message ?? `Request failed with status ${status}`
  if (status === 403 && body.code === WRITE_CONNECTION_REQUIRED && body.error) {
    return {
      kind: 'write-required',
      response: body as SqlQueryResponse,
      message,
      error: body.error,
      canRunWithFullConnection: body.can_run_with_full_connection === true,
    }
  }
  if (status === 400 && body.error) return { kind: 'sql-error', response: body as SqlQueryResponse, message: body.error.message, error: body.error }
  return { kind: 'sql-error', response: undefined, message, error: undefined }
}
