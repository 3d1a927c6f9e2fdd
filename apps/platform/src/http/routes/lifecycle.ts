import fs from 'node:fs'
import path from 'node:path'
import {
  FREE_PROJECT_LIMIT,
  MAX_DAYS_TILL_RESTORE_DISABLED,
  RefParams,
  RestoreBody,
  type Backup,
  type PauseStatus,
  type ProjectStatus,
  type RestoreVersions,
} from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { inTransaction } from '../../store/db.js'
import { z } from 'zod'
import { listBackups, type BackupRow } from '../../control/backups.js'
import { recoverableWindow } from '../../control/pitr/archive-restore.js'
import type { OperationKind } from '../../control/operations/operation-store.js'
import { installedMajors, shippedVersion } from '../../control/postgres-binaries.js'
import type { ProjectRow } from '../../control/project-store.js'
import { signLink, verifyLink } from '../../control/signed-urls.js'
import { identityOf, projectAccess } from '../access.js'
import { membersAtFreeProjectLimit } from './project-removal.js'
import { operationRoutes } from './operations.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, forbidden, notFound, conflict, parse } from '../../errors.js'
import { route } from '../typed-route.js'

const DOWNLOAD_LINK_SECONDS = 300
const DAY_MS = 24 * 3600 * 1000

const toBackup = (row: BackupRow): Backup => ({
  id: Number(row.id),
  inserted_at: row.inserted_at.toISOString(),
  isPhysicalBackup: row.is_physical_backup,
  status: row.status,
  size_bytes: Number(row.size_bytes),
  postgres_engine: row.postgres_major,
})

function assertStatus(project: ProjectRow, allowed: ProjectStatus[], action: string): void {
  if (!allowed.includes(project.status)) {
    throw conflict(`Cannot ${action} while the project is ${project.status}`)
  }
}

/**
 * The majors a paused project can be restored on, newest first (the dashboard preselects the first
 * GA one): its own, or a newer installed one (the restore then upgrades it). Never an older one.
 */
export function restoreVersions(project: ProjectRow): RestoreVersions {
  return {
    available_versions: installedMajors()
      .filter((major) => Number(major) >= Number(project.postgres_major))
      .sort((a, b) => Number(b) - Number(a))
      .map((major) => ({ version: shippedVersion(major), postgres_engine: major, release_channel: 'ga' as const })),
  }
}

/** Free projects may be restored for 90 days after their pause; paid ones always. */
async function pauseStatus(ctx: PlatformContext, project: ProjectRow): Promise<PauseStatus> {
  const { rows } = await ctx.db.query<{ plan: string }>('SELECT plan FROM organizations WHERE id = $1', [project.organization_id])
  const pausedAt = (await ctx.db.query<{ paused_at: Date | null }>('SELECT paused_at FROM projects WHERE ref = $1', [project.ref])).rows[0]?.paused_at
  const downloadable = (await listBackups(ctx.db, project.ref)).find((backup) => !backup.is_physical_backup)
  const free = rows[0]?.plan !== 'pro'
  const remaining = free && pausedAt ? Math.max(0, MAX_DAYS_TILL_RESTORE_DISABLED - Math.floor((Date.now() - pausedAt.getTime()) / DAY_MS)) : null
  return {
    can_restore: project.status === 'INACTIVE' && (remaining === null || remaining > 0),
    latest_downloadable_backup_id: downloadable ? Number(downloadable.id) : null,
    max_days_till_restore_disabled: MAX_DAYS_TILL_RESTORE_DISABLED,
    remaining_days_till_restore_disabled: remaining,
  }
}

export async function lifecycleRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  // Every operation's progress and its cancel (pause, restore, ... JWT rotation, backups).
  await operationRoutes(app, ctx)

  async function start(request: FastifyRequest, project: ProjectRow, kind: OperationKind, params: Record<string, unknown> = {}) {
    const op = await ctx.operations.request(project.ref, kind, params, identityOf(request).user.id)
    return { operation_id: op.id }
  }

  async function pause(request: FastifyRequest) {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    assertStatus(project, ['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY'], 'pause')
    return start(request, project, 'pause')
  }

  async function restore(request: FastifyRequest) {
    const { ref } = parse(RefParams, request.params)
    const body = parse(RestoreBody, request.body)
    const { project } = await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    // A failed pause left the instance stopped with its data intact: restoring brings it back.
    assertStatus(project, ['INACTIVE', 'RESTORE_FAILED', 'PAUSE_FAILED'], 'restore')
    if (project.status === 'INACTIVE' && !(await pauseStatus(ctx, project)).can_restore) {
      throw invalidInput(`This project was paused more than ${MAX_DAYS_TILL_RESTORE_DISABLED} days ago and can no longer be restored; its backup stays downloadable`)
    }
    const atLimit = await membersAtFreeProjectLimit(ctx.db, project.organization_id)
    if (atLimit.length > 0) {
      throw invalidInput(`The free plan allows ${FREE_PROJECT_LIMIT} active projects per owner or administrator, and ${atLimit.map((m) => m.primary_email).join(', ')} reached it: pause another project or upgrade to Pro`)
    }
    const target = body.postgres_engine ?? project.postgres_major
    if (Number(target) < Number(project.postgres_major)) {
      throw invalidInput(`A project on Postgres ${project.postgres_major} cannot be restored on the older Postgres ${target}`)
    }
    if (target !== project.postgres_major) {
      const nextPort = await inTransaction(ctx.db, (tx) => ctx.projects.allocatePort(tx))
      return start(request, project, 'restore', { target_major: target, source_major: project.postgres_major, next_port: nextPort, progress: '0_requested' })
    }
    return start(request, project, 'restore')
  }

  route(app, 'POST /platform/projects/{ref}/pause', pause)
  route(app, 'POST /v1/projects/{ref}/pause', pause)
  route(app, 'POST /platform/projects/{ref}/restore', restore)
  route(app, 'POST /v1/projects/{ref}/restore', restore)

  route(app, 'GET /platform/projects/{ref}/pause/status', async (request) => {
    const { ref } = parse(RefParams, request.params)
    return pauseStatus(ctx, (await projectAccess(ctx.db, request, ref)).project)
  })

  const versions = async (request: FastifyRequest) => {
    const { ref } = parse(RefParams, request.params)
    return restoreVersions((await projectAccess(ctx.db, request, ref)).project)
  }
  route(app, 'GET /platform/projects/{ref}/restore/versions', versions)
  route(app, 'GET /v1/projects/{ref}/restore', versions)

  route(app, 'POST /platform/projects/{ref}/restart', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    assertStatus(project, ['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY'], 'restart')
    return start(request, project, 'restart')
  })

  route(app, 'POST /platform/projects/{ref}/resize', async (request, _reply, input) => {
    const { ref } = parse(RefParams, request.params)
    const { desired_instance_size } = input.body
    const { project } = await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    assertStatus(project, ['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY'], 'resize')
    if (desired_instance_size === project.compute_size) throw invalidInput(`The project already runs on ${desired_instance_size}`)
    return start(request, project, 'resize', { compute_size: desired_instance_size, previous_size: project.compute_size })
  })

  route(app, 'GET /platform/database/{ref}/backups', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref)
    const backups = (await listBackups(ctx.db, ref)).map(toBackup)
    const pitr = project.pitr_variant !== null
    return { region: project.region, pitr_enabled: pitr, walg_enabled: pitr, backups, physical_backup_data: await recoverableWindow(ctx.db, project) }
  })

  route(app, 'GET /v1/projects/{ref}/database/backups', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref)
    const backups = (await listBackups(ctx.db, ref)).map((row) => ({
      is_physical_backup: row.is_physical_backup,
      status: row.status,
      inserted_at: row.inserted_at.toISOString(),
    }))
    const window = await recoverableWindow(ctx.db, project)
    const pitr = project.pitr_variant !== null
    return {
      region: project.region,
      walg_enabled: pitr,
      pitr_enabled: pitr,
      backups,
      physical_backup_data: {
        ...(window.earliestPhysicalBackupDateUnix !== undefined ? { earliest_physical_backup_date_unix: window.earliestPhysicalBackupDateUnix } : {}),
        ...(window.latestPhysicalBackupDateUnix !== undefined ? { latest_physical_backup_date_unix: window.latestPhysicalBackupDateUnix } : {}),
      },
    }
  })

  // Logical backups only: they restore into any empty Postgres with psql.
  route(app, 'GET /platform/database/{ref}/backups/downloadable-backups', async (request) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref)
    return { backups: (await listBackups(ctx.db, ref)).filter((row) => !row.is_physical_backup).map(toBackup) }
  })

  route(app, 'POST /platform/database/{ref}/backups/download', async (request, _reply, input) => {
    const { ref } = parse(RefParams, request.params)
    const { id } = input.body
    await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    const backup = (await listBackups(ctx.db, ref)).find((row) => Number(row.id) === id)
    if (!backup) throw notFound(`Backup ${id} not found`)
    const token = signLink(ctx.secrets, `backup-${backup.id}`, DOWNLOAD_LINK_SECONDS)
    return { fileUrl: `/api/backups/download/${token}` }
  })

  // The signed link is the credential: the browser opens it as a plain download.
  app.get('/api/backups/download/:token', async (request, reply) => {
    const { token } = parse(z.object({ token: z.string().max(300) }), request.params)
    const subject = verifyLink(ctx.secrets, token)
    if (!subject?.startsWith('backup-')) throw forbidden('This download link is invalid or has expired')
    const { rows } = await ctx.db.query<BackupRow>(`SELECT * FROM backups WHERE id = $1 AND status = 'COMPLETED'`, [subject.slice(7)])
    const backup = rows[0]
    if (!backup || !fs.existsSync(backup.file_path)) throw notFound('This backup no longer exists')
    return reply
      .header('Content-Type', 'application/octet-stream')
      .header('Content-Disposition', `attachment; filename="${backup.project_ref}-${path.basename(backup.file_path)}"`)
      .send(fs.createReadStream(backup.file_path))
  })
}
