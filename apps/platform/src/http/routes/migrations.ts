import { randomBytes } from 'node:crypto'
import { RefParams, V1MigrationBody, V1MigrationPatchBody, V1MigrationRollbackQuery, V1MigrationVersionParams } from '@stratum/contracts'
import { splitStatementsByLexer } from '@stratum/sql'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ProjectRow } from '../../control/project-store.js'
import type { RunOutcome } from '../../sql-runner/runner.js'
import { assertCan, identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../context.js'
import { badRequest, notFound, parse } from '../errors.js'

/** Runs SQL as the project's `postgres` role (sqlRoutes' runner, with the member's query slot). */
export type RunAsOwner = (request: FastifyRequest, reply: FastifyReply, project: ProjectRow, sql: string) => Promise<RunOutcome>

/**
 * The migration history as the Supabase CLI and the official MCP server keep it: rows of
 * `supabase_migrations.schema_migrations` (version, name, statements, rollback ...) in the project's own
 * database. Applying runs the statements and records the row in one transaction, so a failing migration
 * leaves neither its changes nor its row. Reads: 'projects.read'; changes: 'sql.write'.
 */
const HISTORY_TABLE = `
  CREATE SCHEMA IF NOT EXISTS supabase_migrations;
  CREATE TABLE IF NOT EXISTS supabase_migrations.schema_migrations (version text NOT NULL PRIMARY KEY);
  ALTER TABLE supabase_migrations.schema_migrations ADD COLUMN IF NOT EXISTS statements text[];
  ALTER TABLE supabase_migrations.schema_migrations ADD COLUMN IF NOT EXISTS name text;
  ALTER TABLE supabase_migrations.schema_migrations ADD COLUMN IF NOT EXISTS created_by text;
  ALTER TABLE supabase_migrations.schema_migrations ADD COLUMN IF NOT EXISTS idempotency_key text UNIQUE;
  ALTER TABLE supabase_migrations.schema_migrations ADD COLUMN IF NOT EXISTS rollback text[]`

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

interface MigrationRow {
  version: string
  name: string | null
  statements: string[] | null
  rollback: string[] | null
  created_by: string | null
  idempotency_key: string | null
}

export async function migrationRoutes(app: FastifyInstance, ctx: PlatformContext, run: RunAsOwner): Promise<void> {
  /** Runs SQL as `postgres` and answers its last statement's rows; a failure is the caller's 400 with Postgres's message. */
  const rowsOf = async <T>(request: FastifyRequest, reply: FastifyReply, project: ProjectRow, sql: string): Promise<T[]> => {
    const outcome = await run(request, reply, project, sql)
    if (outcome.error) throw badRequest(outcome.error.message)
    // The runner keeps rows as JSON text (for answers that pass them on untouched): parsed here.
    return (outcome.results.at(-1)?.rows ?? []).map((row) => JSON.parse(row) as T)
  }
  /**
   * The history, oldest first. Writers make sure the table exists; readers read it only if it does. Both
   * run as `postgres` (the SQL is ours, not the caller's): the table may have been made by the Supabase
   * CLI, without grants to the read-only role.
   */
  const history = async (request: FastifyRequest, reply: FastifyReply, project: ProjectRow, write = true): Promise<MigrationRow[]> => {
    if (write) await rowsOf(request, reply, project, HISTORY_TABLE)
    else {
      const exists = await rowsOf<{ present: boolean }>(request, reply, project, `SELECT to_regclass('supabase_migrations.schema_migrations') IS NOT NULL AS present`)
      if (!exists[0]?.present) return []
    }
    return rowsOf<MigrationRow>(request, reply, project, 'SELECT * FROM supabase_migrations.schema_migrations ORDER BY version')
  }
  const access = async (request: FastifyRequest, write: boolean) => {
    const { ref } = parse(RefParams, request.params)
    const found = await projectAccess(ctx.db, request, ref, 'projects.read', ctx.accessCache)
    if (write) assertCan(found.role, 'sql.write')
    return found.project
  }

  app.get('/v1/projects/:ref/database/migrations', async (request, reply) => {
    const project = await access(request, false)
    const rows = await history(request, reply, project, false)
    return rows.map((row) => ({ version: row.version, ...(row.name ? { name: row.name } : {}) }))
  })

  app.get('/v1/projects/:ref/database/migrations/:version', async (request, reply) => {
    const project = await access(request, false)
    const { version } = parse(V1MigrationVersionParams, request.params)
    const row = (await history(request, reply, project, false)).find((entry) => entry.version === version)
    if (!row) throw notFound(`Migration ${version} not found`)
    return {
      version: row.version,
      ...(row.name ? { name: row.name } : {}),
      statements: row.statements ?? [],
      ...(row.rollback ? { rollback: row.rollback } : {}),
      ...(row.created_by ? { created_by: row.created_by } : {}),
      ...(row.idempotency_key ? { idempotency_key: row.idempotency_key } : {}),
    }
  })

  // POST applies and records; PUT records without applying (the CLI's `migration repair`). An
  // Idempotency-Key already recorded answers that migration again without running anything.
  for (const method of ['POST', 'PUT'] as const) {
    app.route({
      method,
      url: '/v1/projects/:ref/database/migrations',
      handler: async (request, reply) => {
        const project = await access(request, true)
        const body = parse(V1MigrationBody, request.body)
        const key = headerText(request.headers['idempotency-key'])
        if (key !== undefined && (key.length === 0 || key.length > 256)) throw badRequest('Idempotency-Key must be 1 to 256 characters')
        const existing = await history(request, reply, project)
        const repeated = key ? existing.find((row) => row.idempotency_key === key) : undefined
        if (repeated) return { version: repeated.version, name: repeated.name ?? undefined }
        const version = nextVersion(existing.at(-1)?.version ?? null)
        const record = `INSERT INTO supabase_migrations.schema_migrations (version, name, statements, rollback, created_by, idempotency_key)
          VALUES (${literal(version)}, ${literal(body.name ?? null)}, ${textArray(statementsOf(body.query))},
                  ${body.rollback ? textArray(statementsOf(body.rollback)) : 'NULL'}, ${literal(identityOf(request).user.email)}, ${literal(key ?? null)})`
        // The newline before the ";": a query ending in a -- comment must not swallow it.
        const script = method === 'POST' ? `BEGIN;\n${body.query}\n;\n${record};\nCOMMIT;` : `${record};`
        await rowsOf(request, reply, project, script)
        return { version, name: body.name }
      },
    })
  }

  app.patch('/v1/projects/:ref/database/migrations/:version', async (request, reply) => {
    const project = await access(request, true)
    const { version } = parse(V1MigrationVersionParams, request.params)
    const body = parse(V1MigrationPatchBody, request.body)
    await history(request, reply, project)
    const changes = [
      ...(body.name !== undefined ? [`name = ${literal(body.name)}`] : []),
      ...(body.rollback !== undefined ? [`rollback = ${textArray(statementsOf(body.rollback))}`] : []),
    ]
    if (!changes.length) throw badRequest('Nothing to change: send name or rollback')
    const updated = await rowsOf<{ version: string }>(request, reply, project,
      `UPDATE supabase_migrations.schema_migrations SET ${changes.join(', ')} WHERE version = ${literal(version)} RETURNING version`,
    )
    if (!updated.length) throw notFound(`Migration ${version} not found`)
    return { message: `Migration ${version} updated` }
  })

  // Rolls back the migrations from `gte` on, newest first, with their recorded rollback statements, and
  // removes them from the history; all in one transaction. One without rollback statements stops it.
  app.delete('/v1/projects/:ref/database/migrations', async (request, reply) => {
    const project = await access(request, true)
    const { gte } = parse(V1MigrationRollbackQuery, request.query)
    const doomed = (await history(request, reply, project)).filter((row) => /^\d+$/.test(row.version) && BigInt(row.version) >= BigInt(gte)).reverse()
    const missing = doomed.find((row) => !row.rollback?.length)
    if (missing) throw badRequest(`Migration ${missing.version} has no rollback statements: nothing was rolled back`)
    if (!doomed.length) return { message: 'No migrations to roll back' }
    const steps = doomed.flatMap((row) => [...row.rollback!, `DELETE FROM supabase_migrations.schema_migrations WHERE version = ${literal(row.version)}`])
    await rowsOf(request, reply, project, `BEGIN;\n${steps.join(';\n')};\nCOMMIT;`)
    return { message: `Rolled back ${doomed.length} migration${doomed.length === 1 ? '' : 's'}`, versions: doomed.map((row) => row.version) }
  })
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)
