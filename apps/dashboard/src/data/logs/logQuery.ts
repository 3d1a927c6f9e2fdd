import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { logKeys } from './keys'

/** One run of a log query: its SQL and the window it covers (ISO timestamps, start <= t < end). */
export interface LogQueryRun {
  sql: string
  start: string
  end: string
}

export const getLogs = (ref: string, run: LogQueryRun, signal?: AbortSignal) => {
  const query = { sql: run.sql, iso_timestamp_start: run.start, iso_timestamp_end: run.end }
  return request('GET /platform/projects/{ref}/analytics/endpoints/logs.all', { params: { ref }, query, signal })
}

/**
 * logs.all for a run. A refused or failing query is still a 200 whose `error` carries the server's text (the
 * field's AnalyticsResponse), so callers show `data.error` in place; only transport and permission problems throw.
 */
export const logQuery = (ref: string | undefined, run: LogQueryRun | null) =>
  queryOptions({
    queryKey: logKeys.query(ref ?? '', run?.sql ?? '', run?.start ?? '', run?.end ?? ''),
    queryFn: ref && run?.sql.trim() ? ({ signal }) => getLogs(ref, run, signal) : skipToken,
    // A run is a fixed window: its answer changes only when Run asks again (the page refetches then).
    refetchOnWindowFocus: false,
  })

export function useLogQuery(ref: string | undefined, run: LogQueryRun | null) {
  return useQuery({ ...logQuery(ref, run), placeholderData: keepPreviousData })
}
