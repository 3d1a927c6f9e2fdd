import { FREE_PROJECT_LIMIT, RefParams, SlugParams, type MemberAtFreeProjectLimit } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { backupDirectory } from '../../control/backups.js'
import { findProject, type ProjectRow } from '../../control/project-store.js'
import { pitrDir } from '../../control/pitr/archive-paths.js'
import { functionsDir } from '../../services/functions/store.js'
import { archivesDir } from '../../services/storage/archive.js'
import type { Db } from '../../store/db.js'
import { identityOf, orgAccess, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { notFound, conflict, parse } from '../../errors.js'
import { route } from '../typed-route.js'

/**
 * Owners and administrators of a free organization who already run the free limit of active
 * projects (counted over every free organization they own or administer).
 */
export async function membersAtFreeProjectLimit(db: Db, organizationId: string): Promise<MemberAtFreeProjectLimit[]> {
  const { rows } = await db.query<{ username: string; email: string }>(
    `SELECT u.username, u.email FROM members m JOIN users u ON u.id = m.user_id
     JOIN organizations o ON o.id = m.organization_id
     WHERE m.organization_id = $1 AND o.plan = 'free' AND m.role IN ('owner', 'administrator')
       AND (SELECT count(*) FROM projects p
            JOIN members m2 ON m2.organization_id = p.organization_id AND m2.user_id = m.user_id AND m2.role IN ('owner', 'administrator')
            JOIN organizations o2 ON o2.id = p.organization_id AND o2.plan = 'free'
            WHERE p.status NOT IN ('INACTIVE', 'REMOVED')) >= $2
     ORDER BY u.email`,
    [organizationId, FREE_PROJECT_LIMIT],
  )
  return rows.map((row) => ({ username: row.username, primary_email: row.email, free_project_limit: FREE_PROJECT_LIMIT }))
}

/**
 * Deletes a project with everything the platform keeps for it outside its instance (backups, stored
 * files, archives, functions, its WAL archive), and first its preview branches: they are projects of
 * their own that cannot outlive their parent.
 */
export async function removeProjectWithData(ctx: PlatformContext, project: ProjectRow): Promise<void> {
  const { rows: branches } = await ctx.db.query<{ project_ref: string }>(
    'SELECT project_ref FROM branches WHERE parent_project_ref = $1 AND NOT is_default',
    [project.ref],
  )
  for (const { project_ref } of branches) {
    const branch = await findProject(ctx.db, project_ref)
    if (branch) await removeProjectWithData(ctx, branch)
  }
  const dataDir = ctx.config.dataDir
  const ref = project.ref
  try {
    await ctx.projects.remove(project, [
      backupDirectory(dataDir, ref), ctx.storage.files.projectDir(ref), archivesDir(dataDir, ref), functionsDir(dataDir, ref), pitrDir(dataDir, ref),
    ])
  } catch (error) {
    throw conflict((error as Error).message)
  }
  // Its functions' processes and files go now, not only when the gateway's directory hears of the deletion.
  await ctx.functions.forgetProject(ref)
}

export async function projectRemovalRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  async function remove(request: FastifyRequest) {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.update')
    await removeProjectWithData(ctx, project)
    return { id: Number(project.id), name: project.name, ref: project.ref }
  }
  route(app, 'DELETE /platform/projects/{ref}', remove)
  route(app, 'DELETE /v1/projects/{ref}', remove)

  route(app, 'GET /platform/organizations/{slug}/members/reached-free-project-limit', async (request) => {
    const { slug } = parse(SlugParams, request.params)
    const { org } = await orgAccess(ctx.db, request, slug)
    return membersAtFreeProjectLimit(ctx.db, org.id)
  })

  // The exit survey: from those who may do what it is about (delete the project, or change the
  // plan), about a project of that organization; a deleted project's survey may come after it.
  route(app, 'POST /platform/feedback/downgrade', async (request, reply, input) => {
    const body = input.body
    const { org } = await orgAccess(ctx.db, request, body.orgSlug, body.exitAction === 'delete' ? 'projects.update' : 'billing.write')
    const project = await findProject(ctx.db, body.projectRef)
    if (project && project.organization_id !== org.id) throw notFound(`Project ${body.projectRef} not found`)
    await ctx.db.query(
      `INSERT INTO exit_surveys (user_id, project_ref, organization_slug, reasons, additional_feedback, exit_action)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [identityOf(request).user.id, body.projectRef, body.orgSlug, body.reasons, body.additionalFeedback, body.exitAction],
    )
    reply.code(201)
    return {}
  })
}
