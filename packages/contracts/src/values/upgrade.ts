/**
 * Major-version upgrade: status codes, progress and error codes, and the steps the progress screen shows.
 * Plain values only, no zod: the dashboard imports these without the schemas (see the contracts README).
 */

/**
 * Major-version upgrade status, in the Management API's shape (DatabaseUpgradeStatusResponse).
 * status: 0 Upgrading, 1 Upgraded, 2 Failed (the same numbering as the JWT secret update status).
 */
export const UPGRADE_STATUS = { Upgrading: 0, Upgraded: 1, Failed: 2 } as const

export const UPGRADE_PROGRESS = [
  '0_requested',
  '1_started',
  '2_launched_upgraded_instance',
  '3_detached_volume_from_upgraded_instance',
  '4_attached_volume_to_original_instance',
  '5_initiated_data_upgrade',
  '6_completed_data_upgrade',
  '7_detached_volume_from_original_instance',
  '8_attached_volume_to_upgraded_instance',
  '9_completed_upgrade',
  '10_completed_post_physical_backup',
] as const
export type UpgradeProgress = (typeof UPGRADE_PROGRESS)[number]

export const UPGRADE_ERRORS = [
  '1_upgraded_instance_launch_failed',
  '2_volume_detachchment_from_upgraded_instance_failed',
  '3_volume_attachment_to_original_instance_failed',
  '4_data_upgrade_initiation_failed',
  '5_data_upgrade_completion_failed',
  '6_volume_detachchment_from_original_instance_failed',
  '7_volume_attachment_to_upgraded_instance_failed',
  '8_upgrade_completion_failed',
  '9_post_physical_backup_failed',
] as const
export type UpgradeError = (typeof UPGRADE_ERRORS)[number]

/**
 * The 8 steps of the upgrade progress screen, in order. Step i (0-based) is complete once the
 * progress code reaches UPGRADE_PROGRESS[i + 2]; after '9_completed_upgrade' the full backup runs.
 */
export const UPGRADE_STEPS = [
  'Prepare new server',
  'Prepare new server for migration',
  'Execute pre-upgrade checks',
  'Shut down API services',
  'Migrate to new database',
  'Execute database migration',
  'Update database extensions',
  'Optimize database',
] as const

/** Each step's wording before it starts, while it runs and once done (the spec: initial, in-progress, completed). */
export const UPGRADE_STEP_TEXTS: Record<(typeof UPGRADE_STEPS)[number], { initial: string; active: string; done: string }> = {
  'Prepare new server': { initial: 'Prepare new server', active: 'Preparing new server…', done: 'Prepared new server' },
  'Prepare new server for migration': {
    initial: 'Prepare new server for migration',
    active: 'Preparing new server for migration…',
    done: 'Prepared new server for migration',
  },
  'Execute pre-upgrade checks': { initial: 'Execute pre-upgrade checks', active: 'Executing pre-upgrade checks…', done: 'Executed pre-upgrade checks' },
  'Shut down API services': { initial: 'Shut down API services', active: 'Shutting down API services…', done: 'Shut down API services' },
  'Migrate to new database': { initial: 'Migrate to new database', active: 'Migrating to new database…', done: 'Migrated to new database' },
  'Execute database migration': { initial: 'Execute database migration', active: 'Executing database migration…', done: 'Executed database migration' },
  'Update database extensions': { initial: 'Update database extensions', active: 'Updating database extensions…', done: 'Updated database extensions' },
  'Optimize database': { initial: 'Optimize database', active: 'Optimizing database…', done: 'Optimized database' },
}

export function completedUpgradeSteps(progress: UpgradeProgress | undefined): number {
  if (!progress) return 0
  return Math.max(0, Math.min(UPGRADE_STEPS.length, UPGRADE_PROGRESS.indexOf(progress) - 1))
}
