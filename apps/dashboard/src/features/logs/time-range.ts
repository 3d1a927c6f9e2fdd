import { LOG_QUERY_MAX_WINDOW_MS } from '@stratum/contracts'

/** The time range picker's presets; `custom` reads start and end from the URL. */
export const TIME_RANGES = [
  { id: '15m', label: 'Last 15 minutes', ms: 15 * 60_000 },
  { id: '1h', label: 'Last hour', ms: 60 * 60_000 },
  { id: '3h', label: 'Last 3 hours', ms: 3 * 60 * 60_000 },
  { id: '24h', label: 'Last 24 hours', ms: LOG_QUERY_MAX_WINDOW_MS },
] as const
export type RangeId = (typeof TIME_RANGES)[number]['id'] | 'custom'
export const DEFAULT_RANGE: RangeId = '1h'

export interface Window {
  start: string
  end: string
}

/** A preset's window ending at `now`. */
export function presetWindow(id: Exclude<RangeId, 'custom'>, now: number): Window {
  const range = TIME_RANGES.find((r) => r.id === id) ?? TIME_RANGES[1]
  return { start: new Date(now - range.ms).toISOString(), end: new Date(now).toISOString() }
}

/**
 * Why a custom window cannot run, or null. The project shell spec's log window is the last 24 hours: a
 * window must end after it starts, span at most 24 hours and not start before the last 24 hours.
 */
export function customWindowProblem(start: string, end: string, now: number): string | null {
  const from = Date.parse(start)
  const to = Date.parse(end)
  if (Number.isNaN(from) || Number.isNaN(to)) return 'Choose a start and an end.'
  if (to <= from) return 'The end must be after the start.'
  if (from < now - LOG_QUERY_MAX_WINDOW_MS) return 'Logs can be queried over the last 24 hours: choose a later start.'
  if (to - from > LOG_QUERY_MAX_WINDOW_MS) return 'A window can span at most 24 hours.'
  return null
}

/** Histogram buckets: a minute up to 3 hours, an hour beyond (at most ~180 or 24 bars). */
export function bucketFor(window: Window): 'minute' | 'hour' {
  return Date.parse(window.end) - Date.parse(window.start) <= 3 * 60 * 60_000 ? 'minute' : 'hour'
}

/** `<input type="datetime-local">` reads and writes local time without a zone. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

export function fromLocalInput(value: string): string {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? '' : date.toISOString()
}
