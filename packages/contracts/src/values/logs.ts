/**
 * The log explorer's query rules and limits (project shell spec §5, §7, §9). Plain values only, no zod:
 * the dashboard imports these without the schemas (see the contracts README).
 */

/** The spec's two refusals of a log query, word for word. */
export const LOG_QUERY_WITH_OR_SUBQUERY_ERROR = 'The parser does not yet support WITH and subquery statements.'
export const LOG_QUERY_ILIKE_ERROR = 'BigQuery does not support ILIKE. Use REGEXP_CONTAINS instead.'

/** Sources a log line can come from; each is also a table name in the BigQuery-flavoured form. */
export const LOG_SOURCES = [
  'edge_logs', 'postgres_logs', 'auth_logs', 'storage_logs', 'function_logs', 'function_edge_logs', 'realtime_logs',
  'workflow_run_logs', 'postgrest_logs', 'pooler_logs',
] as const
export type LogSource = (typeof LOG_SOURCES)[number]

/** The one table of the newer (ClickHouse-flavoured) form, filtered by its `source` column. */
export const LOGS_UNIFIED_TABLE = 'logs'

/** The longest window a query may cover (and the default one, ending now). */
export const LOG_QUERY_MAX_WINDOW_MS = 24 * 60 * 60 * 1000
/** Rows a query answers at most, whatever its LIMIT says. */
export const LOG_QUERY_MAX_ROWS = 1000
/** A query's statement timeout on the log store. */
export const LOG_QUERY_TIMEOUT_MS = 10_000

/**
 * Days of log lines kept, by the organization's plan. The hosted platform's numbers: its Logs guide
 * (supabase.com/docs/guides/telemetry/logs) says retention follows the plan, and its pricing page
 * (supabase.com/pricing, "Log retention (API & Database)") gives Free 1 day, Pro 7 days.
 */
export const LOG_RETENTION_DAYS_BY_PLAN: Record<'free' | 'pro', number> = { free: 1, pro: 7 }
