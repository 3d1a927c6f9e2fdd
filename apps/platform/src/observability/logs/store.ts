import type { Db, Queryable } from '../../store/db.js'

/** Days of log lines kept (every plan alike for now); the query window itself is at most 24 hours. */
export const LOG_RETENTION_DAYS = 7

/** One line for the log store. */
export interface LogLine {
  source: string
  timestamp: string | Date
  eventMessage: string
  metadata: Record<string, unknown>
}

/** Creates the days ahead and drops the days past the retention (migration 019's function). */
export async function maintainLogStore(db: Db): Promise<void> {
  await db.query('SELECT log_store_maintain($1)', [LOG_RETENTION_DAYS])
}

/**
 * Inserts lines of one project in one statement. Lines outside the partitions that exist (older than the
 * retention, or more than a day ahead: a clock gone wrong) are left out rather than failing the batch.
 */
export async function insertLogLines(client: Queryable, projectRef: string, lines: LogLine[]): Promise<void> {
  if (!lines.length) return
  await client.query(
    `INSERT INTO log_events (project_ref, source, timestamp, event_message, metadata)
     SELECT $1, line->>'source', (line->>'timestamp')::timestamptz, line->>'event_message', line->'metadata'
     FROM jsonb_array_elements($2::jsonb) AS line
     WHERE (line->>'timestamp')::timestamptz >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(days => $3)
       AND (line->>'timestamp')::timestamptz < date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '2 days'`,
    [
      projectRef,
      JSON.stringify(lines.map((line) => ({ source: line.source, timestamp: line.timestamp, event_message: line.eventMessage, metadata: line.metadata }))),
      LOG_RETENTION_DAYS,
    ],
  )
}
