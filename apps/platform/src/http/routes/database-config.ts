import {
  NetworkRestrictionsPatchRequest,
  NetworkRestrictionsRequest,
  RefParams,
  type PostgresConfig,
} from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { adminConnection, withAdminClient } from '../../control/bootstrap-roles.js'
import { checkAgainstCatalog, needsRestart, readSettings, toPostgresConfig } from '../../control/database-config.js'
import { findProject, type ProjectRow } from '../../control/project-store.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, conflict, parse } from '../../errors.js'
import { route } from '../typed-route.js'

const RUNNING = ['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY']

function networkAnswer(row: ProjectRow) {
  return {
    entitlement: 'allowed' as const,
    config: { dbAllowedCidrs: row.db_allowed_cidrs, dbAllowedCidrsV6: row.db_allowed_cidrs_v6 },
    status: 'applied' as const,
    ...(row.network_restrictions_updated_at ? { updated_at: row.network_restrictions_updated_at.toISOString() } : {}),
    ...(row.network_restrictions_applied_at ? { applied_at: row.network_restrictions_applied_at.toISOString() } : {}),
  }
}

/**
 * The database server's settings and who may connect (Management API): config/database/postgres,
 * network-restrictions and ssl-enforcement. Stored on the project, written to the instance's
 * stratum.conf and pg_hba.conf and reloaded at once; settings that need a restart wait for one
 * (restart_database: true starts it). Reading needs projects.read, changing infrastructure.execute.
 */
export async function databaseConfigRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const connection = (project: ProjectRow) => adminConnection(project.port, ctx.projects.credentials(project).adminPassword)

  async function access(request: FastifyRequest, write: boolean) {
    const { ref } = parse(RefParams, request.params)
    return (await projectAccess(ctx.db, request, ref, write ? 'infrastructure.execute' : 'projects.read')).project
  }

  /** The settings in force when the server runs (its own view), else the stored ones. */
  async function currentConfig(project: ProjectRow): Promise<Partial<PostgresConfig>> {
    if (!RUNNING.includes(project.status)) return project.postgres_config
    return toPostgresConfig(await withAdminClient(connection(project), (client) => readSettings(client)), project.postgres_config)
  }

  async function apply(project: ProjectRow): Promise<ProjectRow> {
    await ctx.projects.reconfigure(project.ref)
    return (await findProject(ctx.db, project.ref))!
  }

  route(app, 'GET /v1/projects/{ref}/config/database/postgres', async (request) => currentConfig(await access(request, false)))

  route(app, 'PUT /v1/projects/{ref}/config/database/postgres', async (request, _reply, input) => {
    const project = await access(request, true)
    const { restart_database: restart, ...update } = input.body
    if (!RUNNING.includes(project.status)) throw conflict(`The database settings can change while the project runs (status: ${project.status})`)
    const rows = await withAdminClient(connection(project), (client) => readSettings(client))
    const problem = checkAgainstCatalog(rows, update)
    if (problem) throw invalidInput(problem)
    await ctx.db.query('UPDATE projects SET postgres_config = postgres_config || $2::jsonb WHERE ref = $1', [project.ref, JSON.stringify(update)])
    const updated = await apply(project)
    // Settings of context postmaster wait for a restart (pg_settings.pending_restart says so until then).
    if (needsRestart(rows, update).length && restart) {
      await ctx.operations.request(project.ref, 'restart', {}, identityOf(request).user.id)
      // The server is going down for the restart: answer from what was read before, with the stored values over it.
      return { ...toPostgresConfig(rows, {}), ...updated.postgres_config }
    }
    return currentConfig(updated)
  })

  route(app, 'GET /v1/projects/{ref}/network-restrictions', async (request) => networkAnswer(await access(request, false)))

  async function setNetworks(request: FastifyRequest, project: ProjectRow, v4: string[], v6: string[]) {
    await ctx.db.query(
      `UPDATE projects SET db_allowed_cidrs = $2, db_allowed_cidrs_v6 = $3, network_restrictions_updated_at = now() WHERE ref = $1`,
      [project.ref, [...new Set(v4)], [...new Set(v6)]],
    )
    const updated = await apply(project)
    await ctx.db.query('UPDATE projects SET network_restrictions_applied_at = now() WHERE ref = $1', [project.ref])
    request.log.info({ ref: project.ref, v4: updated.db_allowed_cidrs.length, v6: updated.db_allowed_cidrs_v6.length }, 'network restrictions applied')
    return (await findProject(ctx.db, project.ref))!
  }

  route(app, 'POST /v1/projects/{ref}/network-restrictions/apply', async (request, reply) => {
    const project = await access(request, true)
    const body = parse(NetworkRestrictionsRequest, request.body ?? {})
    const updated = await setNetworks(request, project, body.dbAllowedCidrs ?? project.db_allowed_cidrs, body.dbAllowedCidrsV6 ?? project.db_allowed_cidrs_v6)
    reply.code(201)
    return networkAnswer(updated)
  })

  route(app, 'PATCH /v1/projects/{ref}/network-restrictions', async (request) => {
    const project = await access(request, true)
    const { add = {}, remove = {} } = parse(NetworkRestrictionsPatchRequest, request.body ?? {})
    const change = (current: string[], added: string[] = [], removed: string[] = []) => [...current, ...added].filter((cidr) => !removed.includes(cidr))
    const updated = await setNetworks(
      request,
      project,
      change(project.db_allowed_cidrs, add.dbAllowedCidrs, remove.dbAllowedCidrs),
      change(project.db_allowed_cidrs_v6, add.dbAllowedCidrsV6, remove.dbAllowedCidrsV6),
    )
    const answer = networkAnswer(updated)
    // The V2 answer lists each network with its family.
    return {
      ...answer,
      config: {
        dbAllowedCidrs: [
          ...updated.db_allowed_cidrs.map((address) => ({ address, type: 'v4' as const })),
          ...updated.db_allowed_cidrs_v6.map((address) => ({ address, type: 'v6' as const })),
        ],
      },
    }
  })

  route(app, 'GET /v1/projects/{ref}/ssl-enforcement', async (request) => {
    const project = await access(request, false)
    return { currentConfig: { database: project.ssl_enforced }, appliedSuccessfully: true }
  })

  route(app, 'PUT /v1/projects/{ref}/ssl-enforcement', async (request, _reply, input) => {
    const project = await access(request, true)
    const { requestedConfig } = input.body
    await ctx.db.query('UPDATE projects SET ssl_enforced = $2 WHERE ref = $1', [project.ref, requestedConfig.database])
    const updated = await apply(project)
    return { currentConfig: { database: updated.ssl_enforced }, appliedSuccessfully: true }
  })
}
