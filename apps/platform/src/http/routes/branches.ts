import { randomUUID } from 'node:crypto'
import { BranchActionBody, BranchIdParams, BranchNameParams, CreateBranchBody, RefParams, UpdateBranchBody, type BranchDetail } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { BranchRuleError, BranchService } from '../../control/branching/branches.js'
import { findBranch, findBranchByName, toBranch, type BranchRow } from '../../control/branching/branch-store.js'
import { OperationConflictError } from '../../control/operations/runner.js'
import { findProject } from '../../control/project-store.js'
import type { Permission } from '@stratum/contracts'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../context.js'
import { HttpError, notFound, parse } from '../errors.js'
import { removeProjectWithData } from './project-removal.js'

/**
 * Branching in the Management API's shapes (control/branching/ does the work): the project's branches,
 * enabling (a production branch) and creating preview branches (real copies, made by a job), and per
 * branch its details, changes, deletion, reset, merge, push and diff. Reads need 'projects.read' on the
 * parent's organization; every change 'infrastructure.execute' (a branch is a project of its own).
 */
export async function branchRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const branches = new BranchService(ctx.db, ctx.projects, ctx.operations, ctx.secrets)

  /** The product's refusals as 4xx with their message; an operation already running is a 409. */
  const answering = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      if (error instanceof BranchRuleError) throw new HttpError(error.status, error.message)
      if (error instanceof OperationConflictError) throw new HttpError(409, error.message)
      throw error
    }
  }

  /** A branch by id or project ref, with the caller's permission checked on its parent project. */
  async function branchAccess(request: FastifyRequest, permission: Permission): Promise<BranchRow> {
    const { branch_id_or_ref } = parse(BranchIdParams, request.params)
    const branch = await findBranch(ctx.db, branch_id_or_ref)
    if (!branch) throw notFound(`Branch ${branch_id_or_ref} not found`)
    // Not a member of the parent's organization reads as not found, as for projects.
    await projectAccess(ctx.db, request, branch.parent_project_ref, permission)
    return branch
  }

  app.get('/v1/projects/:ref/branches', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref)
    return (await branches.list(project)).map(toBranch)
  })

  app.post('/v1/projects/:ref/branches', async (request, reply) => {
    const { ref } = parse(RefParams, request.params)
    const body = parse(CreateBranchBody, request.body)
    const { project } = await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    const branch = await answering(() =>
      body.is_default ? branches.enable(project, body.branch_name, body.git_branch) : branches.create(project, body, identityOf(request).user.id),
    )
    return reply.code(201).send(toBranch(branch))
  })

  // Disabling branching deletes every preview branch (their projects and data) and the production branch's row.
  app.delete('/v1/projects/:ref/branches', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'infrastructure.execute')
    await answering(() => branches.disable(project, (branchProject) => removeProjectWithData(ctx, branchProject)))
    return { message: 'ok' }
  })

  app.get('/v1/projects/:ref/branches/:name', async (request) => {
    const { ref, name } = parse(BranchNameParams, request.params)
    await projectAccess(ctx.db, request, ref)
    const branch = await findBranchByName(ctx.db, ref, name)
    if (!branch) throw notFound(`Branch ${name} not found`)
    return toBranch(branch)
  })

  app.get('/v1/branches/:branch_id_or_ref', async (request): Promise<BranchDetail> => {
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

  app.patch('/v1/branches/:branch_id_or_ref', async (request) => {
    const body = parse(UpdateBranchBody, request.body)
    const branch = await branchAccess(request, 'infrastructure.execute')
    return toBranch(await answering(() => branches.update(branch, body)))
  })

  app.delete('/v1/branches/:branch_id_or_ref', async (request) => {
    const branch = await branchAccess(request, 'infrastructure.execute')
    if (branch.is_default) throw new HttpError(400, 'The production branch cannot be deleted: disable branching instead')
    const project = await findProject(ctx.db, branch.project_ref)
    if (project) await answering(() => removeProjectWithData(ctx, project))
    return { message: 'ok' }
  })

  app.post('/v1/branches/:branch_id_or_ref/reset', async (request, reply) => {
    const { migration_version } = parse(BranchActionBody, request.body ?? {})
    const branch = await branchAccess(request, 'infrastructure.execute')
    const operationId = await answering(() => branches.reset(branch, migration_version, identityOf(request).user.id))
    return reply.code(201).send({ workflow_run_id: operationId, message: 'ok' })
  })

  app.post('/v1/branches/:branch_id_or_ref/merge', async (request, reply) => {
    parse(BranchActionBody, request.body ?? {})
    const branch = await branchAccess(request, 'infrastructure.execute')
    await answering(() => branches.merge(branch))
    return reply.code(201).send({ workflow_run_id: randomUUID(), message: 'ok' })
  })

  app.post('/v1/branches/:branch_id_or_ref/push', async (request, reply) => {
    parse(BranchActionBody, request.body ?? {})
    const branch = await branchAccess(request, 'infrastructure.execute')
    await answering(() => branches.push(branch))
    return reply.code(201).send({ workflow_run_id: randomUUID(), message: 'ok' })
  })

  app.get('/v1/branches/:branch_id_or_ref/diff', async (request, reply) => {
    const branch = await branchAccess(request, 'projects.read')
    const sql = await answering(() => branches.diff(branch))
    return reply.header('Content-Type', 'text/plain; charset=utf-8').send(sql)
  })
}
