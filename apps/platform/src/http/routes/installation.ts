import { INSTALLATION_TEXTS, type InstallationSettingsView } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { installationSettingsView, isInstallationOwner, writeInstallationSettings } from '../../auth/installation.js'
import { identityOf } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { forbidden, conflict } from '../../errors.js'
import { route } from '../typed-route.js'

const ENVIRONMENT_VARIABLES = { organization_creation: 'STRATUM_ORGANIZATION_CREATION', plan_changes: 'STRATUM_PLAN_CHANGES' } as const

/** Installation settings: every account reads them (the dashboard hides what it may not do); the installation's owner changes them. */
export async function installationRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  route(app, 'GET /platform/installation/settings', async (request): Promise<InstallationSettingsView> => {
    return installationSettingsView(ctx.db, ctx.config, identityOf(request).user.id)
  })

  route(app, 'PATCH /platform/installation/settings', async (request, _reply, input): Promise<InstallationSettingsView> => {
    const body = input.body
    const userId = identityOf(request).user.id
    if (!(await isInstallationOwner(ctx.db, userId))) throw forbidden(INSTALLATION_TEXTS.manageSettings)
    const before = await installationSettingsView(ctx.db, ctx.config, userId)
    for (const name of before.set_by_environment) {
      if (body[name] !== undefined && body[name] !== before[name]) {
        throw conflict(`${name} is set by ${ENVIRONMENT_VARIABLES[name]} in the platform's environment: change it there`)
      }
    }
    await writeInstallationSettings(ctx.db, body)
    return installationSettingsView(ctx.db, ctx.config, userId)
  })
}
