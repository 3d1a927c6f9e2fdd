/**
 * Running SQL: timeouts, result bounds, and the codes and media type the dashboard checks for.
 * Plain values only, no zod: the dashboard imports these without the schemas (see the contracts README).
 */

/** Default statement timeout, and the largest a caller may ask for. */
export const SQL_DEFAULT_TIMEOUT_MS = 60_000
export const SQL_MAX_TIMEOUT_MS = 300_000
/** Results stop being kept past these bounds (the statement still completes). */
export const SQL_MAX_RESULT_ROWS = 100_000
/** About the JSON size of the rows: room for 100,000 rows of an ordinary table (a uuid, a timestamp, some text). */
export const SQL_MAX_RESULT_BYTES = 32 * 1024 * 1024
export const SQL_MAX_QUERY_LENGTH = 1_000_000
export const SQL_RESULTS_TRUNCATED_MESSAGE =
  'Results truncated: only the first 100,000 rows or 32 MB of results are returned. Add a limit to your query to see the rest.'

/** The code of the answer that asks the dashboard to confirm running with the full connection. */
export const WRITE_CONNECTION_REQUIRED = 'WRITE_CONNECTION_REQUIRED'

/** What a client accepts to get the answer streamed as NDJSON frames (SqlStreamFrame in ../sql.ts). */
export const SQL_STREAM_MEDIA_TYPE = 'application/x-ndjson'
