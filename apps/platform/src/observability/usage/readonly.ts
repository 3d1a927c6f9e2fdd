import type pg from 'pg'
import { ADMIN_ROLE, withAdminClient, type AdminConnection } from '../../control/bootstrap-roles.js'

/**
 * Read-only mode as Supabase has it: `default_transaction_read_only` set on every database of the instance (a SQL
 * setting, never postgresql.conf), so a write is refused with Postgres's own error ("cannot execute INSERT in a
 * read-only transaction") and reads work. The platform's superuser carries its own role setting (off), which
 * Postgres applies over a database's: migrations, backups and the platform's lifecycle keep working. Like on
 * Supabase, it is a guard against filling the disk, not a security boundary: a session may still `SET
 * default_transaction_read_only = off` to delete data.
 */
export async function applyReadOnly(connection: AdminConnection, on: boolean): Promise<void> {
  await withAdminClient(connection, async (client) => {
    await client.query(`ALTER ROLE ${ADMIN_ROLE} SET default_transaction_read_only = off`)
    for (const database of await databases(client)) {
      const name = client.escapeIdentifier(database)
      await client.query(on ? `ALTER DATABASE ${name} SET default_transaction_read_only = on` : `ALTER DATABASE ${name} RESET default_transaction_read_only`)
    }
    // A database setting applies to new sessions only: the sessions already open (PostgREST's pool, the SQL editor's,
    // the auth and storage services', users' own clients) end and reconnect with it, as a restart would have done.
    // Kept as text: a JavaScript Date would drop the microseconds.
    const { rows } = await client.query<{ now: string }>('SELECT pg_catalog.clock_timestamp()::text AS now')
    await endSessionsOpenedBefore(client, rows[0]!.now)
  })
}

/** How long one session may take to exit once told to (pg_terminate_backend's own wait). */
const SESSION_EXIT_WAIT_MS = 5_000
/** Scans for sessions that read the old setting (each after the previous one's sessions exited); the second normally finds none. */
const MAX_SCANS = 5

/**
 * Ends every client session but the platform superuser's that began before `changedAt`, and returns once they have
 * exited. Waiting matters: a pooled session told to end but not gone yet would serve the caller's next query, which
 * fails with the termination (or, unterminated, runs under the old setting). A session still logging in may not be in
 * pg_stat_activity yet although it read the old setting: the scans again after each wait catch those that showed up
 * meanwhile. That narrows the window to a login overlapping both scans, it does not close it (a restart would). A
 * session that began after the change reads the new setting.
 */
async function endSessionsOpenedBefore(client: pg.Client, changedAt: string): Promise<void> {
  for (let scan = 0; scan < MAX_SCANS; scan++) {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_catalog.pg_stat_activity
       WHERE backend_type = 'client backend' AND pid <> pg_catalog.pg_backend_pid() AND usename IS DISTINCT FROM $1::name
         AND backend_start < $2::timestamptz`,
      [ADMIN_ROLE, changedAt],
    )
    if (rows.length === 0) return
    await client.query('SELECT pg_catalog.pg_terminate_backend(pid, $2::bigint) FROM pg_catalog.unnest($1::int[]) AS pid', [
      rows.map((row) => row.pid),
      SESSION_EXIT_WAIT_MS,
    ])
  }
}

async function databases(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datallowconn AND NOT datistemplate ORDER BY datname')
  return rows.map((row) => row.datname)
}
