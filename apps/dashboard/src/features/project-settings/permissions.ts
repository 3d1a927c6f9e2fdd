import type { ProjectStatus } from '@stratum/contracts'
import { statusLabel } from '../../components/StatusBadge'

/** Texts for roles without infrastructure.execute (owners and administrators hold it). */
export const INFRASTRUCTURE_TEXTS = {
  restart: 'You need additional permissions to restart this project',
  pause: 'You need additional permissions to pause this project',
  resize: 'You need additional permissions to resize this project',
} as const

const RUNNING: ProjectStatus[] = ['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY']

/** Why an operation on the running instance cannot start now, or undefined when it can. */
export function notRunningReason(status: ProjectStatus): string | undefined {
  if (RUNNING.includes(status)) return undefined
  if (status === 'INACTIVE') return 'The project is paused: restore it first'
  return `Not available while the project is ${statusLabel(status).toLowerCase()}`
}
