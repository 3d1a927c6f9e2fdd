import { OperationParams, RefParams, type OperationList, type OperationProgress, type Permission } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { findOperation, recentOperations, type OperationKind } from '../../control/operations/operation-store.js'
import { toOperationProgress } from '../../control/operations/progress.js'
import { assertCan } from '../../auth/project-access.js'
import { projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { notFound, parse } from '../../errors.js'
import { route } from '../typed-route.js'

/** How many of a project's operations the list shows, newest first. */
const LIST_LIMIT = 20

/** Who may cancel an operation: whoever may start it. */
const CANCEL_PERMISSION: Record<OperationKind, Permission> = {
  pause: 'infrastructure.execute',
  restore: 'infrastructure.execute',
  restart: 'infrastructure.execute',
  resize: 'infrastructure.execute',
  upgrade: 'infrastructure.execute',
  logical_backup: 'infrastructure.execute',
  jwt_secret_rotation: 'secrets.write',
  branch_create: 'infrastructure.execute',
  branch_reset: 'infrastructure.execute',
  pitr_restore: 'infrastructure.execute',
  pitr_base_backup: 'infrastructure.execute',
}

/**
 * The progress of a project's operations, one shape for every kind (contracts/operations.ts),
 * and their cancel. Part of the lifecycle routes (lifecycle.ts registers them).
 */
export async function operationRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  route(app, 'GET /platform/projects/{ref}/operations', async (request): Promise<OperationList> => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref)
    return { operations: (await recentOperations(ctx.db, ref, LIST_LIMIT)).map(toOperationProgress) }
  })

  /** The operation of this project with that id (another project's reads as not found), and the caller's role. */
  async function operationOf(request: FastifyRequest) {
    const { ref, id } = parse(OperationParams, request.params)
    const { role } = await projectAccess(ctx.db, request, ref)
    const op = await findOperation(ctx.db, id)
    if (!op || op.project_ref !== ref) throw notFound(`Operation ${id} not found`)
    return { op, role }
  }

  app.get('/platform/projects/:ref/operations/:id', async (request): Promise<OperationProgress> => {
    return toOperationProgress((await operationOf(request)).op)
  })

  app.post('/platform/projects/:ref/operations/:id/cancel', async (request, reply) => {
    const { op, role } = await operationOf(request)
    assertCan(role, CANCEL_PERMISSION[op.kind])
    // Accepted: the runner stops at the next step boundary and rolls back (status 'cancelling').
    reply.code(202)
    return toOperationProgress(await ctx.operations.cancel(op.id))
  })
}
