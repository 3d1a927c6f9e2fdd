import fs from 'node:fs'
import { findBackupByFile } from '../backups.js'
import { dumpLogicalBackup, logicalBackupFile, recordLogicalBackup } from '../logical-backups.js'
import type { ProjectRow } from '../project-store.js'
import type { OperationContext, OperationDefinition } from './operation.js'
import type { OperationRow } from './operation-store.js'

/** The operation's start names the file, so a dump resumed after a crash overwrites its own part. */
const fileOf = (ctx: OperationContext, project: ProjectRow, op: OperationRow) => logicalBackupFile(ctx.dataDir, project.ref, op.initiated_at)

/**
 * The daily logical backup of one project (runner.ts schedules one per active project). It holds
 * the project's instance lane, so no pause or upgrade stops the server under the dump; the
 * project's status does not change. Cancellable until the dump is recorded as a backup.
 */
export const logicalBackup: OperationDefinition = {
  steps: [
    { name: 'dump', run: (ctx, project, op) => dumpLogicalBackup(ctx, project, fileOf(ctx, project, op)) },
    {
      name: 'record',
      async run(ctx, project, op) {
        await recordLogicalBackup(ctx, project, fileOf(ctx, project, op))
      },
    },
  ],
  cancellableUntil: 'record',
  // A dump that was never recorded is only a partial file: delete it.
  async rollBack(ctx, project, op) {
    const file = fileOf(ctx, project, op)
    if (!(await findBackupByFile(ctx.db, file))) fs.rmSync(file, { force: true })
    return null
  },
}
