import type { AdvisorKind, Lint } from '@stratum/contracts'
import { READONLY_ROLE } from '../../control/bootstrap-roles.js'
import { toLint, type LintDefinition, type LintRow } from './lint.js'
import { PERFORMANCE_LINTS } from './performance.js'
import { SECURITY_LINTS } from './security.js'
import { openProjectSession } from '../../control/project-connections.js'

export const LINTS: Record<AdvisorKind, LintDefinition[]> = { security: SECURITY_LINTS, performance: PERFORMANCE_LINTS }

/** Where a project's database answers, with the read-only role's password: the lints only read catalogs. */
export interface AdvisorTarget {
  port: number
  readonlyPassword: string
  /** The schemas the project's data API exposes (its PostgREST db_schema). */
  exposedSchemas: string[]
}

/** Catalog reads stay small, but a database with very many objects must not hold a connection for long. */
const STATEMENT_TIMEOUT_MS = 15_000

/**
 * Runs the lints of the given kinds against the project's database, on one read-only connection and in
 * one snapshot (REPEATABLE READ), so that every lint sees the same schema. Lints in the order given.
 */
export async function runLints(target: AdvisorTarget, kinds: AdvisorKind[]): Promise<Lint[]> {
  const client = await openProjectSession(
    { port: target.port, user: READONLY_ROLE, password: target.readonlyPassword },
    { applicationName: 'stratum-advisors', statementTimeoutMs: STATEMENT_TIMEOUT_MS },
  )
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    const lints: Lint[] = []
    for (const kind of kinds) {
      for (const definition of LINTS[kind]) {
        const { rows } = await client.query<LintRow>(definition.sql, definition.exposed ? [target.exposedSchemas] : [])
        lints.push(...rows.map((row) => toLint(definition, row)))
      }
    }
    await client.query('COMMIT')
    return lints
  } finally {
    await client.end().catch(() => {})
  }
}
