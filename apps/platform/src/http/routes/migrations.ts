import { RefParams, V1MigrationVersionParams } from '@stratum/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ProjectRow } from '../../control/project-store.js'
import { MigrationHistory } from '../../sql-runner/migration-history.js'
import type { RunOutcome } from '../../sql-runner/runner.js'
import { assertCan } from '../../auth/project-access.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, notFound, parse } from '../../errors.js'
import { route } from '../typed-route.js'

/** Runs SQL as the project's `postgres` role (sqlRoutes' runner, with the member's query slot). */
export type RunAsOwner = (request: FastifyRequest, reply: FastifyReply, project: ProjectRow, sql: string) => Promise<RunOutcome>

/**
 * The Management API's migration history (sql-runner/migration-history.ts does the work, shared with
 * the AI tools). Reads: 'projects.read'; changes: 'sql.write'.
 */
export async function migrationRoutes(app: FastifyInstance, ctx: PlatformContext, run: RunAsOwner): Promise<void> {
  const access = async (request: FastifyRequest, reply: FastifyReply, write: boolean) => {
    const { ref } = parse(RefParams, request.params)
    const found = await projectAccess(ctx.db, request, ref, 'projects.read', ctx.accessCache)
    if (write) assertCan(found.role, 'sql.write')
    return new MigrationHistory((sql) => run(request, reply, found.project, sql))
  }

  route(app, 'GET /v1/projects/{ref}/database/migrations', async (request, reply) => {
    const rows = await (await access(request, reply, false)).list()
    return rows.map((row) => ({ version: row.version, ...(row.name ? { name: row.name } : {}) }))
  })

  route(app, 'GET /v1/projects/{ref}/database/migrations/{version}', async (request, reply) => {
    const history = await access(request, reply, false)
    const { version } = parse(V1MigrationVersionParams, request.params)
    const row = (await history.list()).find((entry) => entry.version === version)
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
    route(app, `${method} /v1/projects/{ref}/database/migrations`, async (request, reply, input) => {
      const history = await access(request, reply, true)
      const body = input.body
      const key = headerText(request.headers['idempotency-key'])
      if (key !== undefined && (key.length === 0 || key.length > 256)) throw invalidInput('Idempotency-Key must be 1 to 256 characters')
      return history.apply({
        name: body.name,
        query: body.query,
        rollback: body.rollback,
        createdBy: identityOf(request).user.email,
        idempotencyKey: key,
        recordOnly: method === 'PUT',
      })
    })
  }

  route(app, 'PATCH /v1/projects/{ref}/database/migrations/{version}', async (request, reply, input) => {
    const history = await access(request, reply, true)
    const { version } = parse(V1MigrationVersionParams, request.params)
    const body = input.body
    await history.update(version, body)
    return { message: `Migration ${version} updated` }
  })

  route(app, 'DELETE /v1/projects/{ref}/database/migrations', async (request, reply, input) => {
    const history = await access(request, reply, true)
    const { gte } = input.query
    const versions = await history.rollback(gte)
    if (!versions.length) return { message: 'No migrations to roll back' }
    return { message: `Rolled back ${versions.length} migration${versions.length === 1 ? '' : 's'}`, versions }
  })
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)
