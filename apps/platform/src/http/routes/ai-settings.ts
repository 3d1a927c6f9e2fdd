import { AI_SETTINGS_TEXTS } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { aiSettingsView, removeAiSettings, saveAiSettings } from '../../ai/settings-store.js'
import { testModel } from '../../ai/test-call.js'
import { isInstallationOwner } from '../../auth/installation.js'
import { identityOf } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, forbidden } from '../../errors.js'
import { route } from '../typed-route.js'

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

  route(app, 'GET /platform/installation/ai-settings', async (request) => {
    await requireOwner(request)
    return aiSettingsView(ctx.db, ctx.ai)
  })

  route(app, 'PUT /platform/installation/ai-settings', async (request, _reply, input) => {
    const userId = await requireOwner(request)
    const body = input.body
    await saveAiSettings(ctx.db, ctx.secrets, ctx.ai, body, userId)
    request.log.info({ provider: body.provider, model: body.model }, 'AI provider settings saved')
    return aiSettingsView(ctx.db, ctx.ai)
  })

  route(app, 'DELETE /platform/installation/ai-settings', async (request) => {
    await requireOwner(request)
    await removeAiSettings(ctx.db, ctx.ai)
    request.log.info('AI provider settings reset to the environment')
    return aiSettingsView(ctx.db, ctx.ai)
  })

  route(app, 'POST /platform/installation/ai-settings/test', async (request, reply) => {
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
