import { randomBytes } from 'node:crypto'
import { splitStatementsByLexer } from '@stratum/sql'
import { invalidInput, notFound } from '../errors.js'
import type { RunOutcome } from './runner.js'

/**
 * The migration history as the Supabase CLI and the official MCP server keep it: rows of
 * `supabase_migrations.schema_migrations` (version, name, statements, rollback ...) in the project's own
 * database. Applying runs the statements and records the row in one transaction, so a failing migration
 * leaves neither its changes nor its row. Used by the Management API's routes (http/routes/migrations.ts)
 * and the AI tools (ai/tools/), which check the caller's permission before they get here. HISTORY_TABLE is exported for
 * the branch merge (control/branching/schema-merge.ts), which records rows in a transaction of its own.
 */
export const HISTORY_TABLE = `
  CREATE SCHEMA IF NOT EXISTS supabase_migrations;
  CREATE TABLE IF NOT EXISTS supabase_migrations.schema_migrations (version text NOT NULL PRIMARY KEY);
  ALTER TABLE supabase_migrations.schema_migrations ADD COLUMN IF NOT EXISTS statements text[];
  ALTER TABLE supabase_migrations.schema_migrations ADD COLUMN IF NOT EXISTS name text;
  ALTER TABLE supabase_migrations.schema_migrations ADD COLUMN IF NOT EXISTS created_by text;
  ALTER TABLE supabase_migrations.schema_migrations ADD COLUMN IF NOT EXISTS idempotency_key text UNIQUE;
  ALTER TABLE supabase_migrations.schema_migrations ADD COLUMN IF NOT EXISTS rollback text[]`

/** Runs SQL as the project's `postgres` role (the SQL runner, with the member's query slot). */
export type RunAsOwnerSql = (sql: string) => Promise<RunOutcome>

export interface MigrationRow {
  version: string
  name: string | null
  statements: string[] | null
  rollback: string[] | null
  created_by: string | null
  idempotency_key: string | null
}

export interface ApplyMigration {
  name?: string
  query: string
  rollback?: string
  createdBy: string
  idempotencyKey?: string
  /** Record the row without running the statements (the CLI's `migration repair`). */
  recordOnly?: boolean
  /**
   * The version to record (a migration file's own, or one copied from another branch); absent: the next
   * one after the newest. A version already recorded is not applied again.
   */
  version?: string
}

/**
 * A literal no statement can break out of: dollar-quoted with a random tag (a `'`-quoted literal would
 * depend on standard_conforming_strings, which the migration itself may change).
 */
function literal(text: string | null | undefined): string {
  if (text === null || text === undefined) return 'NULL'
  let tag: string
  do tag = `$m${randomBytes(6).toString('hex')}$`
  while (text.includes(tag))
  return `${tag}${text}${tag}`
}

const textArray = (items: string[]) => (items.length ? `ARRAY[${items.map(literal).join(', ')}]::text[]` : `'{}'::text[]`)
const statementsOf = (sql: string | undefined) => (sql ? splitStatementsByLexer(sql).map((statement) => statement.text) : [])

/** The CLI's version format: the UTC time as YYYYMMDDHHMMSS, kept after the newest existing version. */
function nextVersion(latest: string | null): string {
  const now = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)
  return latest && /^\d+$/.test(latest) && BigInt(latest) >= BigInt(now) ? String(BigInt(latest) + 1n) : now
}

export class MigrationHistory {
  constructor(private readonly run: RunAsOwnerSql) {}

  /** Runs SQL as `postgres` and answers its last statement's rows; a failure is a 400 with Postgres's message. */
  private async rowsOf<T>(sql: string): Promise<T[]> {
    const outcome = await this.run(sql)
    if (outcome.error) throw invalidInput(outcome.error.message)
    // The runner keeps rows as JSON text (for answers that pass them on untouched): parsed here.
    return (outcome.results.at(-1)?.rows ?? []).map((row) => JSON.parse(row) as T)
  }

  /**
   * The history, oldest first. Writers make sure the table exists; readers read it only if it does. Both
   * run as `postgres` (the SQL is ours, not the caller's): the table may have been made by the Supabase
   * CLI, without grants to the read-only role.
   */
  async list(write = false): Promise<MigrationRow[]> {
    if (write) await this.rowsOf(HISTORY_TABLE)
    else {
      const exists = await this.rowsOf<{ present: boolean }>(`SELECT to_regclass('supabase_migrations.schema_migrations') IS NOT NULL AS present`)
      if (!exists[0]?.present) return []
    }
    return this.rowsOf<MigrationRow>('SELECT * FROM supabase_migrations.schema_migrations ORDER BY version')
  }

  /** Applies (or only records) a migration. An idempotency key already recorded answers that migration again without running anything. */
  async apply(migration: ApplyMigration): Promise<{ version: string; name: string | undefined }> {
    const existing = await this.list(true)
    const key = migration.idempotencyKey
    const repeated = key ? existing.find((row) => row.idempotency_key === key) : undefined
    if (repeated) return { version: repeated.version, name: repeated.name ?? undefined }
    const already = migration.version !== undefined ? existing.find((row) => row.version === migration.version) : undefined
    if (already) return { version: already.version, name: already.name ?? undefined }
    const version = migration.version ?? nextVersion(existing.at(-1)?.version ?? null)
    const record = `INSERT INTO supabase_migrations.schema_migrations (version, name, statements, rollback, created_by, idempotency_key)
      VALUES (${literal(version)}, ${literal(migration.name ?? null)}, ${textArray(statementsOf(migration.query))},
              ${migration.rollback ? textArray(statementsOf(migration.rollback)) : 'NULL'}, ${literal(migration.createdBy)}, ${literal(key ?? null)})`
    // The newline before the ";": a query ending in a -- comment must not swallow it.
    const script = migration.recordOnly ? `${record};` : `BEGIN;\n${migration.query}\n;\n${record};\nCOMMIT;`
    await this.rowsOf(script)
    return { version, name: migration.name }
  }

  async update(version: string, changes: { name?: string; rollback?: string }): Promise<void> {
    await this.list(true)
    const sets = [
      ...(changes.name !== undefined ? [`name = ${literal(changes.name)}`] : []),
      ...(changes.rollback !== undefined ? [`rollback = ${textArray(statementsOf(changes.rollback))}`] : []),
    ]
    if (!sets.length) throw invalidInput('Nothing to change: send name or rollback')
    const updated = await this.rowsOf<{ version: string }>(
      `UPDATE supabase_migrations.schema_migrations SET ${sets.join(', ')} WHERE version = ${literal(version)} RETURNING version`,
    )
    if (!updated.length) throw notFound(`Migration ${version} not found`)
  }

  /**
   * Rolls back the migrations from `gte` on, newest first, with their recorded rollback statements, and
   * removes them from the history; all in one transaction. One without rollback statements stops it.
   */
  async rollback(gte: string): Promise<string[]> {
    const doomed = (await this.list(true)).filter((row) => /^\d+$/.test(row.version) && BigInt(row.version) >= BigInt(gte)).reverse()
    const missing = doomed.find((row) => !row.rollback?.length)
    if (missing) throw invalidInput(`Migration ${missing.version} has no rollback statements: nothing was rolled back`)
    if (!doomed.length) return []
    const steps = doomed.flatMap((row) => [...row.rollback!, `DELETE FROM supabase_migrations.schema_migrations WHERE version = ${literal(row.version)}`])
    await this.rowsOf(`BEGIN;\n${steps.join(';\n')};\nCOMMIT;`)
    return doomed.map((row) => row.version)
  }
}
