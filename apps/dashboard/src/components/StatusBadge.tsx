import type { ProjectStatus } from '@stratum/contracts'
import { Badge, type BadgeTone } from './ui/Badge'

const LOOK: Record<ProjectStatus, { label: string; tone: BadgeTone; pulse?: boolean }> = {
  ACTIVE_HEALTHY: { label: 'Healthy', tone: 'success' },
  ACTIVE_UNHEALTHY: { label: 'Unhealthy', tone: 'danger' },
  COMING_UP: { label: 'Coming up', tone: 'info', pulse: true },
  UNKNOWN: { label: 'Initiating', tone: 'info', pulse: true },
  INACTIVE: { label: 'Paused', tone: 'neutral' },
  GOING_DOWN: { label: 'Pausing', tone: 'warning', pulse: true },
  PAUSING: { label: 'Pausing', tone: 'warning', pulse: true },
  PAUSE_FAILED: { label: 'Pause failed', tone: 'danger' },
  RESTARTING: { label: 'Restarting', tone: 'warning', pulse: true },
  RESIZING: { label: 'Resizing', tone: 'warning', pulse: true },
  UPGRADING: { label: 'Upgrading', tone: 'warning', pulse: true },
  RESTORING: { label: 'Restoring', tone: 'warning', pulse: true },
  RESTORE_FAILED: { label: 'Restore failed', tone: 'danger' },
  INIT_FAILED: { label: 'Setup failed', tone: 'danger' },
  REMOVED: { label: 'Removed', tone: 'neutral' },
}

export function statusLabel(status: ProjectStatus): string {
  return LOOK[status]?.label ?? status
}

/**
 * The project's status in words. data-status carries the exact API value for tests and
 * the title shows it on hover for people who know the Management API's names.
 */
export function StatusBadge({ status }: { status: ProjectStatus }) {
  const look = LOOK[status] ?? { label: status, tone: 'neutral' as const }
  return (
    <Badge tone={look.tone} dot={look.pulse ? 'pulse' : true} data-testid="project-status" data-status={status} title={status}>
      {look.label}
    </Badge>
  )
}
