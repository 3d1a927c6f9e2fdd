import { DisableExtensionQuery, ExtensionIdParams, RefParams, type Extension } from '@stratum/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AdminConnection } from '../../control/bootstrap-roles.js'
import { disableExtension, enableExtension, listExtensions } from '../../control/extensions.js'
import { projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, conflict, unavailable, parse } from '../../errors.js'
import { isDatabaseUnreachable, UNREACHABLE_MESSAGE } from '../../sql-runner/unreachable.js'
import { route } from '../typed-route.js'

async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (isDatabaseUnreachable(error)) throw unavailable(UNREACHABLE_MESSAGE)
    throw error
  }
}

/**
 * Database > Extensions: `GET/POST/DELETE /platform/pg-meta/{ref}/extensions` in postgres-meta's
 * shapes. Every member may list; enabling and disabling take the SQL editor's full-connection
 * permission (what the user could do from SQL). The platform runs the statements as its superuser,
 * within the deny list of control/extension-policy.ts.
 */
export async function extensionRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  async function database(request: FastifyRequest, ref: string, permission: 'projects.read' | 'sql.write'): Promise<AdminConnection> {
    const { project } = await projectAccess(ctx.db, request, ref, permission)
    if (project.status !== 'ACTIVE_HEALTHY') {
      throw conflict(`Project ${ref} is not ready: its status is ${project.status}, and its extensions can be read or changed only when it is ACTIVE_HEALTHY`)
    }
    return ctx.projects.adminConnection(project)
  }

  route(app, 'GET /platform/pg-meta/{ref}/extensions', async (request): Promise<Extension[]> => {
    const { ref } = parse(RefParams, request.params)
    const connection = await database(request, ref, 'projects.read')
    return answering(() => listExtensions(connection))
  })

  route(app, 'POST /platform/pg-meta/{ref}/extensions', async (request, reply, input): Promise<Extension> => {
    const { ref } = parse(RefParams, request.params)
    // Permission before validation: a caller who may not enable learns nothing about the rules.
    const connection = await database(request, ref, 'sql.write')
    const body = input.body
    const extension = await answering(() => enableExtension(connection, body))
    request.log.info({ ref, extension: extension.name, schema: extension.schema }, 'extension enabled')
    reply.code(201)
    return extension
  })

  /** `pathId` from postgres-meta's path; else the dashboard's `?id=`. Permission first, then validation. */
  async function disable(request: FastifyRequest, reply: FastifyReply, ref: string, pathId?: string): Promise<Extension> {
    const connection = await database(request, ref, 'sql.write')
    const query = parse(DisableExtensionQuery, request.query)
    const name = pathId ?? query.id
    if (!name) throw invalidInput('id is required: the name of the extension to disable')
    const extension = await answering(() => disableExtension(connection, name, query.cascade))
    request.log.info({ ref, extension: name, cascade: query.cascade }, 'extension disabled')
    reply.code(200)
    return extension
  }

  // The dashboard's call (`?id=name`, as the hosted dashboard sends it) and postgres-meta's path.
  route(app, 'DELETE /platform/pg-meta/{ref}/extensions', async (request, reply) => {
    const { ref } = parse(RefParams, request.params)
    return disable(request, reply, ref)
  })
  app.delete('/platform/pg-meta/:ref/extensions/:id', async (request, reply) => {
    const { ref } = parse(RefParams, request.params)
    // The ref is checked first so that a bad ref reads as one, whatever the id.
    const { id } = parse(ExtensionIdParams, request.params)
    return disable(request, reply, ref, id)
  })
}
