/** Plain values of the usage domain, no zod: the dashboard reads them on every project page (see the contracts README). */

/** The project shell spec's limits: a disk can be increased up to 200GB; read-only mode needs it below 95 percent. */
export const DISK_QUOTA_MAX_GB = 200
export const DISK_QUOTA_MIN_GB = 1
export const DEFAULT_DISK_QUOTA_GB = 8
export const GB = 1024 ** 3
export const READONLY_THRESHOLD = 0.95
/** How long POST /v1/projects/{ref}/readonly/temporary-disable lets writes through (the Management API's 15 minutes). */
export const READONLY_OVERRIDE_MINUTES = 15

export const USAGE_METRICS = ['disk', 'cpu', 'memory', 'connections', 'disk_io'] as const
export type UsageMetric = (typeof USAGE_METRICS)[number]
export const USAGE_INTERVALS = ['1h', '1d', '7d'] as const
export type UsageInterval = (typeof USAGE_INTERVALS)[number]
