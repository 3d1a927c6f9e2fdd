import { SqlService } from '../../sql-runner/service.js'
import { MigrationHistory, type MigrationRow } from '../../sql-runner/migration-history.js'
import type { OperationContext } from '../operations/operation.js'
import type { ProjectService } from '../projects.js'
import type { ProjectRow } from '../project-store.js'
import { gitMigrationsForBranch, type PortableMigration } from './git-migrations.js'

export type { PortableMigration }

/**
 * Migrations between a branch and its parent, as the Supabase CLI records them
 * (supabase_migrations.schema_migrations, sql-runner/migration-history.ts): a new branch gets its Git
 * branch's `supabase/migrations/` files; merge applies the branch's own migrations to its parent; push
 * (the MCP server's rebase) applies the parent's newer ones to the branch. Statements run as `postgres`
 * through the SQL editor's full connection, each migration in its own transaction.
 */

/** Migrations can be slow (an index on a big table): ten minutes each at most. */
const MIGRATION_TIMEOUT_MS = 10 * 60_000

export async function withHistory<T>(projects: ProjectService, project: ProjectRow, fn: (history: MigrationHistory) => Promise<T>): Promise<T> {
  const sql = new SqlService(projects)
  return fn(new MigrationHistory((text) => sql.run(project, 'full', text, { timeoutMs: MIGRATION_TIMEOUT_MS })))
}

const joined = (statements: string[]) => statements.join(';\n')

/** Applies migrations in order, skipping versions already recorded; the first failure stops and is answered. */
export async function applyMigrations(projects: ProjectService, project: ProjectRow, migrations: PortableMigration[], by: string): Promise<string | null> {
  return withHistory(projects, project, async (history) => {
    for (const migration of migrations) {
      try {
        await history.apply({ version: migration.version, name: migration.name ?? undefined, query: joined(migration.statements), createdBy: by })
      } catch (error) {
        return `Migration ${migration.version}${migration.name ? ` (${migration.name})` : ''} failed: ${(error as Error).message}`
      }
    }
    return null
  })
}

/** The migrations recorded in `from` and not in `to`, oldest first. */
export async function migrationsMissing(projects: ProjectService, from: ProjectRow, to: ProjectRow): Promise<PortableMigration[]> {
  const [source, target] = await Promise.all([
    withHistory(projects, from, (history) => history.list()),
    withHistory(projects, to, (history) => history.list()),
  ])
  const known = new Set(target.map((row) => row.version))
  return source.filter((row) => !known.has(row.version)).map(portable)
}

const portable = (row: MigrationRow): PortableMigration => ({ version: row.version, name: row.name, statements: row.statements ?? [] })

/**
 * A new (or reset) branch's migrations: first its own ones kept over a reset, then its Git branch's
 * files. Answers the first failure's message, or null.
 */
export async function applyBranchMigrations(ctx: OperationContext, branch: ProjectRow, branchId: string, replay: PortableMigration[]): Promise<string | null> {
  const replayed = await applyMigrations(ctx.projects, branch, replay, 'branch reset')
  if (replayed) return replayed
  let fromGit: PortableMigration[]
  try {
    fromGit = await gitMigrationsForBranch(ctx, branchId)
  } catch (error) {
    return `The Git branch's migrations could not be read: ${(error as Error).message}`
  }
  return applyMigrations(ctx.projects, branch, fromGit, 'github')
}
