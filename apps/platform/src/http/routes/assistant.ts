import { Readable } from 'node:stream'
import type { ReadableStream as NodeWebStream } from 'node:stream/web'
import {
  AI_KEY_NOT_SET_MESSAGE,
  AI_OPT_IN_LEVELS,
  ASSISTANT_DEFAULT_CHAT_NAME,
  ASSISTANT_DISABLED_NOTICE,
  ChatParams,
  CreateChatBody,
  GenerateAssistantBody,
  RefParams,
  type AiOptInLevel,
  type AssistantProjectContext,
} from '@stratum/contracts'
import { safeValidateUIMessages } from 'ai'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createChat, deleteChat, getChat, listChats, updateChat, type ChatOwner } from '../../ai/assistant/chats.js'
import { streamAssistantTurn } from '../../ai/assistant/generate.js'
import { assistantSystemPrompt } from '../../ai/assistant/prompt.js'
import { renderTools } from '../../ai/assistant/render-tools.js'
import { providerMessage } from '../../ai/errors.js'
import type { AiService } from '../../ai/model.js'
import { SchemaContextSource } from '../../ai/schema-context.js'
import { metaTargetOf } from '../../meta/service.js'
import { assistantToolsFor, toAiSdkTools, toolServices } from '../../ai/tools/index.js'
import type { ProjectRow } from '../../control/project-store.js'
import { aiRateLimit, modelCallAborter } from '../ai-request.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, notFound, unavailable, parse } from '../../errors.js'
import { route } from '../typed-route.js'

/** The organization's level, lowered (never raised) by the level the panel sent. */
function effectiveLevel(orgLevel: AiOptInLevel, requested: AiOptInLevel | undefined): AiOptInLevel {
  if (!requested) return orgLevel
  return AI_OPT_IN_LEVELS.indexOf(requested) < AI_OPT_IN_LEVELS.indexOf(orgLevel) ? requested : orgLevel
}

async function organizationLevel(ctx: PlatformContext, project: ProjectRow): Promise<AiOptInLevel> {
  const { rows } = await ctx.db.query<{ ai_opt_in_level: AiOptInLevel }>('SELECT ai_opt_in_level FROM organizations WHERE id = $1', [project.organization_id])
  return rows[0]?.ai_opt_in_level ?? 'disabled'
}

/**
 * The AI assistant (the right panel): what it may see of a project, the user's chats, and
 * `POST /api/ai/sql/generate-v4`, which streams a turn as the AI SDK's UI message stream.
 * `ai` and `schemaContext` are parameters so that tests can pass a scripted model.
 */
export async function assistantRoutes(
  app: FastifyInstance,
  ctx: PlatformContext,
  ai: AiService = ctx.ai,
  schemaContext = new SchemaContextSource(ctx.projects.connections),
): Promise<void> {
  app.addHook('onClose', () => schemaContext.close())
  const abortOnDisconnect = modelCallAborter(app)
  // Taken at registration: the services register their own close hook, which Fastify allows only now.
  const services = toolServices(app, ctx)

  /** Chats are the caller's own: reading the project is enough (a Read-only member has them too). */
  async function chatOwner(request: FastifyRequest, ref: string): Promise<ChatOwner> {
    await projectAccess(ctx.db, request, ref, 'projects.read')
    return { userId: identityOf(request).user.id, projectRef: ref }
  }

  async function assistantContext(project: ProjectRow): Promise<AssistantProjectContext> {
    const level = await organizationLevel(ctx, project)
    return { opt_in_level: level, is_hipaa: project.is_hipaa, sends_metadata: level !== 'disabled' && !project.is_hipaa, disabled: ctx.config.assistantDisabled }
  }

  /** The schema text of a project whose metadata the assistant may send (null otherwise, or when it cannot be read in time). */
  function schemaText(project: ProjectRow): Promise<string | null> {
    if (project.status !== 'ACTIVE_HEALTHY') return Promise.resolve(null)
    return schemaContext.describe(metaTargetOf(ctx, project))
  }

  route(app, 'GET /platform/projects/{ref}/assistant', async (request): Promise<AssistantProjectContext> => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read')
    const context = await assistantContext(project)
    // The panel asks this when it opens: the schema text is built now, so the first question does not wait for it.
    if (context.sends_metadata) void schemaText(project)
    return context
  })

  route(app, 'PATCH /platform/projects/{ref}/assistant', async (request, _reply, input): Promise<AssistantProjectContext> => {
    const { ref } = parse(RefParams, request.params)
    const body = input.body
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.update')
    await ctx.db.query('UPDATE projects SET is_hipaa = $2 WHERE ref = $1', [ref, body.is_hipaa])
    return assistantContext({ ...project, is_hipaa: body.is_hipaa })
  })

  route(app, 'GET /platform/projects/{ref}/assistant/chats', async (request) => {
    const { ref } = parse(RefParams, request.params)
    return listChats(ctx.db, await chatOwner(request, ref))
  })

  route(app, 'POST /platform/projects/{ref}/assistant/chats', async (request, reply) => {
    const { ref } = parse(RefParams, request.params)
    const body = parse(CreateChatBody, request.body ?? {})
    const chat = await createChat(ctx.db, await chatOwner(request, ref), body.name ?? ASSISTANT_DEFAULT_CHAT_NAME)
    reply.code(201)
    return chat
  })

  route(app, 'GET /platform/projects/{ref}/assistant/chats/{id}', async (request) => {
    const { ref, id } = parse(ChatParams, request.params)
    const chat = await getChat(ctx.db, await chatOwner(request, ref), id)
    if (!chat) throw notFound(`Chat ${id} not found`)
    return chat
  })

  route(app, 'PATCH /platform/projects/{ref}/assistant/chats/{id}', async (request, _reply, input) => {
    const { ref, id } = parse(ChatParams, request.params)
    const body = input.body
    const chat = await updateChat(ctx.db, await chatOwner(request, ref), id, body)
    if (!chat) throw notFound(`Chat ${id} not found`)
    return chat
  })

  route(app, 'DELETE /platform/projects/{ref}/assistant/chats/{id}', async (request, reply) => {
    const { ref, id } = parse(ChatParams, request.params)
    if (!(await deleteChat(ctx.db, await chatOwner(request, ref), id))) throw notFound(`Chat ${id} not found`)
    return reply.code(204).send()
  })

  async function generate(request: FastifyRequest, reply: FastifyReply) {
    const body = parse(GenerateAssistantBody, request.body)
    if (ctx.config.assistantDisabled) throw unavailable(ASSISTANT_DISABLED_NOTICE)
    const model = ai.model()
    if (!model) throw invalidInput(AI_KEY_NOT_SET_MESSAGE)
    const { project } = await projectAccess(ctx.db, request, body.projectRef, 'projects.read')
    const validated = await safeValidateUIMessages({ messages: body.messages })
    if (!validated.success) throw invalidInput(`messages are not valid: ${validated.error.message}`)

    const level = effectiveLevel(await organizationLevel(ctx, project), body.aiOptInLevel)
    // HIPAA projects send nothing of the project: no schema, no tools that read it.
    const sendsMetadata = level !== 'disabled' && !project.is_hipaa
    const schema = sendsMetadata && body.includeSchemaMetadata !== false ? await schemaText(project) : null
    const projectTools = sendsMetadata
      ? toAiSdkTools(assistantToolsFor(level), {
          platform: ctx,
          caller: identityOf(request).user,
          projectRef: project.ref,
          readOnly: true,
          services,
          origin: { host: request.headers.host, protocol: request.protocol },
        })
      : {}
    const tools = { ...renderTools(), ...projectTools }
    const system = assistantSystemPrompt({
      level,
      sendsMetadata,
      project: { name: project.name, postgresVersion: project.postgres_version || project.postgres_major },
      schema,
      snippet: body.snippet ?? null,
      toolNames: Object.keys(tools),
    })

    const result = await streamAssistantTurn({ model, messages: validated.data, system, tools, signal: abortOnDisconnect(reply) })
    const response = result.toUIMessageStreamResponse({
      // The stored chats keep when each message was written (the spec's createdAt).
      messageMetadata: ({ part }) => (part.type === 'start' ? { createdAt: new Date().toISOString() } : undefined),
      // The panel shows this text as the error toast; the SDK's default hides every message.
      onError: (error) => {
        request.log.warn({ err: error }, 'assistant turn failed')
        return providerMessage(error)
      },
    })
    reply.code(response.status)
    response.headers.forEach((value, name) => reply.header(name, value))
    // Proxies such as nginx would otherwise buffer the stream and the panel would see it all at once.
    reply.header('x-accel-buffering', 'no').header('cache-control', 'no-store')
    return reply.send(Readable.fromWeb(response.body as NodeWebStream<Uint8Array>))
  }

  for (const path of ['/api/ai/sql/generate-v4', '/api/ai/sql/generate-v3']) app.post(path, aiRateLimit(ctx), generate)
}
