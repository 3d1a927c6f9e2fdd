import { CHART_TYPES } from '@stratum/contracts'

/** Chart config of a snippet or a report widget, and the data shaping of its chart (the SQL editor spec's chart rules and limits). */
export type ChartType = (typeof CHART_TYPES)[number]
export type ChartConfig = {
  type?: ChartType
  cumulative?: boolean
  xKey?: string
  yKey?: string
  showLabels?: boolean
  showGrid?: boolean
  view?: 'table' | 'chart'
}

export const CHART_TYPE_LABELS: Record<ChartType, string> = { bar: 'Bar', line: 'Line', area: 'Area' }

/** Default: a bar chart, shown as the table (the SQL editor spec's defaults). */
export const DEFAULT_CHART: ChartConfig = { type: 'bar', cumulative: false, showLabels: false, showGrid: true, view: 'table' }

const isChartType = (value: unknown): value is ChartType => (CHART_TYPES as readonly unknown[]).includes(value)

/**
 * The chart settings kept in stored content (a snippet's or a report widget's), field by field: anything of the
 * wrong kind is dropped, so content written by an older or newer dashboard still shows (bar and the table by default).
 */
export function readChartConfig(value: unknown): ChartConfig {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {}
  const raw = value as Record<string, unknown>
  const config: ChartConfig = {}
  if (isChartType(raw.type)) config.type = raw.type
  if (raw.view === 'table' || raw.view === 'chart') config.view = raw.view
  if (typeof raw.xKey === 'string' && raw.xKey) config.xKey = raw.xKey
  if (typeof raw.yKey === 'string' && raw.yKey) config.yKey = raw.yKey
  for (const key of ['cumulative', 'showLabels', 'showGrid'] as const) if (typeof raw[key] === 'boolean') config[key] = raw[key]
  return config
}

/** What a widget starts with: the defaults, then the snippet's own chart, then the report widget's (the most specific wins). */
export function initialChartConfig(...layers: unknown[]): ChartConfig {
  return Object.assign({ ...DEFAULT_CHART }, ...layers.map(readChartConfig)) as ChartConfig
}

export const CHART_HEIGHT = 250
export const CHART_TEXTS = {
  selectAxes: 'Select columns for the X and Y axes',
  noResults: 'No results returned from query',
} as const

export type XAxisType = 'number' | 'date' | 'string'
type Row = Record<string, unknown>

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}/

/** number when every value is numeric, date when every value is a date, else string. */
export function detectXType(rows: readonly Row[], key: string): XAxisType {
  const values = rows.map((row) => row[key]).filter((value) => value !== null && value !== undefined && value !== '')
  if (values.length === 0) return 'string'
  if (values.every((v) => typeof v === 'number' || (typeof v === 'string' && NUMERIC.test(v.trim())))) return 'number'
  if (values.every((v) => v instanceof Date || (typeof v === 'string' && DATE_LIKE.test(v) && !Number.isNaN(Date.parse(v))))) return 'date'
  return 'string'
}

/** Y converted to a number (non-numeric values become 0), summed row by row when cumulative. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : 0
  if (typeof value === 'boolean') return value ? 1 : 0
  const parsed = Number(typeof value === 'string' ? value.trim() : value)
  return Number.isFinite(parsed) ? parsed : 0
}

export interface ChartPoint {
  x: string | number
  y: number
}

export function buildChartData(rows: readonly Row[], xKey: string, yKey: string, cumulative: boolean): { points: ChartPoint[]; xType: XAxisType } {
  const xType = detectXType(rows, xKey)
  let total = 0
  const points = rows.map((row) => {
    const y = toNumber(row[yKey])
    total += y
    const rawX = row[xKey]
    const x = xType === 'number' ? toNumber(rawX) : rawX === null || rawX === undefined ? '' : String(rawX)
    return { x, y: cumulative ? total : y }
  })
  return { points, xType }
}

/** Ticks of a date axis read as dates; others as written. */
export function formatX(value: unknown, xType: XAxisType): string {
  if (xType === 'date' && typeof value === 'string') {
    const date = new Date(value)
    if (!Number.isNaN(date.getTime())) return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })
  }
  return String(value)
}
