import { useMemo } from 'react'
import { Bar, BarChart, CartesianGrid, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { Select } from '../../components/ui/Field'
import './query-widget.css'
import { buildChartData, CHART_HEIGHT, CHART_TEXTS, formatX, type ChartConfig } from './chart'

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

/** The bar chart of one result: X and Y selectors, Cumulative, labels and grid (the SQL editor spec's bar chart). */
export function ResultChart({ columns, rows, config, onChange }: ResultChartProps) {
  const xKey = config.xKey && columns.includes(config.xKey) ? config.xKey : ''
  const yKey = config.yKey && columns.includes(config.yKey) ? config.yKey : ''
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
      <div className="qw-chart" data-testid="result-chart" data-x-type={data.xType} style={{ height: CHART_HEIGHT }}>
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <BarChart data={data.points} margin={{ top: 16, right: 16, bottom: 4, left: 4 }}>
            {(config.showGrid ?? true) ? <CartesianGrid strokeDasharray="3 3" vertical={false} /> : null}
            <XAxis dataKey="x" tickFormatter={(value: unknown) => formatX(value, data.xType)} fontSize={12} />
            <YAxis fontSize={12} width={48} />
            <Tooltip labelFormatter={(value: unknown) => formatX(value, data.xType)} formatter={(value: unknown) => [String(value), yKey]} />
            <Bar dataKey="y" name={yKey} shape={BarRect} isAnimationActive={false}>
              {config.showLabels ? <LabelList dataKey="y" position="top" fontSize={11} /> : null}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
    )

  return (
    <div className="qw-chart-view">
      <div className="qw-chart-controls">
        <label className="qw-axis">
          X axis
          <Select aria-label="X axis" value={xKey} onChange={(e) => onChange({ ...config, xKey: e.target.value || undefined })}>
            <option value="">Select a column</option>
            {columns.map((column) => (
              <option key={column} value={column}>
                {column}
              </option>
            ))}
          </Select>
        </label>
        <label className="qw-axis">
          Y axis
          <Select aria-label="Y axis" value={yKey} onChange={(e) => onChange({ ...config, yKey: e.target.value || undefined })}>
            <option value="">Select a column</option>
            {columns.map((column) => (
              <option key={column} value={column}>
                {column}
              </option>
            ))}
          </Select>
        </label>
        {toggle('cumulative', 'Cumulative', false)}
        {toggle('showLabels', 'Labels', false)}
        {toggle('showGrid', 'Grid', true)}
      </div>
      {body}
    </div>
  )
}
