import path from 'node:path'
import type { ComputeSize, ProjectStatus } from '@stratum/contracts'
import { jwtSecretRotation } from '../../keys/rotation-job.js'
import { backupDirectory, findBackupByFile, recordBackup } from '../backups.js'
import { findProject, type ProjectRow } from '../project-store.js'
import { ProjectService } from '../projects.js'
import { logicalBackup } from './logical-backup.js'
import type { OperationContext, OperationDefinition, OperationStep } from './operation.js'
import type { OperationKind } from './operation-store.js'
import { upgrade } from './upgrade.js'
import { branchCreate, branchReset } from '../branching/branch-operations.js'
import { pitrBaseBackup, pitrRestore } from '../pitr/pitr-operations.js'

/**
 * The operations the runner knows: the project lifecycle here, the upgrade (upgrade.ts), the
 * daily logical backup (logical-backup.ts) and the JWT secret rotation (keys/rotation-job.ts).
 */

const stop: OperationStep = { name: 'stop', run: (ctx, project) => ctx.provider.stop(ProjectService.spec(project)) }
const start: OperationStep = { name: 'start', run: (ctx, project) => ctx.provider.ensureRunning(ProjectService.spec(project)) }
const verify: OperationStep = {
  name: 'verify',
  async run(ctx, project) {
    // A paused project made by an earlier version moves to the current role model when it is back.
    await ctx.projects.ensureRoleModel(project.ref)
    if (!(await ctx.provider.check(ProjectService.spec(project), ctx.projects.credentials(project)))) {
      throw new Error('The database did not accept connections after starting')
    }
  },
}

/** Back to a running instance on the project's recorded settings, if at all possible. */
async function backOnline(ctx: OperationContext, project: ProjectRow): Promise<ProjectStatus> {
  try {
    await ctx.provider.ensureRunning(ProjectService.spec(project))
    return (await ctx.provider.check(ProjectService.spec(project), ctx.projects.credentials(project))) ? 'ACTIVE_HEALTHY' : 'ACTIVE_UNHEALTHY'
  } catch {
    return 'ACTIVE_UNHEALTHY'
  }
}

const restart: OperationDefinition = {
  requestedStatus: 'RESTARTING',
  runningStatus: 'RESTARTING',
  steps: [stop, start, verify],
  succeededStatus: 'ACTIVE_HEALTHY',
  rollBack: (ctx, project) => backOnline(ctx, project),
}

/** Resize: the size's settings are written and applied with a restart. */
const resize: OperationDefinition = {
  requestedStatus: 'RESIZING',
  runningStatus: 'RESIZING',
  steps: [
    {
      name: 'record-size',
      async run(ctx, project, op) {
        await ctx.db.query('UPDATE projects SET compute_size = $2 WHERE ref = $1', [project.ref, op.params.compute_size])
      },
    },
    // Each step gets the project as stored now, so start applies the recorded size.
    stop,
    start,
    verify,
  ],
  succeededStatus: 'ACTIVE_HEALTHY',
  async rollBack(ctx, project, op) {
    await ctx.db.query('UPDATE projects SET compute_size = $2 WHERE ref = $1', [project.ref, op.params.previous_size as ComputeSize])
    const restored = (await findProject(ctx.db, project.ref))!
    await ctx.provider.stop(ProjectService.spec(restored)).catch(() => {})
    return backOnline(ctx, restored)
  },
}

/** Pause: stop, keep a physical backup of the data directory, mark the project paused. Data stays in place. */
const pause: OperationDefinition = {
  requestedStatus: 'GOING_DOWN',
  runningStatus: 'PAUSING',
  steps: [
    stop,
    {
      name: 'physical-backup',
      async run(ctx, project, op) {
        const file = path.join(backupDirectory(ctx.dataDir, project.ref), `${op.id}-physical.tar.gz`)
        if (await findBackupByFile(ctx.db, file)) return
        await ctx.provider.snapshot(ProjectService.spec(project), file)
        await recordBackup(ctx.db, { ref: project.ref, physical: true, file, major: project.postgres_major })
      },
    },
    {
      name: 'mark-paused',
      async run(ctx, project) {
        await ctx.db.query('UPDATE projects SET paused_at = now() WHERE ref = $1', [project.ref])
      },
    },
  ],
  succeededStatus: 'INACTIVE',
  // Nothing was deleted: the data directory is intact and the user can retry or restore.
  rollBack: async () => 'PAUSE_FAILED',
}

const restore: OperationDefinition = {
  requestedStatus: 'RESTORING',
  runningStatus: 'RESTORING',
  steps: [
    start,
    verify,
    {
      name: 'mark-restored',
      async run(ctx, project) {
        await ctx.db.query('UPDATE projects SET paused_at = NULL WHERE ref = $1', [project.ref])
      },
    },
  ],
  succeededStatus: 'ACTIVE_HEALTHY',
  async rollBack(ctx, project) {
    await ctx.provider.stop(ProjectService.spec(project)).catch(() => {})
    return 'RESTORE_FAILED'
  },
}

/**
 * Restore onto a newer installed major: the restore, then the upgrade's steps on the started
 * instance. If the upgrade part fails, its rollback leaves the project restored on its old major.
 */
const restoreOntoNewerMajor: OperationDefinition = {
  requestedStatus: 'RESTORING',
  runningStatus: 'RESTORING',
  steps: [...restore.steps, ...upgrade.steps.filter((step) => step.name !== 'start')],
  succeededStatus: 'ACTIVE_HEALTHY',
  async rollBack(ctx, project, op) {
    const upgrading = typeof op.params.progress === 'string' && op.params.progress !== '0_requested'
    return upgrading ? upgrade.rollBack(ctx, project, op) : restore.rollBack(ctx, project, op)
  },
}

export const OPERATIONS: Record<OperationKind, OperationDefinition> = {
  restart,
  resize,
  pause,
  restore,
  // Until the switch-over the live instance is untouched (read-only at most): a cancel rolls back.
  upgrade: { ...upgrade, cancellableUntil: 'switch-over' },
  logical_backup: logicalBackup,
  jwt_secret_rotation: jwtSecretRotation,
  branch_create: branchCreate,
  branch_reset: branchReset,
  pitr_restore: pitrRestore,
  pitr_base_backup: pitrBaseBackup,
}

/** The steps an operation runs: a restore that names a newer major also upgrades. */
export function definitionFor(kind: OperationKind, params: Record<string, unknown>): OperationDefinition {
  if (kind === 'restore' && params.target_major) return restoreOntoNewerMajor
  return OPERATIONS[kind]
}
