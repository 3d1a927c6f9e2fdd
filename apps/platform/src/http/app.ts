import cookie from '@fastify/cookie'
import Fastify, { LogController, type FastifyInstance } from 'fastify'
import { registerAuthHook } from './auth-hook.js'
import type { PlatformContext } from '../platform-context.js'
import { registerDashboard } from './dashboard-static.js'
import { registerGateway } from '../gateway/gateway.js'
import { projectHostRewriter } from '../gateway/host-routing.js'
import { publicApiBase } from '../gateway/public-url.js'
import { registerTenantOriginGuards } from '../gateway/tenant-origin.js'
import { errorHandler } from './errors.js'
import { registerInputGuard } from './input-guard.js'
import { advisorRoutes } from '../observability/advisors/routes.js'
import { aiRoutes } from './routes/ai.js'
import { mcpRoutes } from '../mcp/route.js'
import { assistantRoutes } from './routes/assistant.js'
import { regionRoutes } from './routes/regions.js'
import { snippetsV1Routes } from './routes/snippets-v1.js'
import { databaseConfigRoutes } from './routes/database-config.js'
import { aiSettingsRoutes } from './routes/ai-settings.js'
import { apiKeyRoutes } from './routes/api-keys.js'
import { authRoutes } from './routes/auth.js'
import { contentRoutes } from './routes/content.js'
import { databaseAccessRoutes } from './routes/database-access.js'
import { extensionRoutes } from './routes/extensions.js'
import { lifecycleRoutes } from './routes/lifecycle.js'
import { managementV1Routes } from './routes/management-v1.js'
import { metaRoutes } from './routes/meta.js'
import { organizationRoutes } from './routes/organizations.js'
import { profileRoutes } from './routes/profile.js'
import { projectRemovalRoutes } from './routes/project-removal.js'
import { projectRoutes } from './routes/projects.js'
import { postgrestConfigRoutes } from './routes/postgrest-config.js'
import { realtimeConfigRoutes } from './routes/realtime-config.js'
import { projectAuthRoutes } from '../services/auth/routes.js'
import { sqlRoutes } from './routes/sql.js'
import { tableImportRoutes } from './routes/table-import.js'
import { sqlExportRoutes } from './routes/sql-export.js'
import { functionRoutes } from '../services/functions/routes.js'
import { githubRoutes } from './routes/github.js'
import { branchRoutes } from '../control/branching/routes.js'
import { pitrRoutes } from '../control/pitr/routes.js'
import { functionSecretRoutes } from '../services/functions/secrets-routes.js'
import { healthRoutes } from './routes/health.js'
import { apiDocumentRoutes } from './routes/api-document.js'
import { installationRoutes } from './routes/installation.js'
import { invitationRoutes } from './routes/invitations.js'
import { storageRoutes } from '../services/storage/routes.js'
import { supportRoutes } from './routes/support.js'
import { typesAndHostnameRoutes } from './routes/types-and-hostname.js'
import { upgradeRoutes } from './routes/upgrade.js'
import { logRoutes } from '../observability/logs/routes.js'
import { usageRoutes } from '../observability/usage/routes.js'
import { registerSecurityHeaders } from './security-headers.js'

export async function buildHttpApp(ctx: PlatformContext, logger: FastifyInstance['log']): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: 1024 * 1024,
    // STRATUM_TRUST_PROXY: whose X-Forwarded-* headers set request.ip and request.protocol.
    trustProxy: ctx.config.trustProxy,
    logController: new LogController({ disableRequestLogging: true }),
  })
  app.setErrorHandler(errorHandler)
  registerInputGuard(app)
  await registerSecurityHeaders(app, ctx.config)
  // Cookies are Secure when the public URL is https, or when this request came over https (itself
  // or through a trusted proxy): 'auto' reads request.protocol.
  const httpsPublicUrl = ctx.config.publicUrl !== null && new URL(ctx.config.publicUrl).protocol === 'https:'
  await app.register(cookie, { parseOptions: { secure: httpsPublicUrl ? true : 'auto' } })
  registerAuthHook(app, ctx)
  await authRoutes(app, ctx)
  await profileRoutes(app, ctx)
  await organizationRoutes(app, ctx)
  await invitationRoutes(app, ctx)
  await installationRoutes(app, ctx)
  await projectRoutes(app, ctx)
  await databaseAccessRoutes(app, ctx)
  await metaRoutes(app, ctx)
  await extensionRoutes(app, ctx)
  await managementV1Routes(app, ctx)
  await supportRoutes(app, ctx)
  await lifecycleRoutes(app, ctx)
  await projectRemovalRoutes(app, ctx)
  await upgradeRoutes(app, ctx)
  await logRoutes(app, ctx)
  await usageRoutes(app, ctx)
  await apiKeyRoutes(app, ctx)
  await postgrestConfigRoutes(app, ctx)
  await realtimeConfigRoutes(app, ctx)
  await projectAuthRoutes(app, ctx)
  await contentRoutes(app, ctx)
  await sqlRoutes(app, ctx)
  await tableImportRoutes(app, ctx)
  await sqlExportRoutes(app, ctx)
  await typesAndHostnameRoutes(app, ctx)
  await storageRoutes(app, ctx)
  await functionRoutes(app, ctx)
  await functionSecretRoutes(app, ctx)
  await advisorRoutes(app, ctx)
  await healthRoutes(app, ctx)
  await apiDocumentRoutes(app)
  await aiRoutes(app, ctx)
  await mcpRoutes(app, ctx)
  await assistantRoutes(app, ctx)
  await regionRoutes(app, ctx)
  await snippetsV1Routes(app, ctx)
  await databaseConfigRoutes(app, ctx)
  await aiSettingsRoutes(app, ctx)
  await githubRoutes(app, ctx)
  await branchRoutes(app, ctx)
  await pitrRoutes(app, ctx)
  // The project APIs are never served on the dashboard's origin (buildProjectApp): an old link says where they went.
  app.all('/projects/:ref/*', async (request, reply) => {
    const { ref } = request.params as { ref: string }
    const moved = /^[a-z]{20}$/.test(ref) ? ` at ${publicApiBase(ctx.config, ref, request.headers.host, request.protocol)}` : ''
    return reply.code(404).send({ message: `Project APIs are not served on the dashboard's origin: use the project URL${moved}` })
  })
  await registerDashboard(app, ctx.config.dashboardDist)
  return app
}

/**
 * The project URL's own listener (STRATUM_PROJECT_PORT, or `{ref}.<domain>` hosts routed to it): the
 * gateway and nothing of the platform, so what tenants serve there never shares the dashboard's origin.
 */
export async function buildProjectApp(ctx: PlatformContext, logger: FastifyInstance['log']): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger,
    trustProxy: ctx.config.trustProxy,
    logController: new LogController({ disableRequestLogging: true }),
    rewriteUrl: projectHostRewriter(ctx.config.projectDomain),
  })
  app.setErrorHandler(errorHandler)
  registerInputGuard(app)
  registerTenantOriginGuards(app)
  await registerGateway(app, ctx)
  // WebSocket upgrades never reach Fastify's routes: realtime reads them off the server (with the same host rewrite).
  const detachRealtime = ctx.realtime.attach(app.server, projectHostRewriter(ctx.config.projectDomain))
  app.addHook('onClose', async () => detachRealtime())
  // Kong's answer for a path no service owns.
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: 'no Route matched with those values' }))
  return app
}
