import fs from 'node:fs'
import path from 'node:path'
import type pg from 'pg'
import { ObjectFiles } from '../../services/storage/files.js'
import { ADMIN_ROLE, adminConnection, bootstrapClusterRoles, passwordRejected, withAdminClient } from '../bootstrap-roles.js'
import type { ProjectRow } from '../project-store.js'
import type { ProjectService } from '../projects.js'
import { copyEntries } from './online-copy.js'

/**
 * What a fresh physical copy needs before it is a branch of its own: its own platform passwords (the
 * copy starts with the parent's), and, unless the user asked for data, empty tables.
 */

/** How long a copy may take to finish its recovery (replaying the WAL up to its consistent point or target). */
const RECOVERY_TIMEOUT_MS = 10 * 60_000

/**
 * Connects to the branch as the platform's superuser: with the branch's own password once it has been
 * set, else with the parent's (which the copy carries). Waits for the end of recovery first.
 */
async function withBranchAdmin<T>(projects: ProjectService, branch: ProjectRow, parent: ProjectRow, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const own = projects.credentials(branch).adminPassword
  const inherited = projects.credentials(parent).adminPassword
  const deadline = Date.now() + RECOVERY_TIMEOUT_MS
  for (;;) {
    for (const password of [own, inherited]) {
      try {
        return await withAdminClient(adminConnection(branch.port, password), async (client) => {
          const { rows } = await client.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering')
          if (rows[0]?.recovering) throw new StillRecovering()
          return fn(client)
        })
      } catch (error) {
        if (!(error instanceof StillRecovering) && !passwordRejected(error)) throw error
      }
    }
    if (Date.now() > deadline) throw new Error('The copy did not finish its recovery in time')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

class StillRecovering extends Error {}

/** Gives the copy the branch's own platform passwords (the superuser's last: until then the parent's still opens it). */
export async function giveBranchItsOwnRoles(projects: ProjectService, branch: ProjectRow, parent: ProjectRow): Promise<void> {
  const credentials = projects.credentials(branch)
  await withBranchAdmin(projects, branch, parent, async (client) => {
    // initialUserPassword is null: `postgres` keeps the parent's password, which the branch's owners know.
    await bootstrapClusterRoles(client, { ...credentials, initialUserPassword: null })
    await client.query(`ALTER ROLE ${ADMIN_ROLE} WITH PASSWORD ${client.escapeLiteral(credentials.adminPassword)}`)
  })
}

/** Schemas whose tables keep their rows in a schema-only branch: the system's, and the migration history. */
const KEPT_SCHEMAS = ['pg_catalog', 'information_schema', 'supabase_migrations', 'pg_toast']
/** Bookkeeping tables of the auth and storage services (their schema versions), and storage's bucket settings. */
const KEPT_TABLES = ['auth.schema_migrations', 'storage.migrations', 'storage.buckets']

/**
 * A schema-only branch: every table of the copy emptied (identities restarted), except the system's,
 * the migration history, the services' bookkeeping and tables that belong to extensions (their
 * configuration, e.g. PostGIS's spatial_ref_sys). Idempotent.
 */
export async function emptyBranchTables(projects: ProjectService, branch: ProjectRow): Promise<number> {
  return withAdminClient(projects.adminConnection(branch), async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
         AND n.nspname <> ALL ($1) AND n.nspname NOT LIKE 'pg_temp%' AND n.nspname NOT LIKE 'pg_toast%'
         AND format('%I.%I', n.nspname, c.relname) <> ALL ($2)
         AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')`,
      [KEPT_SCHEMAS, KEPT_TABLES],
    )
    if (rows.length) await client.query(`TRUNCATE ${rows.map((row) => row.name).join(', ')} RESTART IDENTITY CASCADE`)
    return rows.length
  })
}

/** A branch with data gets the parent's stored files too (the storage.objects rows point at them). */
export async function copyStorageFiles(dataDir: string, parentRef: string, branchRef: string): Promise<void> {
  const files = new ObjectFiles(dataDir)
  const from = path.join(files.projectDir(parentRef), 'objects')
  if (!fs.existsSync(from)) return
  const to = files.projectDir(branchRef)
  fs.rmSync(path.join(to, 'objects'), { recursive: true, force: true })
  fs.mkdirSync(to, { recursive: true })
  await copyEntries(files.projectDir(parentRef), to, ['objects'])
}
