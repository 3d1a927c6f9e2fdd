import { nextRunOf, parseCronSchedule } from '@stratum/contracts'
import { Badge, type BadgeTone } from '../../components/ui/Badge'

const TONES: Record<string, BadgeTone> = { succeeded: 'success', failed: 'danger', running: 'info', starting: 'info' }

/** pg_cron's run statuses as badges: succeeded, failed, starting, running. */
export function RunStatus({ status }: { status: string }) {
  return (
    <Badge tone={TONES[status] ?? 'neutral'} dot>
      {status}
    </Badge>
  )
}

/** A timestamp in the viewer's locale and zone; an em dash when there is none. */
export function formatTime(value: string | null | Date, now = new Date()): string {
  if (!value) return '—'
  const date = new Date(value)
  // Within a day of now the time says enough (runs every few seconds): the table stays narrow.
  if (Math.abs(date.getTime() - now.getTime()) < 86_400_000) return date.toLocaleTimeString(undefined, { timeStyle: 'medium' })
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** When an active job runs next, as the platform's scheduler will (interval jobs count from their last start). */
export function nextRunText(schedule: string, active: boolean, lastStart: string | null, now = new Date()): string {
  if (!active) return 'Paused'
  const parsed = parseCronSchedule(schedule)
  if (!parsed) return 'Invalid schedule'
  if (parsed.kind === 'reboot') return 'When the database starts'
  const next = nextRunOf(parsed, now, lastStart ? new Date(lastStart) : null)
  if (!next) return 'Never'
  return next.getTime() - now.getTime() < 1000 ? 'Now' : formatTime(next)
}
