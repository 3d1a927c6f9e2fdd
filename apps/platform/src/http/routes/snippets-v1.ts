import { V1SnippetParams } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { getV1Snippet, listV1Snippets } from '../../content/v1-snippets.js'
import { identityOf } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { notFound, parse } from '../../errors.js'
import { route } from '../typed-route.js'

/** GET /v1/snippets and /v1/snippets/{id}: the SQL editor's snippets for API clients (read only, as on the hosted API). */
export async function snippetsV1Routes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  route(app, 'GET /v1/snippets', async (request, _reply, input) => {
    const query = input.query
    return listV1Snippets(ctx.db, identityOf(request).user.id, query)
  })

  route(app, 'GET /v1/snippets/{id}', async (request) => {
    const { id } = parse(V1SnippetParams, request.params)
    const snippet = await getV1Snippet(ctx.db, identityOf(request).user.id, id)
    if (!snippet) throw notFound(`Snippet ${id} not found`)
    return snippet
  })
}
