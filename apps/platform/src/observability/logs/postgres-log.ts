import type { LogLine } from './store.js'

/** Fields of Postgres' jsonlog (PG 15+) this store keeps, under the names Supabase's postgres_logs use. */
interface JsonLogRecord {
  timestamp?: string
  user?: string
  dbname?: string
  pid?: number
  remote_host?: string
  session_id?: string
  error_severity?: string
  state_code?: string
  message?: string
  detail?: string
  hint?: string
  context?: string
  statement?: string
  application_name?: string
  backend_type?: string
  query_id?: number
}

/** One jsonlog line as a postgres_logs line; null for a line that is not a JSON object (never expected). */
export function postgresLogLine(text: string, projectRef: string): LogLine | null {
  let record: JsonLogRecord
  try {
    record = JSON.parse(text) as JsonLogRecord
  } catch {
    return null
  }
  if (!record || typeof record !== 'object' || !record.timestamp) return null
  const parsed: Record<string, unknown> = {
    error_severity: record.error_severity ?? null,
    user_name: record.user ?? null,
    database_name: record.dbname ?? null,
    process_id: record.pid ?? null,
    session_id: record.session_id ?? null,
    sql_state_code: record.state_code ?? null,
    detail: record.detail ?? null,
    hint: record.hint ?? null,
    context: record.context ?? null,
    query: record.statement ?? null,
    application_name: record.application_name ?? null,
    backend_type: record.backend_type ?? null,
    connection_from: record.remote_host ?? null,
    query_id: record.query_id ?? null,
  }
  return {
    source: 'postgres_logs',
    timestamp: record.timestamp,
    eventMessage: record.message ?? '',
    metadata: { identifier: projectRef, host: `db-${projectRef}`, parsed },
  }
}
