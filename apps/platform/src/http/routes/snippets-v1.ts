import { V1SnippetParams, V1SnippetsQuery } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { getV1Snippet, listV1Snippets } from '../../content/v1-snippets.js'
import { identityOf } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { notFound, parse } from '../../errors.js'

/** GET /v1/snippets and /v1/snippets/{id}: the SQL editor's snippets for API clients (read only, as on the hosted API). */
export async function snippetsV1Routes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  app.get('/v1/snippets', async (request) => {
    const query = parse(V1SnippetsQuery, request.query)
    return listV1Snippets(ctx.db, identityOf(request).user.id, query)
  })

  app.get('/v1/snippets/:id', async (request) => {
    const { id } = parse(V1SnippetParams, request.params)
    const snippet = await getV1Snippet(ctx.db, identityOf(request).user.id, id)
    if (!snippet) throw notFound(`Snippet ${id} not found`)
    return snippet
  })
}
