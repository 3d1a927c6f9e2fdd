import { randomBytes, randomUUID } from 'node:crypto'
import { BRANCHING_MIN_POSTGRES_MAJOR, DEFAULT_PRODUCTION_BRANCH_NAME, type CreateBranchBody } from '@stratum/contracts'
import type { Db, Queryable } from '../../store/db.js'
import type { OperationRunner } from '../operations/runner.js'
import { findProject, newProjectRef, type ProjectRow } from '../project-store.js'
import type { ProjectService } from '../projects.js'
import type { SecretBox } from '../secret-box.js'
import type { BranchOperationParams } from './branch-operations.js'
import { applyMigrations, migrationsMissing, withHistory, type PortableMigration } from './branch-migrations.js'
import { diffText, mergePlan } from './schema-merge.js'
import { findBranch, findBranchByName, listBranches, type BranchRow } from './branch-store.js'
import { conflict, invalidInput, notFound } from '../../errors.js'

const newSecret = () => randomBytes(24).toString('hex')

/**
 * Branching: the production branch (a row marking branching enabled on a project) and preview branches,
 * each a project of its own made by the branch_create job (branch-operations.ts). Permission checks are
 * the routes'; the rules here are the product's (plan, version, names, states).
 */
export class BranchService {
  constructor(
    private readonly db: Db,
    private readonly projects: ProjectService,
    private readonly operations: OperationRunner,
    private readonly secrets: SecretBox,
  ) {}

  list(parent: ProjectRow): Promise<BranchRow[]> {
    return listBranches(this.db, parent.ref)
  }

  async enable(parent: ProjectRow, name: string, gitBranch: string | undefined): Promise<BranchRow> {
    await this.assertCanBranch(parent)
    const existing = (await listBranches(this.db, parent.ref)).find((branch) => branch.is_default)
    if (existing) throw conflict('Branching is already enabled for this project')
    await this.insertProductionBranch(this.db, parent, name, gitBranch)
    return (await findBranchByName(this.db, parent.ref, name))!
  }

  /** Records a preview branch and its project, and queues the copy; answers at once (status CREATING_PROJECT). */
  async create(parent: ProjectRow, body: CreateBranchBody, userId: string | null): Promise<BranchRow> {
    await this.assertCanBranch(parent)
    if (parent.status !== 'ACTIVE_HEALTHY') throw conflict(`A branch is copied from a running project; this one is ${parent.status}`)
    const target = body.recovery_time_target_unix !== undefined ? new Date(body.recovery_time_target_unix * 1000) : null
    if (target && !parent.pitr_variant) throw invalidInput('A branch from a point in time needs the PITR add-on')
    if (await findBranchByName(this.db, parent.ref, body.branch_name)) throw conflict(`A branch named ${body.branch_name} already exists`)
    const branchRef = newProjectRef()
    const branchId = randomUUID()
    const params: BranchOperationParams = {
      branch_id: branchId,
      parent_ref: parent.ref,
      with_data: body.with_data ?? false,
      ...(target ? { recovery_time_target: target.toISOString() } : {}),
    }
    await this.operations.request(branchRef, 'branch_create', { ...params }, userId, {
      // The branch's project and row exist before its job, in the same transaction: no crash leaves one without the other.
      prepare: async (tx) => {
        const hasProduction = (await listBranches(tx, parent.ref)).some((branch) => branch.is_default)
        if (!hasProduction) await this.insertProductionBranch(tx, parent, DEFAULT_PRODUCTION_BRANCH_NAME, undefined)
        await this.insertBranchProject(tx, parent, branchRef, body.branch_name)
        await tx.query(
          `INSERT INTO branches (id, parent_project_ref, project_ref, name, git_branch, persistent, with_data, recovery_time_target)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [branchId, parent.ref, branchRef, body.branch_name, body.git_branch ?? null, body.persistent ?? false, body.with_data ?? false, target],
        )
      },
    })
    return (await findBranch(this.db, branchId))!
  }

  async update(branch: BranchRow, changes: { branch_name?: string; git_branch?: string; persistent?: boolean }): Promise<BranchRow> {
    if (changes.branch_name && changes.branch_name !== branch.name && (await findBranchByName(this.db, branch.parent_project_ref, changes.branch_name))) {
      throw conflict(`A branch named ${changes.branch_name} already exists`)
    }
    await this.db.query(
      `UPDATE branches SET name = coalesce($2, name), git_branch = coalesce($3, git_branch), persistent = coalesce($4, persistent), updated_at = now() WHERE id = $1`,
      [branch.id, changes.branch_name ?? null, changes.git_branch ?? null, changes.persistent ?? null],
    )
    return (await findBranch(this.db, branch.id))!
  }

  /** Back to the parent's current state; with a migration version, the branch's own migrations up to it are applied again. */
  async reset(branch: BranchRow, migrationVersion: string | undefined, userId: string | null): Promise<string> {
    this.assertPreview(branch, 'reset')
    const [parent, project] = await Promise.all([findProject(this.db, branch.parent_project_ref), findProject(this.db, branch.project_ref)])
    if (!parent || !project) throw notFound('The branch or its parent no longer exists')
    if (parent.status !== 'ACTIVE_HEALTHY') throw conflict(`A branch is reset from a running parent; it is ${parent.status}`)
    let replay: PortableMigration[] = []
    if (migrationVersion !== undefined) {
      replay = (await migrationsMissing(this.projects, project, parent)).filter((row) => /^\d+$/.test(row.version) && BigInt(row.version) <= BigInt(migrationVersion))
    }
    const params: BranchOperationParams = { branch_id: branch.id, parent_ref: parent.ref, with_data: branch.with_data, replay }
    const op = await this.operations.request(branch.project_ref, 'branch_reset', { ...params }, userId)
    return op.id
  }

  /**
   * Merge: the branch's migrations that its parent lacks, in order, then the branch's other schema changes
   * (schema-merge.ts), in one transaction on the parent; objects both sides changed are refused as conflicts.
   */
  async merge(branch: BranchRow): Promise<number> {
    this.assertPreview(branch, 'merge')
    const { parent, project } = await this.pair(branch)
    const missing = await migrationsMissing(this.projects, project, parent)
    const plan = await mergePlan(this.projects, this.db, { branchId: branch.id, parent, branch: project }, missing, true)
    return plan.migrations.length + plan.schema.statements.length
  }

  /** Push (the MCP server's rebase): the parent's migrations the branch lacks are applied to the branch. */
  async push(branch: BranchRow): Promise<number> {
    this.assertPreview(branch, 'update')
    const { parent, project } = await this.pair(branch)
    const missing = await migrationsMissing(this.projects, parent, project)
    const failure = await applyMigrations(this.projects, project, missing, 'push from the parent')
    if (failure) throw invalidInput(failure)
    return missing.length
  }

  /** The branch's schema changes its parent does not have yet: its own migrations, then its other changes, as SQL. */
  async diff(branch: BranchRow): Promise<string> {
    this.assertPreview(branch, 'compare')
    const { parent, project } = await this.pair(branch)
    const missing = await migrationsMissing(this.projects, project, parent)
    return diffText(await mergePlan(this.projects, this.db, { branchId: branch.id, parent, branch: project }, missing, false))
  }

  /** A project's preview branches, for its deletion (they go with it). */
  async previewBranchesOf(ref: string): Promise<BranchRow[]> {
    return (await listBranches(this.db, ref)).filter((branch) => !branch.is_default)
  }

  async disable(parent: ProjectRow, removeProject: (project: ProjectRow) => Promise<void>): Promise<void> {
    for (const branch of await this.previewBranchesOf(parent.ref)) {
      const project = await findProject(this.db, branch.project_ref)
      if (project) await removeProject(project)
    }
    await this.db.query('DELETE FROM branches WHERE parent_project_ref = $1', [parent.ref])
  }

  readHistory(project: ProjectRow) {
    return withHistory(this.projects, project, (history) => history.list())
  }

  private async pair(branch: BranchRow): Promise<{ parent: ProjectRow; project: ProjectRow }> {
    const [parent, project] = await Promise.all([findProject(this.db, branch.parent_project_ref), findProject(this.db, branch.project_ref)])
    if (!parent || !project) throw notFound('The branch or its parent no longer exists')
    for (const row of [parent, project]) {
      if (row.status !== 'ACTIVE_HEALTHY') throw conflict(`Project ${row.ref} is ${row.status}: both the branch and its parent must be running`)
    }
    return { parent, project }
  }

  private assertPreview(branch: BranchRow, action: string): void {
    if (branch.is_default) throw invalidInput(`The production branch cannot be ${action === 'compare' ? 'compared with itself' : `${action === 'reset' ? 'reset' : action === 'merge' ? 'merged' : 'updated'} from itself`}`)
  }

  private async assertCanBranch(parent: ProjectRow): Promise<void> {
    const { rows } = await this.db.query<{ plan: string }>('SELECT plan FROM organizations WHERE id = $1', [parent.organization_id])
    if (rows[0]?.plan !== 'pro') throw invalidInput('Branching is available on the Pro plan: upgrade the organization to use it')
    if (Number(parent.postgres_major) < BRANCHING_MIN_POSTGRES_MAJOR) throw invalidInput(`Branching needs Postgres ${BRANCHING_MIN_POSTGRES_MAJOR} or newer`)
    const { rows: asBranch } = await this.db.query('SELECT 1 FROM branches WHERE project_ref = $1 AND NOT is_default', [parent.ref])
    if (asBranch.length) throw invalidInput('A preview branch cannot have branches of its own')
  }

  private async insertProductionBranch(tx: Queryable, parent: ProjectRow, name: string, gitBranch: string | undefined): Promise<void> {
    await tx.query(
      `INSERT INTO branches (parent_project_ref, project_ref, name, git_branch, is_default, persistent, status) VALUES ($1, $1, $2, $3, true, true, 'MIGRATIONS_PASSED')`,
      [parent.ref, name, gitBranch ?? null],
    )
  }

  /** The branch's project: the parent's organization, region, version, size and settings; its own port and platform passwords. */
  private async insertBranchProject(tx: Queryable, parent: ProjectRow, ref: string, branchName: string): Promise<void> {
    const port = await this.projects.allocatePort(tx)
    const seal = (value: string) => this.secrets.seal(value)
    await tx.query(
      `INSERT INTO projects (ref, organization_id, name, status, region, postgres_major, postgres_version, compute_size, port,
         readonly_password_sealed, authenticator_password_sealed, admin_password_sealed, editor_password_sealed, role_model,
         postgres_config, db_allowed_cidrs, db_allowed_cidrs_v6, ssl_enforced)
       SELECT $1, organization_id, $2, 'COMING_UP', region, postgres_major, postgres_version, compute_size, $3, $4, $5, $6, $7, 1,
         postgres_config, db_allowed_cidrs, db_allowed_cidrs_v6, ssl_enforced
       FROM projects WHERE ref = $8`,
      [ref, `${parent.name} (${branchName})`.slice(0, 256), port, seal(newSecret()), seal(newSecret()), seal(newSecret()), seal(newSecret()), parent.ref],
    )
  }
}
