import fs from 'node:fs'
import { AddonVariantParams, ApplyAddonBody, PITR_RETENTION_DAYS, PITR_VARIANTS, PitrVariant, RefParams, RestorePitrBody, type ProjectAddons } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { baseBackupFor, listBaseBackups } from './archive-restore.js'
import type { ProjectRow } from '../project-store.js'
import { identityOf, projectAccess } from '../../http/access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, conflict, parse } from '../../errors.js'
import { route } from '../../http/typed-route.js'

/** Monthly prices of the PITR variants (as the hosted platform lists them; no payment is processed here). */
const PITR_PRICES: Record<PitrVariant, number> = { pitr_7: 100, pitr_14: 200, pitr_28: 400 }

const pitrVariant = (id: PitrVariant) => ({
  id,
  name: `${PITR_RETENTION_DAYS[id]} days`,
  price: { description: `$${PITR_PRICES[id]}/month`, type: 'fixed' as const, interval: 'monthly' as const, amount: PITR_PRICES[id] },
  meta: { backup_duration_days: PITR_RETENTION_DAYS[id] },
})

export function projectAddons(project: ProjectRow): ProjectAddons {
  return {
    selected_addons: project.pitr_variant ? [{ type: 'pitr', variant: pitrVariant(project.pitr_variant) }] : [],
    available_addons: [{ type: 'pitr', name: 'Point in time recovery', variants: PITR_VARIANTS.map(pitrVariant) }],
  }
}

/**
 * The PITR add-on and restores to a moment (control/pitr/). Turning the add-on on or off restarts the
 * instance (archive_mode needs a restart); the first base backup follows on its own (pitr/scheduler.ts).
 * Add-ons: 'billing.write' and the Pro plan; restores: 'infrastructure.execute'.
 */
export async function pitrRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const restartWith = async (request: FastifyRequest, project: ProjectRow, variant: PitrVariant | null) => {
    const op = await ctx.operations.request(project.ref, 'restart', {}, identityOf(request).user.id, {
      prepare: (tx) => tx.query('UPDATE projects SET pitr_variant = $2 WHERE ref = $1', [project.ref, variant]),
    })
    return op.id
  }

  const addons = async (request: FastifyRequest) => {
    const { ref } = parse(RefParams, request.params)
    return projectAddons((await projectAccess(ctx.db, request, ref)).project)
  }
  route(app, 'GET /v1/projects/{ref}/billing/addons', addons)
  app.get('/platform/projects/:ref/billing/addons', addons)

  const apply = async (request: FastifyRequest) => {
    const { ref } = parse(RefParams, request.params)
    const body = parse(ApplyAddonBody, request.body)
    const { project } = await projectAccess(ctx.db, request, ref, 'billing.write')
    if (body.addon_type !== 'pitr') throw invalidInput(`The ${body.addon_type} add-on is not offered by this platform (compute size: use resize)`)
    const variant = parse(PitrVariant, body.addon_variant)
    const { rows } = await ctx.db.query<{ plan: string }>('SELECT plan FROM organizations WHERE id = $1', [project.organization_id])
    if (rows[0]?.plan !== 'pro') throw invalidInput('Point in time recovery is available on the Pro plan: upgrade the organization to use it')
    if (project.status !== 'ACTIVE_HEALTHY') throw conflict(`Cannot change add-ons while the project is ${project.status}`)
    // Another retention only: archiving is on already, nothing restarts.
    if (project.pitr_variant) {
      await ctx.db.query('UPDATE projects SET pitr_variant = $2 WHERE ref = $1', [ref, variant])
      return {}
    }
    return { operation_id: await restartWith(request, project, variant) }
  }
  route(app, 'PATCH /v1/projects/{ref}/billing/addons', apply)
  app.post('/platform/projects/:ref/billing/addons', apply)

  const remove = async (request: FastifyRequest) => {
    const { ref, addon_variant } = parse(AddonVariantParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'billing.write')
    if (!PITR_VARIANTS.includes(addon_variant as PitrVariant) || project.pitr_variant !== addon_variant) {
      throw invalidInput(`The add-on ${addon_variant} is not selected for this project`)
    }
    if (project.status !== 'ACTIVE_HEALTHY') throw conflict(`Cannot change add-ons while the project is ${project.status}`)
    const operationId = await restartWith(request, project, null)
    // The base backups go with the add-on (the archived WAL goes with the project).
    for (const backup of await listBaseBackups(ctx.db, ref)) fs.rmSync(backup.directory, { recursive: true, force: true })
    await ctx.db.query('DELETE FROM pitr_base_backups WHERE project_ref = $1', [ref])
    return { operation_id: operationId }
  }
  route(app, 'DELETE /v1/projects/{ref}/billing/addons/{addon_variant}', remove)
  app.delete('/platform/projects/:ref/billing/addons/:addon_variant', remove)

  const restore = async (request: FastifyRequest) => {
    const { ref } = parse(RefParams, request.params)
    const { recovery_time_target_unix } = parse(RestorePitrBody, request.body)
    const { project } = await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    if (project.status !== 'ACTIVE_HEALTHY') throw conflict(`Cannot restore while the project is ${project.status}`)
    const target = new Date(recovery_time_target_unix * 1000)
    // Refused here, in plain words, rather than by the job: no add-on, a future moment, or one before the window.
    try {
      await baseBackupFor(ctx.db, project, target)
    } catch (error) {
      throw invalidInput((error as Error).message)
    }
    const op = await ctx.operations.request(ref, 'pitr_restore', { recovery_time_target: target.toISOString() }, identityOf(request).user.id)
    return { operation_id: op.id }
  }
  route(app, 'POST /platform/database/{ref}/backups/pitr', restore)
  route(app, 'POST /v1/projects/{ref}/database/backups/restore-pitr', async (request, reply) => reply.code(201).send(await restore(request)))
}
