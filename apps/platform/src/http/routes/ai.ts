import { Readable } from 'node:stream'
import { AI_KEY_NOT_SET_MESSAGE, AI_KEY_SET_MESSAGE, AiCompletionBody, AiTitleBody, type AiKeyCheckResponse, type AiTitleResponse } from '@stratum/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AiProviderError, providerMessage } from '../../ai/errors.js'
import { streamCompletion } from '../../ai/inline-completion.js'
import type { AiService } from '../../ai/model.js'
import { SchemaContextSource } from '../../ai/schema-context.js'
import { metaTargetOf } from '../../meta/service.js'
import { generateTitle } from '../../ai/title.js'
import { aiRateLimit, modelCallAborter } from '../ai-request.js'
import { projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { DomainError, invalidInput, upstreamFailed, unavailable, parse } from '../../errors.js'
import { route } from '../typed-route.js'

export const AI_EMPTY_COMPLETION_MESSAGE = 'The AI provider returned an empty completion'

/** A provider failure: 502, the upstream service failed, with its own message for the toast. */
function providerFailure(request: FastifyRequest, error: unknown): DomainError {
  const message = error instanceof AiProviderError ? error.message : providerMessage(error)
  request.log.warn({ err: error }, 'AI provider call failed')
  return upstreamFailed(message)
}

/**
 * The SQL editor's AI calls (contracts/ai.ts): key check, inline completion (streamed text) and
 * snippet titles. Thin: validation, access, HTTP shape; prompts and parsing live in ai/.
 * `ai` and `schemaContext` are parameters so that tests can pass a scripted model.
 */
export async function aiRoutes(
  app: FastifyInstance,
  ctx: PlatformContext,
  ai: AiService = ctx.ai,
  schemaContext = new SchemaContextSource(ctx.projects.connections),
): Promise<void> {
  app.addHook('onClose', () => schemaContext.close())

  const abortOnDisconnect = modelCallAborter(app)
  const limited = aiRateLimit(ctx)

  /** The model, or the 400 the dashboard shows as "key not set". AI being off is no secret: the key check says it to anyone. */
  function requireModel() {
    const model = ai.model()
    if (!model) throw invalidInput(AI_KEY_NOT_SET_MESSAGE)
    return model
  }

  route(app, 'GET /api/ai/sql/check-api-key', async (): Promise<AiKeyCheckResponse> => {
    return ai.enabled ? { hasKey: true, message: AI_KEY_SET_MESSAGE } : { hasKey: false, message: AI_KEY_NOT_SET_MESSAGE }
  })

  async function complete(request: FastifyRequest, reply: FastifyReply) {
    const body = parse(AiCompletionBody, request.body)
    const model = requireModel()
    const { project } = await projectAccess(ctx.db, request, body.projectRef, 'projects.read')
    // The schema makes suggestions use real names; without it (project paused, database busy) the
    // model still has the editor's text.
    const schema =
      project.status === 'ACTIVE_HEALTHY'
        ? await schemaContext.describe(metaTargetOf(ctx, project))
        : null

    const signal = abortOnDisconnect(reply)
    const chunks = streamCompletion(model, body.completionMetadata, schema, signal)
    // Headers wait for the first text that is not blank: until then a failure can still be
    // answered as an error (502 with the provider's message) instead of a 200 with an empty body.
    let head = ''
    try {
      for (let next = await chunks.next(); ; next = await chunks.next()) {
        if (next.done) {
          if (signal.aborted) throw unavailable('The AI request was cancelled')
          throw upstreamFailed(AI_EMPTY_COMPLETION_MESSAGE)
        }
        head += next.value
        if (head.trim()) break
      }
    } catch (error) {
      throw error instanceof DomainError ? error : providerFailure(request, error)
    }

    async function* text() {
      yield head
      try {
        yield* chunks
      } catch (error) {
        // Too late for a status: ending the response abruptly lets the client see it failed.
        request.log.warn({ err: error }, 'AI completion stream failed')
        throw error
      }
    }
    return reply
      .code(200)
      .header('content-type', 'text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      // Proxies such as nginx would otherwise buffer the stream and the editor would see it all at once.
      .header('x-accel-buffering', 'no')
      .send(Readable.from(text(), { objectMode: false }))
  }

  async function title(request: FastifyRequest, reply: FastifyReply): Promise<AiTitleResponse> {
    const body = parse(AiTitleBody, request.body)
    const model = requireModel()
    if (body.projectRef) await projectAccess(ctx.db, request, body.projectRef, 'projects.read')
    try {
      return await generateTitle(model, body.sql, abortOnDisconnect(reply))
    } catch (error) {
      throw providerFailure(request, error)
    }
  }

  // The -v2 paths are the dashboard's; the older ones stay for clients that still call them.
  route(app, 'POST /api/ai/sql/complete-v2', complete, limited)
  app.post('/api/ai/sql/complete', limited, complete)
  route(app, 'POST /api/ai/sql/title-v2', title, limited)
  app.post('/api/ai/sql/title', limited, title)
}
