import type { LogQueryResponse } from '@stratum/contracts'
import type { UseQueryResult } from '@tanstack/react-query'
import { useMemo } from 'react'
import { Card } from '../../components/ui/Card'
import { errorMessage } from '../../data/api'
import { LogsHistogram } from './lazy'
import type { HistogramPoint } from './LogsHistogram'
import type { Window } from './time-range'

const BUCKET_MS = { minute: 60_000, hour: 3_600_000 }

/** Every bucket of the window, empty ones at 0, so the bars sit on the window's own time axis. */
export function histogramPoints(rows: Record<string, unknown>[], window: Window, bucket: 'minute' | 'hour'): HistogramPoint[] {
  const size = BUCKET_MS[bucket]
  const counts = new Map<number, number>()
  for (const row of rows) counts.set(Math.round(Number(row.time) / 1000), Number(row.count))
  const first = Math.floor(Date.parse(window.start) / size) * size
  const points: HistogramPoint[] = []
  for (let time = first; time < Date.parse(window.end); time += size) points.push({ time, count: counts.get(time) ?? 0 })
  return points
}

interface LogsHistogramCardProps {
  query: UseQueryResult<LogQueryResponse>
  window: Window
  bucket: 'minute' | 'hour'
  source: string
  /** The run's own query was refused or failed: nothing is shown, so nothing is counted. */
  runFailed: boolean
}

/** Lines of the query's source per minute (or hour) over the window: a second logs.all query with timestamp_trunc and count. */
export function LogsHistogramCard({ query, window, bucket, source, runFailed }: LogsHistogramCardProps) {
  const rows = runFailed ? undefined : query.data?.result
  const points = useMemo(() => (rows ? histogramPoints(rows, window, bucket) : []), [rows, window, bucket])
  const total = points.reduce((sum, point) => sum + point.count, 0)
  const failure = runFailed ? null : query.error ? errorMessage(query.error) : query.data?.error
  // The last run's counts stay drawn (dimmed) while this run's load; their number is not this run's.
  const description = runFailed ? 'The query did not run: nothing to count' : !rows ? undefined : query.isPlaceholderData ? 'Counting…' : `${total} ${total === 1 ? 'line' : 'lines'} in the window`
  return (
    // While a new window's counts load, the last ones stay drawn, dimmed and marked busy: they belong to the last run.
    <Card
      className="logs-histogram-card"
      data-testid="logs-histogram-card"
      aria-busy={query.isFetching}
      title={`${source} per ${bucket}`}
      description={description}
    >
      {failure ? (
        <p className="muted">{failure}</p>
      ) : rows ? (
        <LogsHistogram points={points} bucket={bucket} />
      ) : (
        <div className="logs-histogram-placeholder" aria-hidden="true" />
      )}
    </Card>
  )
}
