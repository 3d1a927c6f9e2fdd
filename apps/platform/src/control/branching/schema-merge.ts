import type pg from 'pg'
import { conflict, invalidInput } from '../../errors.js'
import { sqlPool } from '../../sql-runner/pools.js'
import { HISTORY_TABLE } from '../../sql-runner/migration-history.js'
import type { Queryable } from '../../store/db.js'
import { USER_ROLE, withAdminClient } from '../bootstrap-roles.js'
import type { ProjectRow } from '../project-store.js'
import type { ProjectService } from '../projects.js'
import type { PortableMigration } from './git-migrations.js'
import { diffSchemas, readCatalogSnapshot, schemaScript, type CatalogSnapshot, type SchemaDiff } from './schema-diff/index.js'

/**
 * Diff and merge of a branch by migrations and schema comparison together.
 *
 * How the two combine: the branch's pending migrations (its history rows the parent lacks) come first, as
 * before; what they make is already in the branch's catalog, so comparing catalogs alone would write those
 * objects a second time. Guessing which objects a migration makes from its text is unreliable, so a merge
 * asks the parent instead: in one transaction on the parent, the migrations run, the parent's catalog is
 * read again, and only what still differs from the branch (and is the branch's change, see
 * schema-diff/three-way.ts) becomes schema SQL, run in the same transaction before it commits.
 * A diff never runs anything on the parent (it is a read, open to Read-only members, and a rehearsal would
 * take production's locks): it reads the parent's catalog in a read-only transaction and shows the
 * migrations' SQL, then the schema differences, which may include what those migrations make (said so).
 *
 * Who runs what: everything on the parent runs as `postgres` (logged in as the editor role, as the
 * existing merge and the SQL editor's full connection do), never as a superuser: the migrations and the
 * schema SQL are the tenant's own. The parent's catalog is read in that session with search_path pinned
 * to pg_catalog for the read, the branch's as the platform's superuser (pinned path, catalog reads only).
 */

/** Migrations can be slow (an index on a big table): ten minutes for the whole merge. */
const MERGE_TIMEOUT_MS = 10 * 60_000
/** A diff only reads the parent's catalog. */
const DIFF_TIMEOUT_MS = 60_000
const PINNED_PATH = 'pg_catalog, pg_temp'

export interface BranchPair {
  branchId: string
  parent: ProjectRow
  branch: ProjectRow
}

export interface MergePlan {
  migrations: PortableMigration[]
  schema: SchemaDiff
  /** A diff: the schema part was compared before the migrations, so it may repeat what they make. */
  beforeMigrations: boolean
}

/** The branch's catalog read as the platform's superuser (pinned search_path: catalog reads only). */
export function readProjectSnapshot(projects: ProjectService, project: ProjectRow): Promise<CatalogSnapshot> {
  return withAdminClient(projects.adminConnection(project), (client) => readCatalogSnapshot(client))
}

/** Records the branch's schema as the common ancestor of later merges (at creation, reset, and after a merge). */
export async function recordBranchBase(db: Queryable, branchId: string, snapshot: CatalogSnapshot): Promise<void> {
  await db.query(
    `INSERT INTO branch_schema_bases (branch_id, snapshot) VALUES ($1, $2::jsonb)
     ON CONFLICT (branch_id) DO UPDATE SET snapshot = EXCLUDED.snapshot, recorded_at = now()`,
    [branchId, JSON.stringify(snapshot)],
  )
}

async function branchBase(db: Queryable, branchId: string): Promise<CatalogSnapshot | null> {
  const { rows } = await db.query<{ snapshot: CatalogSnapshot }>('SELECT snapshot FROM branch_schema_bases WHERE branch_id = $1', [branchId])
  return rows[0]?.snapshot ?? null
}

/**
 * Diff (commit false) or merge (commit true). A merge refuses conflicts (409) and changes the comparer cannot
 * write (400) before anything is committed; a failing migration or statement rolls everything back (400 with
 * Postgres's message).
 */
export async function mergePlan(projects: ProjectService, db: Queryable, pair: BranchPair, migrations: PortableMigration[], commit: boolean): Promise<MergePlan> {
  const [branchSnapshot, base] = await Promise.all([readProjectSnapshot(projects, pair.branch), branchBase(db, pair.branchId)])
  const credentials = projects.credentials(pair.parent)
  const pool = sqlPool(projects.connections, { ref: pair.parent.ref, port: pair.parent.port, password: credentials.editorPassword }, 'full', 'branch-merge')
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    await client.query(commit ? 'BEGIN' : 'BEGIN READ ONLY')
    await client.query(`SET LOCAL statement_timeout = ${commit ? MERGE_TIMEOUT_MS : DIFF_TIMEOUT_MS}`)
    const tenantPath = (await client.query<{ path: string }>(`SELECT pg_catalog.current_setting('search_path') AS path`)).rows[0]!.path
    const readPinned = async () => {
      await setPath(client, PINNED_PATH)
      const snapshot = await readCatalogSnapshot(client)
      await setPath(client, tenantPath)
      return snapshot
    }
    const parentBefore = await readPinned()
    let parentNow = parentBefore
    if (!commit) {
      await client.query('ROLLBACK')
      const schema = diffSchemas({ base, parentBefore, parentNow, branch: branchSnapshot, creator: USER_ROLE })
      return { migrations, schema, beforeMigrations: migrations.length > 0 }
    }
    if (migrations.length) {
      await runMigrations(client, migrations, `merge of branch ${pair.branch.name}`)
      parentNow = await readPinned()
    }
    const schema = diffSchemas({ base, parentBefore, parentNow, branch: branchSnapshot, creator: USER_ROLE })
    if (schema.conflicts.length) {
      throw conflict(`The parent changed these objects since the branch was created, and the branch changed them differently: ${schema.conflicts.join(', ')}. Make one side like the other, then merge again.`)
    }
    if (schema.unsupported.length) throw invalidInput(`These changes cannot be merged automatically: ${schema.unsupported.join('; ')}`)
    // Never merged without them (the branch's work would be lost silently): a migration carries them (it runs first).
    if (schema.notCompared.length) {
      throw invalidInput(`These changes are not compared, so a merge cannot carry them; make them in a migration: ${schema.notCompared.join('; ')}`)
    }
    // The schema SQL names every object with its schema: it runs with the pinned path, like the catalog it came from.
    await setPath(client, PINNED_PATH)
    for (const statement of schema.statements) {
      await client.query(statement).catch((error: Error) => {
        throw invalidInput(`The branch's schema change failed on the parent: ${error.message}\n${statement}`)
      })
    }
    await client.query('COMMIT')
    // The branch and its parent now agree on what the branch changed: the next merge starts from here.
    await recordBranchBase(db, pair.branchId, branchSnapshot)
    return { migrations, schema, beforeMigrations: false }
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError))
    throw error
  } finally {
    // Migrations may SET things for the session: it goes back to the pool as it came.
    if (!broken) await client.query('DISCARD ALL').catch((error: Error) => (broken = error))
    client.release(broken ?? false)
  }
}

const setPath = (client: pg.PoolClient, path: string) => client.query(`SELECT pg_catalog.set_config('search_path', $1, true)`, [path])

/** The migrations and their history rows, in the caller's transaction; the first failure is answered with its migration. */
async function runMigrations(client: pg.PoolClient, migrations: PortableMigration[], by: string): Promise<void> {
  await client.query(HISTORY_TABLE)
  for (const migration of migrations) {
    try {
      for (const statement of migration.statements) await client.query(statement)
    } catch (error) {
      throw invalidInput(`Migration ${migration.version}${migration.name ? ` (${migration.name})` : ''} failed: ${(error as Error).message}`)
    }
    await client.query(
      `INSERT INTO supabase_migrations.schema_migrations (version, name, statements, created_by) VALUES ($1, $2, $3::text[], $4)
       ON CONFLICT (version) DO NOTHING`,
      [migration.version, migration.name, migration.statements, by],
    )
  }
}

/** The diff as the Management API answers it: each migration's SQL, then the schema SQL migrations do not cover. */
export function diffText(plan: MergePlan): string {
  const parts = plan.migrations.map(
    (row) => `-- ${row.version}${row.name ? ` ${row.name}` : ''}\n${row.statements.map((statement) => `${statement.trim()};`).join('\n')}\n`,
  )
  const notes = [
    ...(plan.beforeMigrations ? ['-- A merge runs the migrations above first,', '-- then only what still differs (this part may repeat them).'] : []),
    ...plan.schema.conflicts.map((label) => `-- Conflict (changed on both sides, not merged): ${label}`),
    ...plan.schema.unsupported.map((text) => `-- Not merged automatically: ${text}`),
    ...plan.schema.notCompared.map((text) => `-- Not compared (make it in a migration to merge it): ${text}`),
  ]
  if (plan.schema.statements.length || notes.length) {
    const heading = plan.migrations.length ? '-- Schema differences' : '-- Schema changes'
    parts.push(`${[heading, ...notes].join('\n')}\n${schemaScript(plan.schema.statements)}`)
  }
  return parts.join('\n')
}
