import { randomUUID } from 'node:crypto'
import { BranchActionBody, BranchIdParams, BranchNameParams, RefParams, type BranchDetail } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { BranchService } from './branches.js'
import { findBranch, findBranchByName, toBranch, type BranchRow } from './branch-store.js'
import { findProject } from '../project-store.js'
import type { Permission } from '@stratum/contracts'
import { identityOf, projectAccess } from '../../http/access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, notFound, parse } from '../../errors.js'
import { removeProjectWithData } from '../../http/routes/project-removal.js'
import { route } from '../../http/typed-route.js'

/**
 * Branching in the Management API's shapes (control/branching/ does the work): the project's branches,
 * enabling (a production branch) and creating preview branches (real copies, made by a job), and per
 * branch its details, changes, deletion, reset, merge, push and diff. Reads need 'projects.read' on the
 * parent's organization; every change 'infrastructure.execute' (a branch is a project of its own).
 */
export async function branchRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const branches = new BranchService(ctx.db, ctx.projects, ctx.operations, ctx.secrets)

  /** A branch by id or project ref, with the caller's permission checked on its parent project. */
  async function branchAccess(request: FastifyRequest, permission: Permission): Promise<BranchRow> {
    const { branch_id_or_ref } = parse(BranchIdParams, request.params)
    const branch = await findBranch(ctx.db, branch_id_or_ref)
    if (!branch) throw notFound(`Branch ${branch_id_or_ref} not found`)
    // Not a member of the parent's organization reads as not found, as for projects.
    await projectAccess(ctx.db, request, branch.parent_project_ref, permission)
    return branch
  }

  route(app, 'GET /v1/projects/{ref}/branches', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref)
    return (await branches.list(project)).map(toBranch)
  })

  route(app, 'POST /v1/projects/{ref}/branches', async (request, reply, input) => {
    const { ref } = parse(RefParams, request.params)
    const body = input.body
    const { project } = await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    const branch = body.is_default
      ? await branches.enable(project, body.branch_name, body.git_branch)
      : await branches.create(project, body, identityOf(request).user.id)
    reply.code(201)
    return toBranch(branch)
  })

  // Disabling branching deletes every preview branch (their projects and data) and the production branch's row.
  route(app, 'DELETE /v1/projects/{ref}/branches', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    await branches.disable(project, (branchProject) => removeProjectWithData(ctx, branchProject))
    return { message: 'ok' }
  })

  route(app, 'GET /v1/projects/{ref}/branches/{name}', async (request) => {
    const { ref, name } = parse(BranchNameParams, request.params)
    await projectAccess(ctx.db, request, ref)
    const branch = await findBranchByName(ctx.db, ref, name)
    if (!branch) throw notFound(`Branch ${name} not found`)
    return toBranch(branch)
  })

  route(app, 'GET /v1/branches/{branch_id_or_ref}', async (request): Promise<BranchDetail> => {
    const branch = await branchAccess(request, 'projects.read')
    const project = (await findProject(ctx.db, branch.project_ref))!
    return {
      ref: project.ref,
      postgres_version: project.postgres_version,
      postgres_engine: project.postgres_major,
      release_channel: 'ga',
      status: project.status,
      db_host: ctx.config.dbHost,
      db_port: project.port,
      db_user: 'postgres',
    }
  })

  route(app, 'PATCH /v1/branches/{branch_id_or_ref}', async (request, _reply, input) => {
    const body = input.body
    const branch = await branchAccess(request, 'infrastructure.execute')
    return toBranch(await branches.update(branch, body))
  })

  route(app, 'DELETE /v1/branches/{branch_id_or_ref}', async (request) => {
    const branch = await branchAccess(request, 'infrastructure.execute')
    if (branch.is_default) throw invalidInput('The production branch cannot be deleted: disable branching instead')
    const project = await findProject(ctx.db, branch.project_ref)
    if (project) await removeProjectWithData(ctx, project)
    return { message: 'ok' }
  })

  route(app, 'POST /v1/branches/{branch_id_or_ref}/reset', async (request, reply) => {
    const { migration_version } = parse(BranchActionBody, request.body ?? {})
    const branch = await branchAccess(request, 'infrastructure.execute')
    const operationId = await branches.reset(branch, migration_version, identityOf(request).user.id)
    reply.code(201)
    return { workflow_run_id: operationId, message: 'ok' as const }
  })

  // Merge (the branch's migrations onto its parent) and push (the parent's onto the branch) answer alike.
  for (const action of ['merge', 'push'] as const) {
    route(app, `POST /v1/branches/{branch_id_or_ref}/${action}`, async (request, reply) => {
      parse(BranchActionBody, request.body ?? {})
      const branch = await branchAccess(request, 'infrastructure.execute')
      await branches[action](branch)
      reply.code(201)
      return { workflow_run_id: randomUUID(), message: 'ok' as const }
    })
  }

  route(app, 'GET /v1/branches/{branch_id_or_ref}/diff', async (request, reply) => {
    const branch = await branchAccess(request, 'projects.read')
    const sql = await branches.diff(branch)
    return reply.header('Content-Type', 'text/plain; charset=utf-8').send(sql)
  })
}
