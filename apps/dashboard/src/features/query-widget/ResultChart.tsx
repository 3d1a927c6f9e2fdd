import { useMemo } from 'react'
import { Area, AreaChart, Bar, BarChart, CartesianGrid, LabelList, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { Select } from '../../components/ui/Field'
import './query-widget.css'
import { buildChartData, CHART_HEIGHT, CHART_TEXTS, CHART_TYPE_LABELS, formatX, type ChartConfig, type ChartPoint, type ChartType, type XAxisType } from './chart'

interface ResultChartProps {
  columns: readonly string[]
  rows: readonly Record<string, unknown>[]
  config: ChartConfig
  onChange: (next: ChartConfig) => void
}

interface BarShapeProps {
  x?: number
  y?: number
  width?: number
  height?: number
}

/** Each bar as a plain svg rect. */
function BarRect({ x = 0, y = 0, width = 0, height = 0 }: BarShapeProps) {
  const h = Math.abs(height)
  return <rect className="qw-bar" x={x} y={height < 0 ? y + height : y} width={Math.max(width, 0)} height={h} fill="var(--accent)" />
}

interface PlotProps {
  type: ChartType
  points: ChartPoint[]
  xType: XAxisType
  yKey: string
  showGrid: boolean
  showLabels: boolean
}

/**
 * One chart of the points: the same axes, grid, tooltip and labels whatever its kind. Called as a function, not
 * rendered as a component, so ResponsiveContainer sizes the chart element itself.
 */
function plot({ type, points, xType, yKey, showGrid, showLabels }: PlotProps) {
  const labels = showLabels ? <LabelList dataKey="y" position="top" fontSize={11} /> : null
  const common = (
    <>
      {showGrid ? <CartesianGrid strokeDasharray="3 3" vertical={false} /> : null}
      {/* Bars sit inside their band; a line or area starts on the axis, so its end ticks and labels need room. */}
      <XAxis
        dataKey="x"
        tickFormatter={(value: unknown) => formatX(value, xType)}
        fontSize={12}
        padding={type === 'bar' ? undefined : { left: 36, right: 36 }}
      />
      <YAxis fontSize={12} width={48} />
      <Tooltip labelFormatter={(value: unknown) => formatX(value, xType)} formatter={(value: unknown) => [String(value), yKey]} />
    </>
  )
  const margin = { top: 16, right: 16, bottom: 4, left: 4 }
  if (type === 'line')
    return (
      <LineChart data={points} margin={margin}>
        {common}
        <Line className="qw-line" type="monotone" dataKey="y" name={yKey} stroke="var(--accent)" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false}>
          {labels}
        </Line>
      </LineChart>
    )
  if (type === 'area')
    return (
      <AreaChart data={points} margin={margin}>
        {common}
        <Area
          className="qw-area"
          type="monotone"
          dataKey="y"
          name={yKey}
          stroke="var(--accent)"
          strokeWidth={2}
          fill="var(--accent)"
          fillOpacity={0.18}
          isAnimationActive={false}
        >
          {labels}
        </Area>
      </AreaChart>
    )
  return (
    <BarChart data={points} margin={margin}>
      {common}
      <Bar dataKey="y" name={yKey} shape={BarRect} isAnimationActive={false}>
        {labels}
      </Bar>
    </BarChart>
  )
}

/** The chart of one result: kind (bar, line, area), X and Y selectors, Cumulative, labels and grid (the SQL editor spec's chart). */
export function ResultChart({ columns, rows, config, onChange }: ResultChartProps) {
  const xKey = config.xKey && columns.includes(config.xKey) ? config.xKey : ''
  const yKey = config.yKey && columns.includes(config.yKey) ? config.yKey : ''
  const type = config.type ?? 'bar'
  const data = useMemo(() => (xKey && yKey ? buildChartData(rows, xKey, yKey, config.cumulative === true) : null), [rows, xKey, yKey, config.cumulative])

  const toggle = (key: 'cumulative' | 'showLabels' | 'showGrid', label: string, fallback: boolean) => (
    <label className="qw-check">
      <input type="checkbox" checked={config[key] ?? fallback} onChange={(e) => onChange({ ...config, [key]: e.target.checked })} />
      {label}
    </label>
  )

  let body
  if (rows.length === 0) body = <p className="qw-message">{CHART_TEXTS.noResults}</p>
  else if (!data) body = <p className="qw-message">{CHART_TEXTS.selectAxes}</p>
  else
    body = (
      <div className="qw-chart" data-testid="result-chart" data-chart-type={type} data-x-type={data.xType} style={{ height: CHART_HEIGHT }}>
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          {plot({ type, points: data.points, xType: data.xType, yKey, showGrid: config.showGrid ?? true, showLabels: config.showLabels ?? false })}
        </ResponsiveContainer>
      </div>
    )

  const columnSelect = (label: 'X axis' | 'Y axis', value: string, key: 'xKey' | 'yKey') => (
    <label className="qw-axis">
      {label}
      <Select aria-label={label} value={value} onChange={(e) => onChange({ ...config, [key]: e.target.value || undefined })}>
        <option value="">Select a column</option>
        {columns.map((column) => (
          <option key={column} value={column}>
            {column}
          </option>
        ))}
      </Select>
    </label>
  )

  return (
    <div className="qw-chart-view">
      <div className="qw-chart-controls">
        <label className="qw-axis">
          Chart
          <Select aria-label="Chart type" value={type} onChange={(e) => onChange({ ...config, type: e.target.value as ChartType })}>
            {Object.entries(CHART_TYPE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </label>
        {columnSelect('X axis', xKey, 'xKey')}
        {columnSelect('Y axis', yKey, 'yKey')}
        {toggle('cumulative', 'Cumulative', false)}
        {toggle('showLabels', 'Labels', false)}
        {toggle('showGrid', 'Grid', true)}
      </div>
      {body}
    </div>
  )
}
