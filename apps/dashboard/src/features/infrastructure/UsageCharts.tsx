import type { ProjectUsage } from '@stratum/contracts'
import { Area, AreaChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { formatBytes, formatTime } from './format'

interface Series {
  key: string
  label: string
  color: string
}

interface ChartProps {
  title: string
  usage: ProjectUsage
  series: Series[]
  format: (value: number) => string
  /** A limit drawn as a dashed line (the disk quota, max_connections). */
  limit?: { value: number; label: string }
  summary: string
}

function UsageChart({ title, usage, series, format, limit, summary }: ChartProps) {
  const withDate = usage.interval !== '1h'
  const data = usage.points.map((point) => ({ ...point, read_write: point.read_bytes_per_second + point.write_bytes_per_second }))
  return (
    <section className="usage-chart" aria-label={title} data-testid={`usage-chart-${series[0]!.key}`}>
      <header className="usage-chart-header">
        <h2 className="usage-chart-title">{title}</h2>
        <span className="usage-chart-summary">{summary}</span>
      </header>
      <div className="usage-chart-plot">
        <ResponsiveContainer width="100%" height={180}>
          <AreaChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="var(--border)" vertical={false} />
            <XAxis dataKey="at" tickFormatter={(at: string) => formatTime(at, withDate)} minTickGap={48} tick={{ fontSize: 11, fill: 'var(--text-muted)' }} />
            <YAxis tickFormatter={format} width={72} tick={{ fontSize: 11, fill: 'var(--text-muted)' }} domain={[0, limit ? (max: number) => Math.max(max, limit.value) : 'auto']} />
            <Tooltip
              labelFormatter={(at) => formatTime(String(at), true)}
              formatter={(value, name) => [format(Number(value)), series.find((entry) => entry.key === name)?.label ?? String(name)]}
              contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', fontSize: 12 }}
            />
            {limit ? <ReferenceLine y={limit.value} stroke="var(--danger)" strokeDasharray="4 4" label={{ value: limit.label, fontSize: 11, fill: 'var(--text-muted)', position: 'insideTopRight' }} /> : null}
            {series.map((entry) => (
              <Area key={entry.key} type="monotone" dataKey={entry.key} stroke={entry.color} fill={entry.color} fillOpacity={0.15} isAnimationActive={false} dot={false} />
            ))}
          </AreaChart>
        </ResponsiveContainer>
      </div>
    </section>
  )
}

/** The Infrastructure page's charts (Recharts, loaded with this chunk only). */
export function UsageCharts({ usage }: { usage: ProjectUsage }) {
  const last = usage.points.at(-1)
  const perSecond = (value: number) => `${formatBytes(value)}/s`
  return (
    <div className="usage-charts">
      <UsageChart
        title="Disk size"
        usage={usage}
        series={[{ key: 'disk_bytes', label: 'Disk used', color: 'var(--accent)' }]}
        format={(value) => formatBytes(value, 0)}
        limit={usage.disk_quota_bytes <= 4 * (last?.disk_bytes ?? 0) ? { value: usage.disk_quota_bytes, label: 'Quota' } : undefined}
        summary={last ? `${formatBytes(last.disk_bytes)} of ${formatBytes(usage.disk_quota_bytes, 0)}` : ''}
      />
      <UsageChart
        title="CPU"
        usage={usage}
        series={[{ key: 'cpu_percent', label: 'CPU', color: '#6e56cf' }]}
        format={(value) => `${value.toFixed(value < 10 ? 1 : 0)}%`}
        summary={last ? `${last.cpu_percent.toFixed(1)}% of one core` : ''}
      />
      <UsageChart
        title="Memory"
        usage={usage}
        series={[{ key: 'memory_bytes', label: 'Memory', color: '#0091ff' }]}
        format={(value) => formatBytes(value, 0)}
        summary={last ? `${formatBytes(last.memory_bytes)} of ${formatBytes(usage.memory_limit_bytes, 0)}` : ''}
      />
      <UsageChart
        title="Connections"
        usage={usage}
        series={[{ key: 'connections', label: 'Connections', color: '#12a594' }]}
        format={(value) => String(Math.round(value))}
        summary={last ? `${Math.round(last.connections)} of ${usage.max_connections}` : ''}
      />
      <UsageChart
        title="Disk IO"
        usage={usage}
        series={[
          { key: 'read_bytes_per_second', label: 'Reads', color: '#f76b15' },
          { key: 'write_bytes_per_second', label: 'Writes', color: '#e5484d' },
        ]}
        format={perSecond}
        summary={last ? `${perSecond(last.read_bytes_per_second)} read, ${perSecond(last.write_bytes_per_second)} written` : ''}
      />
      <UsageChart
        title="Realtime connections"
        usage={usage}
        series={[{ key: 'realtime_connections', label: 'Clients', color: '#3e63dd' }]}
        format={(value) => String(Math.round(value))}
        summary={last ? `${last.realtime_connections} connected` : ''}
      />
      <UsageChart
        title="Realtime messages"
        usage={usage}
        series={[{ key: 'realtime_messages_per_second', label: 'Messages', color: '#8e4ec6' }]}
        format={(value) => `${value.toFixed(value < 10 ? 1 : 0)}/s`}
        summary={last ? `${last.realtime_messages_per_second.toFixed(1)} per second` : ''}
      />
    </div>
  )
}
