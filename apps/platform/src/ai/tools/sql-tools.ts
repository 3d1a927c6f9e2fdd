import { roleCan, SQL_MAX_QUERY_LENGTH, type SqlError } from '@stratum/contracts'
import { needsWriteConnection } from '@stratum/sql'
import { z } from 'zod'
import { DomainError } from '../../errors.js'
import { MigrationHistory } from '../../sql-runner/migration-history.js'
import type { RunOutcome } from '../../sql-runner/runner.js'
import { runProjectSql } from './project-db.js'
import { defineTool, ToolError, type ProjectToolContext } from './types.js'

/** Rows the assistant's read-only query gives the model: enough to answer from, small enough for its context. */
export const ASSISTANT_ROW_LIMIT = 100
/** Rows (and characters) an MCP client's execute_sql gets back; beyond that it is told to narrow its query. */
export const MCP_ROW_LIMIT = 1_000
const MAX_RESULT_CHARS = 1024 * 1024

const SqlText = z.string().min(1, 'sql cannot be empty').max(SQL_MAX_QUERY_LENGTH)

const failureDetail = (error: SqlError) => [error.message, error.detail && `DETAIL: ${error.detail}`, error.hint && `HINT: ${error.hint}`].filter(Boolean).join('\n')

/** The last statement's rows (as the Management API answers), with a note when the row limit cut them short. */
function rowsReply(outcome: RunOutcome, limit: number) {
  const last = outcome.results.at(-1)
  const rows = (last?.rows ?? []).map((row) => JSON.parse(row) as unknown)
  const note = outcome.truncated
    ? `The result was cut to the first ${rows.length} rows (limit ${limit} rows): add a LIMIT or a narrower WHERE to see the rest.`
    : undefined
  return { data: rows, ...(note ? { note } : {}) }
}

/** A refused or failed run: a write on the read-only connection is explained by what made it read-only. */
function sqlFailure(context: ProjectToolContext, outcome: RunOutcome, mode: 'read-only' | 'full', why: 'assistant' | 'read_only' | 'role'): never {
  const error = outcome.error!
  if (mode === 'read-only' && needsWriteConnection(error)) {
    const reasons = {
      assistant: 'This tool runs read-only queries: the statement tries to write, and nothing was changed.',
      read_only: 'This connection is read-only (read_only=true): the statement tries to write, and nothing was changed.',
      role: `You do not have sufficient permissions to run queries that write to this database (your role in this project's organization cannot write): nothing was changed.`,
    }
    throw new ToolError(reasons[why], failureDetail(error))
  }
  throw new ToolError(`The query failed on project ${context.project.ref}.`, failureDetail(error))
}

/** The assistant's data level: read-only SQL with a row limit, as the Management API's /database/query/read-only runs it. */
export const executeReadOnlySqlTool = defineTool({
  name: 'execute_sql',
  description: `Runs a read-only SQL query on the project database and returns the rows of its last statement (at most ${ASSISTANT_ROW_LIMIT}). Writes are refused.`,
  inputSchema: z.object({ sql: SqlText.describe('The SQL to run; read-only') }),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context, input) => {
    const outcome = await runProjectSql(context, { mode: 'read-only', sql: input.sql, maxRows: ASSISTANT_ROW_LIMIT, maxChars: MAX_RESULT_CHARS })
    if (outcome.error) sqlFailure(context, outcome, 'read-only', 'assistant')
    return rowsReply(outcome, ASSISTANT_ROW_LIMIT)
  },
})

/**
 * MCP's execute_sql: on the full connection for a role with sql.write outside read-only mode (the
 * Management API's /database/query), else on the read-only connection (its read_only flag), where a
 * write fails and nothing changes.
 */
export const executeSqlTool = defineTool({
  name: 'execute_sql',
  description:
    `Runs SQL on the project database and returns the rows of its last statement (at most ${MCP_ROW_LIMIT}). Statements that write run only for roles allowed to write and outside read-only mode; use apply_migration for schema changes you want recorded.`,
  inputSchema: z.object({ query: SqlText.describe('The SQL to run') }),
  scope: 'project',
  writes: 'when_allowed',
  permission: 'projects.read',
  run: async (context, input) => {
    const mayWrite = !context.readOnly && roleCan(context.role, 'sql.write')
    const mode = mayWrite ? 'full' : 'read-only'
    const outcome = await runProjectSql(context, { mode, sql: input.query, maxRows: MCP_ROW_LIMIT, maxChars: MAX_RESULT_CHARS })
    if (outcome.error) sqlFailure(context, outcome, mode, context.readOnly ? 'read_only' : 'role')
    return rowsReply(outcome, MCP_ROW_LIMIT)
  },
})

/** The project's migration history, run as `postgres` through the member's query share. */
const historyOf = (context: ProjectToolContext) => new MigrationHistory((sql) => runProjectSql(context, { mode: 'full', sql }))

export const applyMigrationTool = defineTool({
  name: 'apply_migration',
  description:
    'Applies a migration to the project database (DDL such as CREATE TABLE, ALTER TABLE) and records it in the migration history (supabase_migrations.schema_migrations), in one transaction: a failing migration changes nothing.',
  inputSchema: z.object({
    name: z.string().min(1).max(256).describe('The migration name in snake_case, e.g. create_todos'),
    query: SqlText.describe('The SQL statements of the migration'),
  }),
  scope: 'project',
  writes: 'always',
  permission: 'sql.write',
  run: async (context, input) => {
    try {
      const applied = await historyOf(context).apply({ name: input.name, query: input.query, createdBy: context.caller.email })
      return { note: `Migration ${applied.version} (${input.name}) applied and recorded.`, data: applied }
    } catch (error) {
      // Postgres's refusal of the migration: its text may come from the project (a trigger's RAISE).
      if (error instanceof DomainError && error.kind === 'invalid-input') throw new ToolError('The migration failed and nothing was applied.', error.message)
      throw error
    }
  },
})

export const listMigrationsTool = defineTool({
  name: 'list_migrations',
  description: 'Lists the migrations recorded in the project\'s migration history, oldest first: version and name.',
  inputSchema: z.object({}),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context) => {
    const rows = await historyOf(context).list()
    return { data: rows.map((row) => ({ version: row.version, ...(row.name ? { name: row.name } : {}) })) }
  },
})
