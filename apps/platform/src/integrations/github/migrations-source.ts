/**
 * A Git branch's migrations, read through GitHub's REST API, for a new database branch (control/branching/).
 *
 *   const row = await findConnectionForProject(ctx.db, parentRef)          // null: the project has no repository
 *   const files = await readBranchMigrations(gitHubClientFor(ctx), migrationsSourceOf(ctx.secrets, row), gitBranch)
 *   // [{ version: '20240101000000', name: 'init', sql: 'create table ...' }, ...] in version order
 *
 * The files are those of `{workdir}/supabase/migrations/` on the Git branch named as the Supabase CLI names them,
 * `<digits>_<name>.sql`; others (a README, seed.sql in the wrong folder) are skipped, as the CLI skips them. A branch
 * without that folder has no migrations ([]). The caller applies them in order and records each in
 * supabase_migrations.schema_migrations (version, name, statements), as `supabase db push` does.
 * Failures are GitHubError (client.ts) with GitHub's reason; an unknown Git branch is GitHubNotFoundError.
 */
import type { SecretBox } from '../../control/secret-box.js'
import { GitHubClient, GitHubNotFoundError } from './client.js'
import type { GitHubConnectionRow } from './connections.js'

export { findConnectionForProject, type GitHubConnectionRow } from './connections.js'
export { GitHubClient, GitHubError, GitHubNotFoundError } from './client.js'

export interface BranchMigrationsSource {
  /** owner/repo */
  repository: string
  /** The folder holding supabase/ ('.' = the repository's root). */
  workdir: string
  /** The connection's token, opened. */
  token: string
}

export interface BranchMigration {
  version: string
  name: string
  sql: string
}

/** The Supabase CLI's migration file name: a version of digits, '_', a name. */
const MIGRATION_FILE = /^(\d+)_(.+)\.sql$/

/** A client for the platform's GitHub (config.githubApiUrl); takes the PlatformContext (or anything with its config). */
export function gitHubClientFor(ctx: { config: { githubApiUrl: string } }): GitHubClient {
  return new GitHubClient(ctx.config.githubApiUrl)
}

/** What readBranchMigrations needs of a connection, its token opened (keep it in memory only for the call). */
export function migrationsSourceOf(secrets: SecretBox, connection: GitHubConnectionRow): BranchMigrationsSource {
  return { repository: connection.repository, workdir: connection.workdir, token: secrets.open(connection.token_sealed) }
}

export function migrationsFolder(workdir: string): string {
  const base = workdir.replace(/^\.\/?|\/+$/g, '')
  return base ? `${base}/supabase/migrations` : 'supabase/migrations'
}

/** Versions compared as numbers (the CLI's are 14-digit timestamps, but '9_a' comes before '10_b' whatever their lengths). */
function byVersion(a: { version: string; name: string }, b: { version: string; name: string }): number {
  const difference = BigInt(a.version) - BigInt(b.version)
  return difference < 0n ? -1 : difference > 0n ? 1 : a.name.localeCompare(b.name)
}

export async function readBranchMigrations(client: GitHubClient, connection: BranchMigrationsSource, gitBranch: string): Promise<BranchMigration[]> {
  const folder = migrationsFolder(connection.workdir)
  // An unknown Git branch must fail loudly; only a missing folder on a branch that exists means "no migrations".
  await client.getBranch(connection.repository, gitBranch, connection.token)
  let entries
  try {
    entries = await client.listDirectory(connection.repository, folder, gitBranch, connection.token)
  } catch (error) {
    if (error instanceof GitHubNotFoundError) return []
    throw error
  }
  const files = entries.flatMap((entry) => {
    const match = entry.type === 'file' ? MIGRATION_FILE.exec(entry.name) : null
    return match ? [{ version: match[1]!, name: match[2]!, path: entry.path }] : []
  }).sort(byVersion)
  // One after the other: a branch has tens of migrations, and GitHub limits concurrent requests per token.
  const migrations: BranchMigration[] = []
  for (const file of files) {
    migrations.push({ version: file.version, name: file.name, sql: await client.readFile(connection.repository, file.path, gitBranch, connection.token) })
  }
  return migrations
}
