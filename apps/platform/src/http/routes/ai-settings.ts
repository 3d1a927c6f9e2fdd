import { AI_SETTINGS_PATH, AI_SETTINGS_TEST_PATH, AI_SETTINGS_TEXTS, SaveAiSettingsBody, type AiSettingsTestResponse, type AiSettingsView } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { aiSettingsView, removeAiSettings, saveAiSettings } from '../../ai/settings-store.js'
import { testModel } from '../../ai/test-call.js'
import { isInstallationOwner } from '../../auth/installation.js'
import { identityOf } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, forbidden, parse } from '../../errors.js'

/**
 * The installation's AI provider (contracts/ai-settings.ts): the installation's owner reads, saves, tests
 * and resets it; everyone else gets 403 (the base URL can name hosts of the owner's network). A change
 * applies at once to every AI route: they all share ctx.ai.
 */
export async function aiSettingsRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  async function requireOwner(request: FastifyRequest): Promise<string> {
    const userId = identityOf(request).user.id
    if (!(await isInstallationOwner(ctx.db, userId))) throw forbidden(AI_SETTINGS_TEXTS.manage)
    return userId
  }

  app.get(AI_SETTINGS_PATH, async (request): Promise<AiSettingsView> => {
    await requireOwner(request)
    return aiSettingsView(ctx.db, ctx.ai)
  })

  app.put(AI_SETTINGS_PATH, async (request): Promise<AiSettingsView> => {
    const userId = await requireOwner(request)
    const body = parse(SaveAiSettingsBody, request.body)
    await saveAiSettings(ctx.db, ctx.secrets, ctx.ai, body, userId)
    request.log.info({ provider: body.provider, model: body.model }, 'AI provider settings saved')
    return aiSettingsView(ctx.db, ctx.ai)
  })

  app.delete(AI_SETTINGS_PATH, async (request): Promise<AiSettingsView> => {
    await requireOwner(request)
    await removeAiSettings(ctx.db, ctx.ai)
    request.log.info('AI provider settings reset to the environment')
    return aiSettingsView(ctx.db, ctx.ai)
  })

  app.post(AI_SETTINGS_TEST_PATH, async (request, reply): Promise<AiSettingsTestResponse> => {
    await requireOwner(request)
    const settings = ctx.ai.settings
    const model = ctx.ai.model()
    if (!settings || !model) throw invalidInput(AI_SETTINGS_TEXTS.notConfigured)
    // The owner closing the page ends the call: a slow model must not keep running for nobody.
    const controller = new AbortController()
    reply.raw.once('close', () => controller.abort())
    const outcome = await testModel(model, controller.signal)
    return { ...outcome, provider: settings.provider, model: settings.model }
  })
}
