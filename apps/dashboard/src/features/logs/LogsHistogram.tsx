import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'

export interface HistogramPoint {
  /** Bucket start, milliseconds since the epoch. */
  time: number
  count: number
}

const HEIGHT = 120

const label = (ms: number, bucket: 'minute' | 'hour') =>
  new Date(ms).toLocaleString(undefined, bucket === 'hour' ? { day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit' } : { hour: '2-digit', minute: '2-digit' })

/** Log lines per bucket over the run's window (Recharts: loaded with this file only, see lazy.ts). */
export function LogsHistogram({ points, bucket }: { points: HistogramPoint[]; bucket: 'minute' | 'hour' }) {
  return (
    <div className="logs-histogram" data-testid="logs-histogram" data-points={points.length} style={{ height: HEIGHT }}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="time" type="category" tickFormatter={(value: number) => label(value, bucket)} fontSize={11} minTickGap={24} />
          <YAxis fontSize={11} width={40} allowDecimals={false} />
          <Tooltip labelFormatter={(value) => label(Number(value), bucket)} formatter={(value) => [String(value), 'lines']} />
          <Bar dataKey="count" fill="var(--accent)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}
