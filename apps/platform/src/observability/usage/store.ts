import type { UsageInterval, UsagePoint } from '@stratum/contracts'
import type { Db, Queryable } from '../../store/db.js'

/** Raw samples are kept this long, then folded into 5-minute averages. */
const RAW_KEPT = '1 day'
const BUCKET_SECONDS = 300
/** Averages are dropped after this long (the log store keeps 7 days too). */
const RETENTION = '7 days'

export interface UsageSampleRow {
  ref: string
  diskBytes: number | null
  cpuPercent: number
  memoryBytes: number
  connections: number
  readBytesPerSecond: number
  writeBytesPerSecond: number
  realtimeConnections: number
  realtimeMessagesPerSecond: number
}

/** All projects' samples of one pass in one statement. */
export async function insertSamples(db: Queryable, samples: UsageSampleRow[]): Promise<void> {
  if (!samples.length) return
  const columns = ['ref', 'diskBytes', 'cpuPercent', 'memoryBytes', 'connections', 'readBytesPerSecond', 'writeBytesPerSecond', 'realtimeConnections', 'realtimeMessagesPerSecond'] as const
  await db.query(
    `INSERT INTO usage_samples (project_ref, at, disk_bytes, cpu_percent, memory_bytes, connections, read_bytes_per_second, write_bytes_per_second,
       realtime_connections, realtime_messages_per_second)
     SELECT r, now(), d, c, m, n, rb, wb, rc, rm
     FROM unnest($1::text[], $2::bigint[], $3::real[], $4::bigint[], $5::int[], $6::real[], $7::real[], $8::int[], $9::real[]) AS t(r, d, c, m, n, rb, wb, rc, rm)`,
    columns.map((column) => samples.map((sample) => sample[column])),
  )
}

/** Folds raw samples older than a day into 5-minute averages and drops what is past the retention. */
export async function maintainUsage(db: Db): Promise<void> {
  await db.query(
    `WITH old AS (
       DELETE FROM usage_samples WHERE bucket_seconds = 0 AND at < now() - interval '${RAW_KEPT}' RETURNING *
     )
     INSERT INTO usage_samples (project_ref, at, bucket_seconds, disk_bytes, cpu_percent, memory_bytes, connections, read_bytes_per_second, write_bytes_per_second,
       realtime_connections, realtime_messages_per_second)
     SELECT project_ref, to_timestamp(floor(extract(epoch FROM at) / ${BUCKET_SECONDS}) * ${BUCKET_SECONDS}), ${BUCKET_SECONDS},
       max(disk_bytes), avg(cpu_percent), avg(memory_bytes)::bigint, round(avg(connections))::int, avg(read_bytes_per_second), avg(write_bytes_per_second),
       max(realtime_connections), avg(realtime_messages_per_second)
     FROM old GROUP BY 1, 2`,
  )
  await db.query(`DELETE FROM usage_samples WHERE at < now() - interval '${RETENTION}'`)
}

const INTERVALS: Record<UsageInterval, { span: string; bucketSeconds: number }> = {
  '1h': { span: '1 hour', bucketSeconds: 0 },
  '1d': { span: '1 day', bucketSeconds: 60 },
  '7d': { span: '7 days', bucketSeconds: 1800 },
}

/** A project's series over the interval: raw points for the last hour, averaged into buckets beyond (a chart needs no more). */
export async function usageSeries(db: Queryable, ref: string, interval: UsageInterval): Promise<UsagePoint[]> {
  const { span, bucketSeconds } = INTERVALS[interval]
  const bucket = bucketSeconds ? `to_timestamp(floor(extract(epoch FROM at) / ${bucketSeconds}) * ${bucketSeconds})` : 'at'
  const { rows } = await db.query<{ at: Date } & Record<Exclude<keyof UsagePoint, 'at'>, string | number | null>>(
    `SELECT ${bucket} AS at, max(disk_bytes) AS disk_bytes, avg(cpu_percent) AS cpu_percent, avg(memory_bytes) AS memory_bytes,
       avg(connections) AS connections, avg(read_bytes_per_second) AS read_bytes_per_second, avg(write_bytes_per_second) AS write_bytes_per_second,
       max(realtime_connections) AS realtime_connections, avg(realtime_messages_per_second) AS realtime_messages_per_second
     FROM usage_samples WHERE project_ref = $1 AND at > now() - interval '${span}' GROUP BY 1 ORDER BY 1`,
    [ref],
  )
  const round = (value: string | number | null, digits = 0) => Number(Number(value ?? 0).toFixed(digits))
  return rows.map((row) => ({
    at: row.at.toISOString(),
    disk_bytes: round(row.disk_bytes),
    cpu_percent: round(row.cpu_percent, 2),
    memory_bytes: round(row.memory_bytes),
    connections: round(row.connections, 1),
    read_bytes_per_second: round(row.read_bytes_per_second),
    write_bytes_per_second: round(row.write_bytes_per_second),
    realtime_connections: round(row.realtime_connections),
    realtime_messages_per_second: round(row.realtime_messages_per_second, 1),
  }))
}

export interface UsageSummary {
  ref: string
  diskBytes: number | null
  cpuPercent: number
  memoryBytes: number
  ioBytesPerSecond: number
  /** Seconds the window's samples span: CPU, memory and IO warn only over a covered window. */
  coveredSeconds: number
}

/** Per project: the latest disk size and the averages over the sustained window. */
export async function usageSummaries(db: Queryable, refs: string[], windowMinutes: number): Promise<Map<string, UsageSummary>> {
  const { rows } = await db.query<{ ref: string; disk: string | null; cpu: number; mem: number; io: number; covered: number }>(
    `SELECT project_ref AS ref,
       (array_agg(disk_bytes ORDER BY at DESC) FILTER (WHERE disk_bytes IS NOT NULL))[1] AS disk,
       avg(cpu_percent)::float8 AS cpu, avg(memory_bytes)::float8 AS mem, avg(read_bytes_per_second + write_bytes_per_second)::float8 AS io,
       extract(epoch FROM max(at) - min(at))::float8 AS covered
     FROM usage_samples WHERE project_ref = ANY($1) AND bucket_seconds = 0 AND at > now() - make_interval(mins => $2)
     GROUP BY project_ref`,
    [refs, windowMinutes],
  )
  return new Map(
    rows.map((row) => [row.ref, { ref: row.ref, diskBytes: row.disk === null ? null : Number(row.disk), cpuPercent: row.cpu, memoryBytes: row.mem, ioBytesPerSecond: row.io, coveredSeconds: row.covered }]),
  )
}
