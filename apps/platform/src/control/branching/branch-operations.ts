import type { ProjectStatus } from '@stratum/contracts'
import type { OperationContext, OperationDefinition, OperationStep } from '../operations/operation.js'
import type { OperationRow } from '../operations/operation-store.js'
import { findProject, type ProjectRow } from '../project-store.js'
import { ProjectService } from '../projects.js'
import { copyStorageFiles, emptyBranchTables, giveBranchItsOwnRoles } from './branch-data.js'
import { applyBranchMigrations } from './branch-migrations.js'
import { copyParentSettings } from './branch-settings.js'
import { setBranchStatus } from './branch-store.js'
import { readProjectSnapshot, recordBranchBase } from './schema-merge.js'
import { copyFromArchive, finishRecovery } from '../pitr/archive-restore.js'

/**
 * The branch jobs, run by the one operation runner on the branch's own project (its status shows
 * COMING_UP meanwhile): create copies the parent physically and online (or from the WAL archive at a
 * moment), starts the copy, gives it its own roles, takes the parent's edge functions, secrets and auth
 * settings, empties its tables unless data was asked for, records its schema as copied (the base of later merges), and applies the linked Git branch's migrations. Reset discards the branch's data and does the same again
 * from the parent's current state. Every step is idempotent: after kill -9 the runner resumes at the
 * step it was in.
 */

export interface BranchOperationParams {
  branch_id: string
  parent_ref: string
  with_data: boolean
  /** ISO time: copy the parent as it was then, from its WAL archive (PITR add-on). */
  recovery_time_target?: string
  /** Migrations of the branch itself to apply again after a reset (migration_version), oldest first. */
  replay?: { version: string; name: string | null; statements: string[] }[]
}

const paramsOf = (op: OperationRow) => op.params as unknown as BranchOperationParams

async function parentOf(ctx: OperationContext, op: OperationRow): Promise<ProjectRow> {
  const parent = await findProject(ctx.db, paramsOf(op).parent_ref)
  if (!parent) throw new Error('The parent project no longer exists')
  return parent
}

const copy: OperationStep = {
  name: 'copy',
  async run(ctx, branch, op) {
    // A whole copy is in place (the data directory appears only once complete): nothing to do again.
    if (ctx.provider.liveMajor(branch.ref)) return
    const parent = await parentOf(ctx, op)
    const params = paramsOf(op)
    if (params.recovery_time_target) {
      await copyFromArchive(ctx, parent, branch, new Date(params.recovery_time_target))
    } else {
      if (parent.status !== 'ACTIVE_HEALTHY') throw new Error(`The parent project is ${parent.status}: a branch is copied from a running project`)
      const { method } = await ctx.provider.cloneRunning(ProjectService.spec(parent), ctx.projects.credentials(parent).adminPassword, ProjectService.spec(branch))
      ctx.log.info({ ref: branch.ref, parent: parent.ref, method }, 'branch copied')
    }
    if (params.with_data) await copyStorageFiles(ctx.dataDir, parent.ref, branch.ref)
  },
}

const start: OperationStep = { name: 'start', run: (ctx, branch) => ctx.provider.ensureRunning(ProjectService.spec(branch)) }

const ownRoles: OperationStep = {
  name: 'own-roles',
  async run(ctx, branch, op) {
    // Waits for the end of the copy's recovery (a point-in-time copy replays the archive up to its moment).
    await giveBranchItsOwnRoles(ctx.projects, branch, await parentOf(ctx, op))
    await finishRecovery(ctx, branch, ctx.projects.credentials(branch).adminPassword)
  },
}

/** The parent's edge functions, their secrets and its auth settings (a branch answers like its parent). */
const settings: OperationStep = {
  name: 'settings',
  run: (ctx, branch, op) => copyParentSettings(ctx.db, ctx.dataDir, paramsOf(op).parent_ref, branch.ref),
}

const data: OperationStep = {
  name: 'data',
  async run(ctx, branch, op) {
    if (!paramsOf(op).with_data) await emptyBranchTables(ctx.projects, branch)
  },
}

/**
 * The branch's schema as copied, before any migration of its own: the common ancestor a merge compares
 * both sides with (schema-merge.ts). Idempotent: a resumed step records it again, still before the migrations.
 */
const schemaBase: OperationStep = {
  name: 'schema-base',
  async run(ctx, branch, op) {
    await recordBranchBase(ctx.db, paramsOf(op).branch_id, await readProjectSnapshot(ctx.projects, branch))
  },
}

const migrations: OperationStep = {
  name: 'migrations',
  async run(ctx, branch, op) {
    const params = paramsOf(op)
    await setBranchStatus(ctx.db, params.branch_id, 'RUNNING_MIGRATIONS')
    const failure = await applyBranchMigrations(ctx, branch, params.branch_id, params.replay ?? [])
    // A failing migration does not undo the branch: it stays up, its status and message say what failed.
    await setBranchStatus(ctx.db, params.branch_id, failure ? 'MIGRATIONS_FAILED' : 'MIGRATIONS_PASSED', failure)
  },
}

/** A copy that failed leaves nothing half-made behind: the data goes, the branch says why. */
async function rollBackCopy(ctx: OperationContext, branch: ProjectRow, op: OperationRow): Promise<ProjectStatus> {
  await ctx.provider.discardData(ProjectService.spec(branch)).catch(() => {})
  await setBranchStatus(ctx.db, paramsOf(op).branch_id, 'MIGRATIONS_FAILED', op.error ?? 'The branch could not be created')
  return 'INIT_FAILED'
}

export const branchCreate: OperationDefinition = {
  requestedStatus: 'COMING_UP',
  runningStatus: 'COMING_UP',
  steps: [copy, start, ownRoles, settings, data, schemaBase, migrations],
  succeededStatus: 'ACTIVE_HEALTHY',
  rollBack: rollBackCopy,
}

export const branchReset: OperationDefinition = {
  requestedStatus: 'COMING_UP',
  runningStatus: 'COMING_UP',
  steps: [
    {
      name: 'discard',
      async run(ctx, branch, op) {
        await setBranchStatus(ctx.db, paramsOf(op).branch_id, 'CREATING_PROJECT')
        await ctx.provider.discardData(ProjectService.spec(branch))
      },
    },
    copy,
    start,
    ownRoles,
    data,
    schemaBase,
    migrations,
  ],
  succeededStatus: 'ACTIVE_HEALTHY',
  rollBack: rollBackCopy,
}
