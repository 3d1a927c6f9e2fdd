import { z } from 'zod'
import { SQL_DEFAULT_TIMEOUT_MS, SQL_MAX_QUERY_LENGTH, SQL_MAX_TIMEOUT_MS } from './values/sql.js'
export * from './values/sql.js'

/**
 * Running SQL on a project's database: the SQL editor's call (`POST /platform/pg-meta/{ref}/query`),
 * ongoing queries with cancel and terminate, and the Management API's
 * `POST /v1/projects/{ref}/database/query`. The editor runs on the read-only connection first
 * (the SQL editor spec's read-only-first rule); a refusal there answers WRITE_CONNECTION_REQUIRED so the dashboard can ask
 * to run with the full connection.
 */

const Query = z
  .string({ error: 'query is required' })
  .max(SQL_MAX_QUERY_LENGTH, `query must be at most ${SQL_MAX_QUERY_LENGTH} characters`)
  .refine((sql) => sql.trim().length > 0, 'query cannot be empty')

/** A named parameter's value as a run used it (`@set name = value`), kept beside the query in the history. */
export const SqlHistoryParameter = z.strictObject({
  name: z.string({ error: 'a parameter name is required' }).regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a parameter name must be a SQL identifier'),
  value: z.string({ error: 'a parameter value must be a string' }).max(10_000, 'a parameter value must be at most 10000 characters'),
})
export type SqlHistoryParameter = z.infer<typeof SqlHistoryParameter>
export const SQL_HISTORY_MAX_PARAMETERS = 100

export const SqlQueryBody = z.strictObject({
  query: Query,
  read_only: z.boolean({ error: 'read_only must be true or false' }).default(true),
  /** The editor's row limit option: appended to a single plain select (the SQL editor spec's auto-limit rule); -1 means none. */
  row_limit: z.number({ error: 'row_limit must be a number' }).int('row_limit must be an integer').min(-1, 'row_limit must be -1 or positive').optional(),
  statement_timeout_ms: z
    .number({ error: 'statement_timeout_ms must be a number' })
    .int('statement_timeout_ms must be an integer')
    .min(1, 'statement_timeout_ms must be positive')
    .max(SQL_MAX_TIMEOUT_MS, `statement_timeout_ms must be at most ${SQL_MAX_TIMEOUT_MS}`)
    .default(SQL_DEFAULT_TIMEOUT_MS),
  /** Whether the run goes in the member's query history: the editor's runs do, the table editor's own reads do not. */
  history: z.boolean({ error: 'history must be true or false' }).default(true),
  /**
   * The editor's text as written when its named parameters were filled in (`query` holds the values): the history keeps
   * this text, with its `@set` lines, and the values used (history_parameters), so the run reopens as it was written.
   */
  history_query: Query.optional(),
  history_parameters: z
    .array(SqlHistoryParameter, { error: 'history_parameters must be a list of { name, value }' })
    .max(SQL_HISTORY_MAX_PARAMETERS, `history_parameters must have at most ${SQL_HISTORY_MAX_PARAMETERS} entries`)
    .optional(),
})
export type SqlQueryBody = z.output<typeof SqlQueryBody>

export const SqlColumn = z.object({ name: z.string(), data_type_id: z.number() })

export const SqlStatementResult = z.object({
  /** The statement as run, and where it sits in the query (0-based offsets, end exclusive). */
  statement: z.string(),
  start: z.number(),
  end: z.number(),
  command: z.string().nullable(),
  /** Postgres's command tag as psql prints it: `INSERT 0 3`, `UPDATE 2`, `CREATE TABLE`. */
  command_tag: z.string().nullable().optional(),
  rowCount: z.number().nullable(),
  columns: z.array(SqlColumn),
  rows: z.array(z.record(z.string(), z.unknown())),
  elapsed_ms: z.number(),
  truncated: z.boolean(),
})
export type SqlStatementResult = z.infer<typeof SqlStatementResult>

export const SqlError = z.object({
  message: z.string(),
  code: z.string().optional(),
  /** 1-based character position in the whole query, as Postgres counts. */
  position: z.number().optional(),
  statement_index: z.number(),
  detail: z.string().optional(),
  hint: z.string().optional(),
})
export type SqlError = z.infer<typeof SqlError>

/** A NOTICE, WARNING or INFO message Postgres sent during the run (RAISE NOTICE, a COMMIT outside a transaction...). */
export const SqlNotice = z.object({
  severity: z.string(),
  message: z.string(),
  detail: z.string().optional(),
  hint: z.string().optional(),
  /** The statement that was running when it came (index in the run's statements). */
  statement_index: z.number().optional(),
})
export type SqlNotice = z.infer<typeof SqlNotice>

/** The warning of a run that left a transaction open: it is rolled back when the session is given back. */
export const SQL_OPEN_TRANSACTION_WARNING =
  'The query left a transaction open (BEGIN without COMMIT or ROLLBACK): it was rolled back, and its changes were not saved.'

/** 201 on success; 400 (SQL error) or 403 (code WRITE_CONNECTION_REQUIRED) carry the same fields plus message. */
export const SqlQueryResponse = z.object({
  results: z.array(SqlStatementResult),
  read_only: z.boolean(),
  autoLimit: z.number().optional(),
  truncated: z.boolean(),
  truncated_message: z.string().optional(),
  /** Postgres's messages of the run, in the order they came. */
  notices: z.array(SqlNotice).optional(),
  /** The platform's own warnings about the run (SQL_OPEN_TRANSACTION_WARNING). */
  warnings: z.array(z.string()).optional(),
})
export type SqlQueryResponse = z.infer<typeof SqlQueryResponse>

export const SqlQueryErrorResponse = SqlQueryResponse.extend({
  message: z.string(),
  code: z.string().optional(),
  /** With WRITE_CONNECTION_REQUIRED: whether this user may run it on the full connection. */
  can_run_with_full_connection: z.boolean().optional(),
  error: SqlError,
})

/**
 * Streaming: the SQL editor asks for rows as they arrive by sending `Accept: application/x-ndjson`.
 * Checks that come before running (input, permission, project status) still answer with their
 * status and a JSON `{ message }`; once the query runs, the answer is 200 with one JSON frame per
 * line: each result's columns, its rows in batches, then `end` with the status and body the plain
 * answer would have had (its results without rows: the client puts the streamed rows back).
 * Rows of a statement that failed have no result in `end`, and are dropped.
 */
export type SqlStreamFrame =
  | { kind: 'columns'; result: number; columns: SqlColumn[] }
  | { kind: 'rows'; result: number; rows: Array<Record<string, unknown>> }
  | { kind: 'end'; status: number; body: SqlQueryResponse | SqlQueryErrorResponse | { message: string } }
export type SqlColumn = z.infer<typeof SqlColumn>
export type SqlQueryErrorResponse = z.infer<typeof SqlQueryErrorResponse>

export const PidBody = z.strictObject({
  pid: z.number({ error: 'pid must be a number' }).int('pid must be an integer').positive('pid must be positive'),
})
export const CancelResponse = z.object({ pid: z.number(), cancelled: z.boolean() })
export const TerminateResponse = z.object({ pid: z.number(), terminated: z.boolean() })

export const OngoingQuery = z.object({
  pid: z.number(),
  query: z.string(),
  query_start: z.string().nullable(),
  state: z.string().nullable(),
  usename: z.string().nullable(),
  application_name: z.string(),
})
export const OngoingQueries = z.array(OngoingQuery)

/** POST /v1/projects/{ref}/database/query (V1RunQueryBody). */
export const V1RunQueryBody = z.object({
  query: z.string({ error: 'query is required' }).min(1, 'query cannot be empty').max(SQL_MAX_QUERY_LENGTH),
  parameters: z.array(z.unknown(), { error: 'parameters must be an array' }).optional(),
  read_only: z.boolean({ error: 'read_only must be true or false' }).default(false),
})
export type V1RunQueryBody = z.output<typeof V1RunQueryBody>
export const V1RunQueryResponse = z.array(z.record(z.string(), z.unknown()))

/** POST/PUT /v1/projects/{ref}/database/migrations (V1CreateMigrationBody / V1UpsertMigrationBody). */
export const V1MigrationBody = z.object({
  query: z.string({ error: 'query is required' }).min(1, 'query cannot be empty').max(SQL_MAX_QUERY_LENGTH),
  name: z.string({ error: 'name must be a string' }).max(256, 'name must be at most 256 characters').optional(),
  rollback: z.string({ error: 'rollback must be a string' }).max(SQL_MAX_QUERY_LENGTH).optional(),
})

/** PATCH /v1/projects/{ref}/database/migrations/{version}. */
export const V1MigrationPatchBody = z.object({
  name: z.string({ error: 'name must be a string' }).max(256, 'name must be at most 256 characters').optional(),
  rollback: z.string({ error: 'rollback must be a string' }).max(SQL_MAX_QUERY_LENGTH).optional(),
})

const MigrationVersion = z.string().regex(/^\d{1,20}$/, 'version must be digits (YYYYMMDDHHMMSS)')
export const V1MigrationVersionParams = z.object({ version: MigrationVersion })
export const V1MigrationRollbackQuery = z.object({ gte: MigrationVersion })

/**
 * Query history: each member's runs through the SQL editor's route, kept per project on the server
 * (the newest SQL_HISTORY_RETENTION; older ones are deleted as new ones come).
 * `GET /platform/projects/{ref}/sql/history?search=&limit=&cursor=`: the caller's own runs, newest first.
 */
export const SQL_HISTORY_RETENTION = 500
export const SQL_HISTORY_PAGE_DEFAULT = 50
export const SQL_HISTORY_PAGE_MAX = 200

export const SqlHistoryQuery = z.strictObject({
  search: z.string({ error: 'search must be a string' }).max(1_000, 'search must be at most 1000 characters').optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(SQL_HISTORY_PAGE_MAX, `limit must be at most ${SQL_HISTORY_PAGE_MAX}`)
    .default(SQL_HISTORY_PAGE_DEFAULT),
  /** The next_cursor of the previous page. */
  cursor: z.string().regex(/^\d{1,18}$/, 'cursor must be the next_cursor of a previous page').optional(),
})
export type SqlHistoryQuery = z.output<typeof SqlHistoryQuery>

export const SqlHistoryEntry = z.object({
  id: z.string(),
  query: z.string(),
  ran_at: z.string(),
  duration_ms: z.number(),
  /** Rows of the run's last result (returned or changed); null when it has none. */
  row_count: z.number().nullable(),
  status: z.enum(['ok', 'error']),
  error_message: z.string().nullable(),
  /** The named parameters' values the run used (its query is the text as written); null when it had none. */
  parameters: z.array(SqlHistoryParameter).nullable(),
})
export type SqlHistoryEntry = z.infer<typeof SqlHistoryEntry>

export const SqlHistoryPage = z.object({ entries: z.array(SqlHistoryEntry), next_cursor: z.string().nullable() })
export type SqlHistoryPage = z.infer<typeof SqlHistoryPage>
