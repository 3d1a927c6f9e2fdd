import { LOG_SOURCES, type LogSource } from '@stratum/contracts'
import { DEFAULT_RANGE, TIME_RANGES, type RangeId } from './time-range'
import { sourceQuery } from './templates'

/** The Logs Explorer's state in the URL (a link reproduces the run): source, range, custom window, query. */
export interface LogsUrlState {
  source: LogSource
  range: RangeId
  start: string
  end: string
  sql: string
}

const isSource = (value: string | null): value is LogSource => (LOG_SOURCES as readonly string[]).includes(value ?? '')
const isRange = (value: string | null): value is RangeId => value === 'custom' || TIME_RANGES.some((range) => range.id === value)

export function readLogsUrl(params: URLSearchParams): LogsUrlState {
  const source = params.get('source')
  const range = params.get('range')
  const state = {
    source: isSource(source) ? source : 'postgres_logs',
    range: isRange(range) ? range : DEFAULT_RANGE,
    start: params.get('start') ?? '',
    end: params.get('end') ?? '',
  } as const
  return { ...state, sql: params.get('q') ?? sourceQuery(state.source) }
}

export function writeLogsUrl(params: URLSearchParams, patch: Partial<LogsUrlState>): URLSearchParams {
  const next = new URLSearchParams(params)
  const names: Record<keyof LogsUrlState, string> = { source: 'source', range: 'range', start: 'start', end: 'end', sql: 'q' }
  for (const [key, value] of Object.entries(patch) as [keyof LogsUrlState, string | undefined][]) {
    if (value) next.set(names[key], value)
    else next.delete(names[key])
  }
  return next
}

/** The source a query reads (its FROM), so the histogram and the picker follow a query typed by hand. */
export function sourceOf(sql: string): LogSource | null {
  const match = /\bfrom\s+`?([a-z_]+)`?/i.exec(sql)
  const name = match?.[1]?.toLowerCase() ?? null
  return isSource(name) ? name : null
}
