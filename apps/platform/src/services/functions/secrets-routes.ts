import { RefParams } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { deleteSecrets, listSecretDigests, upsertSecrets } from './secrets.js'
import { projectAccess } from '../../http/access.js'
import type { PlatformContext } from '../../platform-context.js'
import { parse } from '../../errors.js'
import { route } from '../../http/typed-route.js'

/**
 * Edge function secrets (Management API /v1/projects/{ref}/secrets). Reading the list, digests only,
 * needs 'service_api_keys.read' like the service key (Owner, Administrator): names and digests of
 * secrets are not for every member. Writing needs 'sql.write' (changing what runs against the
 * project: Owner, Administrator, Developer). A change restarts the project's functions, so their next
 * request sees it.
 */
export async function functionSecretRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  route(app, 'GET /v1/projects/{ref}/secrets', async (request) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'service_api_keys.read')
    return listSecretDigests(ctx.db, ref)
  })

  route(app, 'POST /v1/projects/{ref}/secrets', async (request, reply, input) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'sql.write')
    const secrets = input.body
    await upsertSecrets(ctx.db, ctx.secrets, ref, secrets)
    await ctx.functions.stopProject(ref)
    reply.code(201)
    return {}
  })

  route(app, 'DELETE /v1/projects/{ref}/secrets', async (request, _reply, input) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'sql.write')
    const names = input.body
    await deleteSecrets(ctx.db, ref, names)
    await ctx.functions.stopProject(ref)
    return {}
  })
}
