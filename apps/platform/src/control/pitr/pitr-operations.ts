import type { ProjectStatus } from '@stratum/contracts'
import { withAdminClient } from '../bootstrap-roles.js'
import type { OperationContext, OperationDefinition } from '../operations/operation.js'
import type { OperationRow } from '../operations/operation-store.js'
import type { ProjectRow } from '../project-store.js'
import { ProjectService } from '../projects.js'
import { walArchiveDir } from './archive-paths.js'
import { archiveThrough, baseBackupFor, finishRecovery, takeBaseBackup } from './archive-restore.js'

/**
 * The PITR jobs, on the one operation runner. A restore in place (status RESTORING): the archive gets
 * the newest WAL, the instance stops and its data is set aside, new data is built from the base backup
 * before the target and recovers up to it at its start, then the set-aside data is dropped. Until that
 * last step a failure (or kill -9 and a failed resume) puts the old data back. A base backup is an
 * online copy that leaves the status alone.
 */

const targetOf = (op: OperationRow) => new Date(String(op.params.recovery_time_target))

export const pitrRestore: OperationDefinition = {
  requestedStatus: 'RESTORING',
  runningStatus: 'RESTORING',
  steps: [
    {
      name: 'archive-tail',
      async run(ctx, project, op) {
        // Fails before anything is touched when no backup covers the target.
        await baseBackupFor(ctx.db, project, targetOf(op))
        await archiveThrough(ctx, project)
      },
    },
    { name: 'set-aside', run: (ctx, project) => ctx.provider.setAsideData(ProjectService.spec(project)) },
    {
      name: 'rebuild',
      async run(ctx, project, op) {
        if (ctx.provider.liveMajor(project.ref)) return
        const base = await baseBackupFor(ctx.db, project, targetOf(op))
        await ctx.provider.buildFromArchive(ProjectService.spec(project), {
          baseBackupDir: base.directory,
          walDir: walArchiveDir(ctx.dataDir, project.ref),
          startWalFile: base.start_wal_file,
          target: targetOf(op),
        })
      },
    },
    { name: 'start', run: (ctx, project) => ctx.provider.ensureRunning(ProjectService.spec(project)) },
    {
      name: 'recovered',
      async run(ctx, project) {
        await finishRecovery(ctx, project, ctx.projects.credentials(project).adminPassword)
      },
    },
    { name: 'drop-previous', run: (ctx, project) => ctx.provider.dropSetAside(ProjectService.spec(project)) },
  ],
  succeededStatus: 'ACTIVE_HEALTHY',
  async rollBack(ctx, project): Promise<ProjectStatus> {
    const spec = ProjectService.spec(project)
    try {
      await ctx.provider.bringBackSetAside(spec)
      await ctx.provider.ensureRunning(spec)
      return (await ctx.provider.check(spec, ctx.projects.credentials(project))) ? 'ACTIVE_HEALTHY' : 'RESTORE_FAILED'
    } catch {
      return 'RESTORE_FAILED'
    }
  },
}

export const pitrBaseBackup: OperationDefinition = {
  steps: [{ name: 'base-backup', run: (ctx: OperationContext, project: ProjectRow) => takeBaseBackup(ctx, project) }],
  rollBack: async () => null,
}

/** True when the instance runs with WAL archiving on (the add-on's restart has happened). */
export async function archivingOn(ctx: OperationContext, project: ProjectRow): Promise<boolean> {
  return withAdminClient(ctx.projects.adminConnection(project), async (client) => {
    const { rows } = await client.query<{ mode: string }>(`SELECT current_setting('archive_mode') AS mode`)
    return rows[0]?.mode === 'on'
  }).catch(() => false)
}
