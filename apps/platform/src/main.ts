import pino from 'pino'
import { IdentityResolver } from './auth/identity.js'
import { ensureOwnerAccount } from './auth/users.js'
import { loadConfig, type Config } from './config.js'
import { LocalProvider } from './control/local-provider.js'
import { ProjectService } from './control/projects.js'
import { SecretBox } from './control/secret-box.js'
import { buildHttpApp } from './http/app.js'
import type { PlatformContext } from './http/context.js'
import { openPool } from './store/db.js'
import { migrate } from './store/migrate.js'
import { openPlatformDatabase } from './store/platform-database.js'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'

export interface Platform {
  app: FastifyInstance
  ctx: PlatformContext
  url: string
  /** Set on the first start only: the owner's login, to print once. */
  firstLogin: { email: string; password: string; generated: boolean } | null
  close(): Promise<void>
}

/** Boot: config -> platform db + migrations -> instances -> http (DESIGN.md). */
export async function startPlatform(config: Config = loadConfig()): Promise<Platform> {
  const logger = pino({ level: config.logLevel, base: undefined })
  const secrets = SecretBox.openOrCreate(config.dataDir)
  const platformDb = await openPlatformDatabase(config.dataDir, config.platformDatabaseUrl, config.platformDbPort)
  const db = openPool(platformDb.url, 20)
  const applied = await migrate(db)
  if (applied.length) logger.info({ applied }, 'platform database migrated')
  const firstLogin = await ensureOwnerAccount(db, config.adminEmail, config.adminPassword)

  const provider = new LocalProvider({ projectsDir: path.join(config.dataDir, 'projects'), listenAddresses: config.dbListenAddresses })
  const projects = new ProjectService(db, provider, secrets, config.projectPortStart, logger)
  await projects.reconcile()
  projects.startMonitor()

  const ctx: PlatformContext = { config, db, identities: new IdentityResolver(db), projects }
  const app = await buildHttpApp(ctx, logger)
  await app.listen({ port: config.port, host: config.host })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`

  let closing: Promise<void> | null = null
  const close = () =>
    (closing ??= (async () => {
      await app.close()
      await projects.stopAll()
      await db.end()
      await platformDb.server?.stop()
    })())
  return { app, ctx, url, firstLogin, close }
}
