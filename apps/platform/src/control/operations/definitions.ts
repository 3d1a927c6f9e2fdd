import path from 'node:path'
import type { ComputeSize, ProjectStatus } from '@stratum/contracts'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../store/db.js'
import { backupDirectory, findBackupByFile, recordBackup } from '../backups.js'
import type { InstanceProvider } from '../instance-provider.js'
import { findProject, setProjectStatus, type ProjectRow } from '../project-store.js'
import { ProjectService } from '../projects.js'
import type { OperationKind, OperationRow } from './operation-store.js'
import { upgrade } from './upgrade.js'

export interface OperationContext {
  db: Db
  provider: InstanceProvider
  projects: ProjectService
  dataDir: string
  log: FastifyBaseLogger
}

export interface OperationStep {
  name: string
  /** Merged into the operation's params once the step completes (e.g. the upgrade's progress code). */
  marks?: Record<string, unknown>
  /** Merged into the params when the step fails (e.g. the upgrade's error code). */
  failureMarks?: Record<string, unknown>
  /** Must be idempotent: a resumed operation may run the step it was in when the platform died. */
  run(ctx: OperationContext, project: ProjectRow, op: OperationRow): Promise<void>
}

export interface OperationDefinition {
  /** The status set when the request is accepted (before a worker picks the job up). */
  requestedStatus: ProjectStatus
  /** The status while the steps run. */
  runningStatus: ProjectStatus
  steps: OperationStep[]
  succeededStatus: ProjectStatus
  /** Puts the project back in a safe state after a failed step; returns the status to show. */
  rollBack(ctx: OperationContext, project: ProjectRow, op: OperationRow): Promise<ProjectStatus>
}

const stop: OperationStep = { name: 'stop', run: (ctx, project) => ctx.provider.stop(ProjectService.spec(project)) }
const start: OperationStep = { name: 'start', run: (ctx, project) => ctx.provider.ensureRunning(ProjectService.spec(project)) }
const verify: OperationStep = {
  name: 'verify',
  async run(ctx, project) {
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

export const OPERATIONS: Partial<Record<OperationKind, OperationDefinition>> = { restart, resize, pause, restore, upgrade }

/** The steps an operation runs: a restore that names a newer major also upgrades. */
export function definitionFor(kind: OperationKind, params: Record<string, unknown>): OperationDefinition | undefined {
  if (kind === 'restore' && params.target_major) return restoreOntoNewerMajor
  return OPERATIONS[kind]
}

export async function setStatus(ctx: OperationContext, ref: string, status: ProjectStatus, reason: string | null = null): Promise<void> {
  await setProjectStatus(ctx.db, ref, status, { reason })
}
