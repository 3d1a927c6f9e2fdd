import { DISK_QUOTA_MAX_GB, type ProjectResourceWarnings, type ResourceLevel } from '@stratum/contracts'

/** The alert kinds of the project shell spec: read-only mode, disk IO, disk space, CPU, memory and swap, auth email rate limit, multiple resources. */
export type AlertKind = 'readonly' | 'disk_io' | 'disk_space' | 'cpu' | 'memory_and_swap' | 'auth_email_rate_limit' | 'multiple_resources'

interface Message {
  title: Record<'warning' | 'critical', string>
  description: Record<'warning' | 'critical', string>
  /** Where the button leads, under /project/{ref}. */
  to: string
  button: string
  /** Shown only on these routes (prefixes under /project/{ref}); elsewhere the banner hides. */
  restrictToRoutes?: string[]
}

// The spec names the kinds but shows no texts: these say what happened and the way out, in Supabase's manner.
export const MESSAGES: Record<AlertKind, Message> = {
  readonly: {
    title: {
      warning: 'Project is in read-only mode and database is no longer accepting write requests',
      critical: 'Project is in read-only mode and database is no longer accepting write requests',
    },
    description: {
      warning: `Your disk has reached 95% of its size and read-only mode has been enabled to keep the database stable. Increase the disk size (up to ${DISK_QUOTA_MAX_GB}GB) or delete data during a temporary override to leave read-only mode.`,
      critical: `Your disk has reached 95% of its size and read-only mode has been enabled to keep the database stable. Increase the disk size (up to ${DISK_QUOTA_MAX_GB}GB) or delete data during a temporary override to leave read-only mode.`,
    },
    to: '/settings/compute-and-disk',
    button: 'Increase disk size',
  },
  disk_io: {
    title: { warning: 'Your project is about to deplete its Disk IO Budget', critical: 'Your project has depleted its Disk IO Budget' },
    description: {
      warning: 'Your disk reads and writes are close to what your compute size sustains. Queries may slow down when the budget runs out.',
      critical: 'Your disk reads and writes exceed what your compute size sustains: queries are slowing down. Optimize your queries or upgrade your compute size.',
    },
    to: '/infrastructure',
    button: 'Check usage',
  },
  disk_space: {
    title: { warning: 'Your project is about to exhaust its available disk space', critical: 'Your project is close to going read-only: its disk is almost full' },
    description: {
      warning: `Your database uses over 80% of its disk. You can increase the disk size up to ${DISK_QUOTA_MAX_GB}GB.`,
      critical: `Your database uses over 90% of its disk. At 95% the project goes read-only. You can increase the disk size up to ${DISK_QUOTA_MAX_GB}GB.`,
    },
    to: '/settings/compute-and-disk',
    button: 'Increase disk size',
  },
  cpu: {
    title: { warning: 'Your project is running high on CPU', critical: 'Your project is exhausting its CPU' },
    description: {
      warning: 'Your database has been using over 80% of its CPU for a while. Performance may degrade.',
      critical: 'Your database has been using almost all of its CPU for a while: queries are slowing down. Optimize your queries or upgrade your compute size.',
    },
    to: '/infrastructure',
    button: 'Check usage',
  },
  memory_and_swap: {
    title: { warning: 'Your project is running high on memory', critical: 'Your project is exhausting its memory and swap' },
    description: {
      warning: 'Your database has been using over 90% of its memory for a while. Performance may degrade.',
      critical: 'Your database uses all of its memory: it may become unresponsive. Optimize your queries or upgrade your compute size.',
    },
    to: '/infrastructure',
    button: 'Check usage',
  },
  auth_email_rate_limit: {
    title: { warning: 'Your project is close to its email rate limit', critical: 'Your project has exceeded its email rate limit' },
    description: {
      warning: 'Auth has sent over 80% of the emails it may send this hour. Set up your own SMTP server or raise the limit.',
      critical: 'Auth refuses to send more emails this hour. Set up your own SMTP server or raise the limit.',
    },
    to: '/auth/rate-limits',
    button: 'Check rate limits',
    restrictToRoutes: ['/auth'],
  },
  multiple_resources: {
    title: { warning: 'Your project is about to exhaust multiple resources', critical: 'Your project is exhausting multiple resources' },
    description: {
      warning: 'Several of your project\'s resources are running high. Performance may degrade.',
      critical: 'Several of your project\'s resources are exhausted: queries are slowing down. Check your usage or upgrade your compute size.',
    },
    to: '/infrastructure',
    button: 'Check usage',
  },
}

const METRICS: [Exclude<AlertKind, 'readonly' | 'multiple_resources'>, keyof ProjectResourceWarnings][] = [
  ['disk_io', 'disk_io_exhaustion'],
  ['disk_space', 'disk_space_exhaustion'],
  ['cpu', 'cpu_exhaustion'],
  ['memory_and_swap', 'memory_and_swap_exhaustion'],
  ['auth_email_rate_limit', 'auth_rate_limit_exhaustion'],
]

/** The one alert to show for a record: read-only first, then one metric, or "multiple resources" when several are set. */
export function alertOf(record: ProjectResourceWarnings | undefined): { kind: AlertKind; level: 'warning' | 'critical' } | null {
  if (!record) return null
  if (record.is_readonly_mode_enabled) return { kind: 'readonly', level: 'critical' }
  const set = METRICS.map(([kind, field]) => ({ kind, level: record[field] as ResourceLevel })).filter((metric) => metric.level)
  if (!set.length) return null
  const level = set.some((metric) => metric.level === 'critical') ? 'critical' : 'warning'
  return set.length > 1 ? { kind: 'multiple_resources', level } : { kind: set[0]!.kind, level }
}

/**
 * The banner's visibility rules (API docs and assistant spec): hidden with no warning; on the usage and
 * infrastructure pages unless read-only; on compute-and-disk when read-only; when restricted to other routes.
 */
export function bannerVisible(alert: ReturnType<typeof alertOf>, route: string): boolean {
  if (!alert) return false
  const readonly = alert.kind === 'readonly'
  const on = (prefix: string) => route === prefix || route.startsWith(`${prefix}/`)
  if (!readonly && (on('/usage') || on('/infrastructure') || on('/settings/infrastructure'))) return false
  if (readonly && on('/settings/compute-and-disk')) return false
  const restricted = MESSAGES[alert.kind].restrictToRoutes
  return !restricted || restricted.some(on)
}
