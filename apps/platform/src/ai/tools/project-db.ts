import { SQL_DEFAULT_TIMEOUT_MS } from '@stratum/contracts'
import type { ProjectRow } from '../../control/project-store.js'
import { conflict, rateLimited } from '../../errors.js'
import type { MetaTarget } from '../../meta/service.js'
import { memberLimitMessage } from '../../sql-runner/member-limiter.js'
import type { RunOutcome } from '../../sql-runner/runner.js'
import type { ProjectToolContext } from './types.js'

/** The project's database answers only while it is ACTIVE_HEALTHY (the SQL and meta routes' rule, in their words). */
export function assertActive(project: ProjectRow): void {
  if (project.status !== 'ACTIVE_HEALTHY') {
    throw conflict(`Project ${project.ref} is not ready: its status is ${project.status}, and queries run only when it is ACTIVE_HEALTHY`)
  }
}

/** Where introspection reads the project's catalogs (meta/), as the meta routes reach it. */
export function metaTarget(context: ProjectToolContext): MetaTarget {
  assertActive(context.project)
  const credentials = context.platform.projects.credentials(context.project)
  return { ref: context.project.ref, port: context.project.port, password: credentials.adminPassword, readonlyPassword: credentials.readonlyPassword }
}

export interface SqlRun {
  mode: 'read-only' | 'full'
  sql: string
  maxRows?: number
  maxChars?: number
  parameters?: unknown[]
}

/**
 * Runs SQL through the SQL editor's and the Management API's runner (sql-runner/): read-only as the
 * read-only role (default_transaction_read_only, SELECT grants only), full as the project's `postgres`;
 * the default statement timeout; the member's share of query sessions, as the routes take it.
 */
export async function runProjectSql(context: ProjectToolContext, run: SqlRun): Promise<RunOutcome> {
  const { project } = context
  assertActive(project)
  const slot = context.services.members.tryAcquire(context.caller.id, project.ref)
  if (!slot) throw rateLimited(memberLimitMessage(context.services.members.limit))
  try {
    return await context.services.sql.run(project, run.mode, run.sql, {
      timeoutMs: SQL_DEFAULT_TIMEOUT_MS,
      parameters: run.parameters,
      onSession: slot.session,
      maxRows: run.maxRows,
      maxChars: run.maxChars,
    })
  } finally {
    slot.release()
  }
}
