import { RefParams, UPGRADE_STATUS, type DatabaseUpgradeStatus, type PostgresMajor } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { findOperation, latestOperation, type OperationRow } from '../../control/operations/operation-store.js'
import { upgradeFailureMessage } from '../../control/operations/upgrade-failure.js'
import { installedMajors, shippedVersion } from '../../control/postgres-binaries.js'
import { blockerText, upgradeBlockers } from '../../control/upgrade-eligibility.js'
import { inTransaction } from '../../store/db.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, conflict, parse } from '../../errors.js'
import { route } from '../typed-route.js'

const StatusQuery = z.object({ tracking_id: z.uuid({ error: 'tracking_id must be the id returned by the upgrade call' }).optional() })

function toUpgradeStatus(op: OperationRow | null): DatabaseUpgradeStatus {
  if (!op) return { databaseUpgradeStatus: null }
  const status = op.status === 'running' ? UPGRADE_STATUS.Upgrading : op.status === 'succeeded' ? UPGRADE_STATUS.Upgraded : UPGRADE_STATUS.Failed
  return {
    databaseUpgradeStatus: {
      initiated_at: op.initiated_at.toISOString(),
      latest_status_at: op.updated_at.toISOString(),
      target_version: Number(op.params.target_major),
      status,
      ...(op.params.progress ? { progress: op.params.progress as never } : {}),
      ...(op.status === 'failed' ? { error: (op.params.error_code ?? '8_upgrade_completion_failed') as never } : {}),
      ...(op.status === 'failed' || op.status === 'cancelled' ? { error_message: upgradeFailureMessage(op.error) } : {}),
    },
  }
}

/** Majors newer than the project's that are installed here: where it may upgrade to. */
const upgradeTargets = (current: string) => installedMajors().filter((major) => Number(major) > Number(current)).sort((a, b) => Number(b) - Number(a))

export async function upgradeRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  route(app, 'POST /v1/projects/{ref}/upgrade', async (request, reply, input) => {
    const { ref } = parse(RefParams, request.params)
    const body = input.body
    const { project } = await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    const target = body.target_version.split('.')[0] as PostgresMajor
    if (!upgradeTargets(project.postgres_major).includes(target)) {
      throw invalidInput(`Cannot upgrade from Postgres ${project.postgres_major} to ${body.target_version}: available targets are ${upgradeTargets(project.postgres_major).join(', ') || 'none'}`)
    }
    if (project.status !== 'ACTIVE_HEALTHY') throw conflict(`Cannot upgrade while the project is ${project.status}`)
    // Refused before anything starts: the operation would otherwise fail half-way on the same objects.
    const blockers = await upgradeBlockers(project.port, ctx.projects.credentials(project).adminPassword, target)
    if (blockers.length) throw invalidInput(`Cannot upgrade to Postgres ${target}: ${blockers.map((blocker) => blockerText(blocker, target)).join('; ')}`)
    const nextPort = await inTransaction(ctx.db, (tx) => ctx.projects.allocatePort(tx))
    const op = await ctx.operations.request(ref, 'upgrade', {
      target_major: target, source_major: project.postgres_major, next_port: nextPort, progress: '0_requested',
    }, identityOf(request).user.id)
    reply.code(201)
    return { tracking_id: op.id }
  })

  route(app, 'GET /v1/projects/{ref}/upgrade/status', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const { tracking_id } = parse(StatusQuery, request.query)
    await projectAccess(ctx.db, request, ref)
    const op = tracking_id ? await findOperation(ctx.db, tracking_id) : await latestOperation(ctx.db, ref, 'upgrade')
    return toUpgradeStatus(op && op.project_ref === ref && op.kind === 'upgrade' ? op : null)
  })

  route(app, 'GET /v1/projects/{ref}/upgrade/eligibility', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref)
    const targets = upgradeTargets(project.postgres_major)
    const appVersion = (major: PostgresMajor) => `postgres-${shippedVersion(major)}`
    // The project is inspected for the newest target (what the dashboard offers); a stopped one cannot be read.
    const running = project.status === 'ACTIVE_HEALTHY'
    const blockers = running && targets[0] ? await upgradeBlockers(project.port, ctx.projects.credentials(project).adminPassword, targets[0]) : []
    return {
      eligible: targets.length > 0 && running && blockers.length === 0,
      current_app_version: appVersion(project.postgres_major),
      current_app_version_release_channel: 'ga' as const,
      latest_app_version: appVersion(targets[0] ?? project.postgres_major),
      target_upgrade_versions: targets.map((major) => ({ postgres_version: major, release_channel: 'ga' as const, app_version: appVersion(major) })),
      duration_estimate_hours: 1,
      legacy_auth_custom_roles: [],
      objects_to_be_dropped: [],
      unsupported_extensions: blockers.flatMap((blocker) => (blocker.type === 'unsupported_extension' ? [blocker.extension_name] : [])),
      user_defined_objects_in_internal_schemas: [],
      // Each with its reason in plain words (Stratum's addition beside the reference's fields), what the dashboard lists.
      validation_errors: blockers.map((blocker) => ({ ...blocker, message: blockerText(blocker, targets[0]!) })),
    }
  })
}
