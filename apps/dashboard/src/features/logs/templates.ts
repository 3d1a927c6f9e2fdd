import type { LogSource } from '@stratum/contracts'

/**
 * Queries the Logs Explorer starts from: the field's common ones, in the SQL the log store accepts
 * (BigQuery-flavoured: `cross join unnest(metadata)`, regexp_contains, timestamp_trunc).
 */
export interface LogTemplate {
  id: string
  label: string
  description: string
  source: LogSource
  sql: string
}

/** What a source shows when it is picked: its newest lines. */
export function sourceQuery(source: string): string {
  return `select id, timestamp, event_message, metadata\nfrom ${source}\norder by timestamp desc\nlimit 100`
}

export const LOG_TEMPLATES: LogTemplate[] = [
  {
    id: 'recent-postgres',
    label: 'Recent Postgres logs',
    description: 'The newest lines of the database log, with their severity.',
    source: 'postgres_logs',
    sql: `select id, timestamp, event_message, parsed.error_severity
from postgres_logs
cross join unnest(metadata) as m
cross join unnest(m.parsed) as parsed
order by timestamp desc
limit 100`,
  },
  {
    id: 'postgres-errors',
    label: 'Recent errors',
    description: 'Errors, fatal errors and panics from the database log.',
    source: 'postgres_logs',
    sql: `select id, timestamp, event_message, parsed.error_severity, parsed.sql_state_code
from postgres_logs
cross join unnest(metadata) as m
cross join unnest(m.parsed) as parsed
where parsed.error_severity in ('ERROR', 'FATAL', 'PANIC')
order by timestamp desc
limit 100`,
  },
  {
    id: 'requests-by-status',
    label: 'Requests by status',
    description: 'API requests through the project URL, counted by response status.',
    source: 'edge_logs',
    sql: `select response.status_code, count(*) as count
from edge_logs
cross join unnest(metadata) as m
cross join unnest(m.response) as response
group by response.status_code
order by count desc`,
  },
  {
    id: 'count-by-minute',
    label: 'Count by minute',
    description: 'How many database log lines were written each minute.',
    source: 'postgres_logs',
    sql: `select timestamp_trunc(timestamp, minute) as minute, count(*) as count
from postgres_logs
group by minute
order by minute desc`,
  },
  {
    id: 'realtime-errors',
    label: 'Realtime errors',
    description: 'Refused connections and joins, channels ended by a limit, and the change stream in trouble.',
    source: 'realtime_logs',
    sql: `select id, timestamp, event_message, m.error_code, m.topic
from realtime_logs
cross join unnest(metadata) as m
where m.level = 'error'
order by timestamp desc
limit 100`,
  },
  {
    id: 'regexp-search',
    label: 'Search messages (regexp)',
    description: 'Lines whose message matches a regular expression.',
    source: 'postgres_logs',
    sql: `select id, timestamp, event_message
from postgres_logs
where regexp_contains(event_message, 'error|warning')
order by timestamp desc
limit 100`,
  },
]

/** The histogram's query: lines of the source per bucket over the run's window. */
export function histogramQuery(source: string, bucket: 'minute' | 'hour'): string {
  return `select timestamp_trunc(timestamp, ${bucket}) as time, count(*) as count from ${source} group by time order by time`
}
