import {
  COMPUTE_SIZES,
  GB,
  READONLY_OVERRIDE_MINUTES,
  RESOURCE_BUDGETS,
  RefParams,
  type ComputeSize,
  type DiskQuota,
  type ProjectResourceWarnings,
  type ProjectUsage,
  type ReadOnlyStatus,
} from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { listProjectsForUser, type ProjectRow } from '../../control/project-store.js'
import { usageSeries } from './store.js'
import { resourceWarnings } from './warnings.js'
import { identityOf, projectAccess } from '../../http/access.js'
import type { PlatformContext } from '../../platform-context.js'
import { parse } from '../../errors.js'
import { route } from '../../http/typed-route.js'

type UsageRow = ProjectRow & { disk_quota_bytes: string; readonly_since: Date | null; readonly_override_until: Date | null; readonly_applied: boolean }

function readOnlyStatus(row: UsageRow): ReadOnlyStatus {
  const until = row.readonly_override_until
  return {
    enabled: row.readonly_since !== null,
    override_enabled: until !== null && until.getTime() > Date.now(),
    override_active_until: (until ?? new Date(0)).toISOString(),
  }
}

/**
 * Usage and resource warnings (observability/usage/): the warnings of every project the caller reads, a project's
 * usage series for the Infrastructure page, its disk quota (raised up to 200GB on the Compute and Disk page), and
 * read-only mode with the Management API's status and 15-minute override.
 */
export async function usageRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  route(app, 'GET /platform/projects-resource-warnings', async (request): Promise<ProjectResourceWarnings[]> => {
    const projects = (await listProjectsForUser(ctx.db, identityOf(request).user.id)) as UsageRow[]
    return resourceWarnings(ctx.db, projects)
  })

  route(app, 'GET /platform/projects/{ref}/usage', async (request, _reply, input): Promise<ProjectUsage> => {
    const { ref } = parse(RefParams, request.params)
    const { interval } = input.query
    const project = (await projectAccess(ctx.db, request, ref, 'projects.read')).project as UsageRow
    const size = (project.compute_size in COMPUTE_SIZES ? project.compute_size : 'micro') as ComputeSize
    return {
      interval,
      disk_quota_bytes: Number(project.disk_quota_bytes),
      max_connections: COMPUTE_SIZES[size].max_connections,
      memory_limit_bytes: RESOURCE_BUDGETS[size].memory_bytes,
      postgres_version: project.postgres_version || project.postgres_major,
      readonly: readOnlyStatus(project),
      points: await usageSeries(ctx.db, ref, interval),
    }
  })

  route(app, 'GET /platform/projects/{ref}/disk', async (request): Promise<DiskQuota> => {
    const { ref } = parse(RefParams, request.params)
    const project = (await projectAccess(ctx.db, request, ref, 'projects.read')).project as UsageRow
    return diskQuota(ctx, project)
  })

  // Resizing the disk is an infrastructure change (Owner and Administrator); writes come back at once when the new
  // quota puts the project below 95%.
  route(app, 'POST /platform/projects/{ref}/disk', async (request, _reply, input): Promise<DiskQuota> => {
    const { ref } = parse(RefParams, request.params)
    const body = input.body
    await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    const bytes = body.size_bytes ?? body.size_gb! * GB
    await ctx.db.query('UPDATE projects SET disk_quota_bytes = $2 WHERE ref = $1', [ref, bytes])
    await ctx.usage.reconcile(ref)
    const project = (await projectAccess(ctx.db, request, ref, 'projects.read')).project as UsageRow
    return diskQuota(ctx, project)
  })

  route(app, 'GET /v1/projects/{ref}/readonly', async (request): Promise<ReadOnlyStatus> => {
    const { ref } = parse(RefParams, request.params)
    return readOnlyStatus((await projectAccess(ctx.db, request, ref, 'projects.read')).project as UsageRow)
  })

  // Writes for the next 15 minutes, to delete data (as Supabase offers); the collector turns read-only back on after
  // it when the disk is still at 95%.
  route(app, 'POST /v1/projects/{ref}/readonly/temporary-disable', async (request, reply) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    await ctx.db.query(`UPDATE projects SET readonly_override_until = now() + make_interval(mins => $2) WHERE ref = $1`, [ref, READONLY_OVERRIDE_MINUTES])
    await ctx.usage.reconcile(ref)
    reply.code(201)
    return {}
  })
}

async function diskQuota(ctx: PlatformContext, project: UsageRow): Promise<DiskQuota> {
  const { rows } = await ctx.db.query<{ disk_bytes: string; at: Date }>(
    'SELECT disk_bytes, at FROM usage_samples WHERE project_ref = $1 AND disk_bytes IS NOT NULL ORDER BY at DESC LIMIT 1',
    [project.ref],
  )
  return { size_bytes: Number(project.disk_quota_bytes), used_bytes: rows[0] ? Number(rows[0].disk_bytes) : null, measured_at: rows[0]?.at.toISOString() ?? null }
}
