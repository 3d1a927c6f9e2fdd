import { z } from 'zod'
import { DISK_QUOTA_MAX_GB, DISK_QUOTA_MIN_GB, GB, USAGE_INTERVALS, type UsageInterval } from './values/usage.js'

export * from './values/usage.js'

export type ResourceLevel = 'critical' | 'warning' | null

/** The resource-warning usage record (platform-api-shapes: GET /platform/projects-resource-warnings), one per project. */
export interface ProjectResourceWarnings {
  project: string
  is_readonly_mode_enabled: boolean
  cpu_exhaustion: ResourceLevel
  disk_io_exhaustion: ResourceLevel
  disk_space_exhaustion: ResourceLevel
  memory_and_swap_exhaustion: ResourceLevel
  auth_email_offender: ResourceLevel
  auth_rate_limit_exhaustion: ResourceLevel
  auth_restricted_email_sending: ResourceLevel
  need_pitr: ResourceLevel
}


export const UsageQuery = z.object({
  interval: z.enum(USAGE_INTERVALS, { error: `interval must be one of ${USAGE_INTERVALS.join(', ')}` }).default('1h'),
})

/** One point of a project's usage series: averages over its bucket (raw samples in the last day, 5-minute averages before). */
export interface UsagePoint {
  at: string
  disk_bytes: number
  cpu_percent: number
  memory_bytes: number
  connections: number
  read_bytes_per_second: number
  write_bytes_per_second: number
  /** Realtime sockets connected (the most in the bucket). */
  realtime_connections: number
  /** Realtime frames to and from clients per second. */
  realtime_messages_per_second: number
}

export interface ProjectUsage {
  interval: UsageInterval
  disk_quota_bytes: number
  max_connections: number
  /** The instance's memory budget the memory percentage is measured against (its compute size). */
  memory_limit_bytes: number
  postgres_version: string
  readonly: ReadOnlyStatus
  points: UsagePoint[]
}

export const DiskQuotaBody = z.strictObject({
  size_gb: z
    .number({ error: 'size_gb must be a number of GB' })
    .int('size_gb must be a whole number of GB')
    .min(DISK_QUOTA_MIN_GB, `size_gb must be at least ${DISK_QUOTA_MIN_GB}`)
    .max(DISK_QUOTA_MAX_GB, `Disk size can be increased up to ${DISK_QUOTA_MAX_GB}GB`)
    .optional(),
  /** Exact bytes (tests and automation that need a quota a few MB above the current size). */
  size_bytes: z.number().int().min(1024 * 1024).max(DISK_QUOTA_MAX_GB * GB, `Disk size can be increased up to ${DISK_QUOTA_MAX_GB}GB`).optional(),
}).refine((body) => (body.size_gb === undefined) !== (body.size_bytes === undefined), { message: 'Give size_gb or size_bytes' })
export type DiskQuotaBody = z.infer<typeof DiskQuotaBody>

export interface DiskQuota {
  size_bytes: number
  used_bytes: number | null
  measured_at: string | null
}

/** GET /v1/projects/{ref}/readonly (the Management API's ReadOnlyStatusResponse). */
export interface ReadOnlyStatus {
  enabled: boolean
  override_enabled: boolean
  override_active_until: string
}

/**
 * What each compute size's usage is measured against (Supabase's figures for its sizes): CPU cores, memory and
 * the disk's sustained throughput. Locally no size is enforced by the OS; the warnings say when a project uses more
 * than its size would give it.
 */
export const RESOURCE_BUDGETS = {
  micro: { cpu_cores: 1, memory_bytes: 1 * GB, disk_io_bytes_per_second: 11 * 1024 ** 2 },
  small: { cpu_cores: 1, memory_bytes: 2 * GB, disk_io_bytes_per_second: 22 * 1024 ** 2 },
  medium: { cpu_cores: 2, memory_bytes: 4 * GB, disk_io_bytes_per_second: 43 * 1024 ** 2 },
  large: { cpu_cores: 2, memory_bytes: 8 * GB, disk_io_bytes_per_second: 79 * 1024 ** 2 },
} as const

/** Thresholds of the resource warnings (documented in the README): ratios of the quota or budget. */
export const RESOURCE_THRESHOLDS = {
  disk_space: { warning: 0.8, critical: 0.9 },
  cpu: { warning: 0.8, critical: 0.95 },
  memory_and_swap: { warning: 0.9, critical: 1 },
  disk_io: { warning: 0.8, critical: 1 },
  auth_email_rate_limit: { warning: 0.8, critical: 1 },
  /** CPU, memory and disk IO warn only when sustained: their average over this window, which samples must cover half of. */
  sustained_window_minutes: 10,
} as const
