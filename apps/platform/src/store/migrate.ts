import fs from 'node:fs'
import path from 'node:path'
import type { Db } from './db.js'
import { inTransaction } from './db.js'
import { platformSourcePath } from '../platform-root.js'

const MIGRATIONS_DIR = platformSourcePath('store', 'migrations')
/** Any fixed number: keeps two platforms booting on one database from migrating at once. */
const MIGRATION_LOCK = 7_211_042

/**
 * Versioned migrations: files named NNN_description.sql, applied in order, each in its own
 * transaction, recorded in stratum_migrations. Applied files must never change; add a new one.
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort()
  const applied: string[] = []
  const lock = await db.connect()
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    await lock.query(`CREATE TABLE IF NOT EXISTS stratum_migrations (
      version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`)
    const done = new Set((await lock.query<{ version: string }>('SELECT version FROM stratum_migrations')).rows.map((r) => r.version))
    for (const file of files) {
      const version = file.slice(0, 3)
      if (done.has(version)) continue
      const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8')
      await inTransaction(db, async (client) => {
        await client.query(sql)
        await client.query('INSERT INTO stratum_migrations (version) VALUES ($1)', [version])
      })
      applied.push(file)
    }
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
    lock.release()
  }
  return applied
}
