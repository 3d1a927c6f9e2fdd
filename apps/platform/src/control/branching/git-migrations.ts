import { splitStatementsByLexer } from '@stratum/sql'
import { GitHubClient, findConnectionForProject, migrationsSourceOf, readBranchMigrations } from '../../integrations/github/migrations-source.js'
import type { OperationContext } from '../operations/operation.js'

/** A migration as it moves between projects: the Supabase CLI's version, name and statements. */
export interface PortableMigration {
  version: string
  name: string | null
  statements: string[]
}

/**
 * The migration files of the Git branch a database branch is linked to, read through the parent
 * project's GitHub connection (integrations/github/). None without a Git branch or a connection.
 */
export async function gitMigrationsForBranch(ctx: OperationContext, branchId: string): Promise<PortableMigration[]> {
  const { rows } = await ctx.db.query<{ git_branch: string | null; parent_project_ref: string }>(
    'SELECT git_branch, parent_project_ref FROM branches WHERE id = $1',
    [branchId],
  )
  const branch = rows[0]
  if (!branch?.git_branch) return []
  const connection = await findConnectionForProject(ctx.db, branch.parent_project_ref)
  if (!connection) return []
  const files = await readBranchMigrations(new GitHubClient(ctx.githubApiUrl), migrationsSourceOf(ctx.secrets, connection), branch.git_branch)
  return files.map((file) => ({ version: file.version, name: file.name, statements: splitStatementsByLexer(file.sql).map((statement) => statement.text) }))
}
