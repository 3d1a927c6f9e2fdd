import { DEFAULT_POSTGRES_MAJOR } from '@stratum/contracts'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import pino from 'pino'
import { IdentityResolver } from './auth/identity.js'
import { ensureOwnerAccount } from './auth/users.js'
import { loadConfig, type Config } from './config.js'
import { LocalProvider } from './control/local-provider.js'
import { InstanceTemplates } from './control/instance-templates.js'
import { TEMPLATE_OS_USER } from './control/os-user.js'
import { PitrScheduler } from './control/pitr/scheduler.js'
import { OperationRunner } from './control/operations/runner.js'
import { findProject } from './control/project-store.js'
import { ProjectService } from './control/projects.js'
import { SecretBox } from './control/secret-box.js'
import { AiService } from './ai/model.js'
import { loadSavedAiSettings } from './ai/settings-store.js'
import { buildHttpApp, buildProjectApp } from './http/app.js'
import type { PlatformContext } from './platform-context.js'
import { openPool } from './store/db.js'
import { ProjectAccessCache } from './auth/project-access-cache.js'
import { protectDataDir } from './control/data-dir.js'
import { tlsDirOf } from './control/tls.js'
import { migrate } from './store/migrate.js'
import { loadGatewayProject, ProjectDirectory } from './gateway/project-directory.js'
import { NotificationHub } from './store/notification-hub.js'
import { RequestLog } from './gateway/request-log.js'
import { LogCollector } from './observability/logs/collector.js'
import { UsageCollector } from './observability/usage/collector.js'
import { RestSupervisor } from './services/rest/supervisor.js'
import { AuthService } from './services/auth/service.js'
import { RealtimeService } from './services/realtime/service.js'
import { StorageService } from './services/storage/service.js'
import { FunctionRuntime } from './services/functions/runtime.js'
import { GraphqlService } from './services/graphql/service.js'
import { ensureSchemaReloadTriggers } from './services/rest/schema-reload.js'
import { NetService } from './services/net/service.js'
import { CronScheduler } from './services/cron/scheduler.js'
import { deliverySettings } from './services/net/delivery.js'
import { VaultKeys } from './services/vault/vault-keys.js'
import { publicApiBase } from './gateway/public-url.js'
import { openPlatformDatabase } from './store/platform-database.js'
import { takeDataDir } from './control/boot-sweep.js'
import { closeServer } from './http/close-server.js'

export interface Platform {
  app: FastifyInstance
  /** The project URL's own listener (gateway only): another origin than the dashboard's. */
  projectApp: FastifyInstance
  ctx: PlatformContext
  url: string
  /** Origin of the project listener on this machine: project URLs are `${apiUrl}/projects/{ref}`. */
  apiUrl: string
  /** Set on the first start only: the owner's login, to print once. */
  firstLogin: { email: string; password: string; generated: boolean } | null
  close(): Promise<void>
}

/** Boot: config -> platform db + migrations -> instances -> http (docs/ARCHITECTURE.md "Processes"). */
export async function startPlatform(config: Config = loadConfig()): Promise<Platform> {
  const logger = pino({ level: config.logLevel, base: undefined })
  // One platform per data directory (waits for one still stopping); then stops what a crashed one left running, and its partial files.
  const dataDirLock = await takeDataDir(config.dataDir, logger)
  const secrets = SecretBox.openOrCreate(config.dataDir)
  protectDataDir(config.dataDir)
  const platformDb = await openPlatformDatabase(config.dataDir, config.platformDatabaseUrl, config.platformDbPort)
  const db = openPool(platformDb.url, 20)
  const templates = new InstanceTemplates(config.templateDir, TEMPLATE_OS_USER, config.spareInstances)
  const provider = new LocalProvider({
    projectsDir: path.join(config.dataDir, 'projects'),
    listenAddresses: config.dbListenAddresses,
    tlsDir: tlsDirOf(config.dataDir),
    dbHost: config.dbHost,
    dataDir: config.dataDir,
    stepDelayMs: config.operationStepDelayMs,
    templates,
    keyring: new VaultKeys(db, secrets, logger),
  })
  const projects = new ProjectService(db, provider, secrets, config.projectPortStart, logger)
  const operations = new OperationRunner({ db, provider, projects, secrets, dataDir: config.dataDir, log: logger, githubApiUrl: config.githubApiUrl }, platformDb.url, config.operationStepDelayMs)
  // Base backups for projects with the PITR add-on, requested as jobs on the runner above.
  const pitrScheduler = new PitrScheduler(db, operations, logger)
  // One LISTEN connection for the caches that stay fresh by the platform database's notifications.
  const notifications = new NotificationHub(platformDb.url, logger)
  const accessCache = new ProjectAccessCache(notifications)
  const directory = new ProjectDirectory(notifications, (ref) => loadGatewayProject(db, projects, secrets, ref))
  const rest = new RestSupervisor({
    db,
    projects,
    directory,
    runDir: path.join(config.dataDir, 'run'),
    // Unknown while the platform listens on a random port (tests): PostgREST then names its own host.
    publicApiUrl: (ref) => `${publicApiBase(config, ref)}/rest/v1`,
    idleMs: config.apiIdleMs,
    log: logger,
  })
  const requestLog = new RequestLog(db, logger)
  const logCollector = new LogCollector({ db, log: logger, logDirOf: (ref) => provider.postgresLogDir(ref), intervalMs: config.logCollectIntervalMs })
  const usage = new UsageCollector({
    db,
    log: logger,
    dataDirOf: (ref) => path.join(provider.instanceDir(ref), 'data'),
    adminConnection: (row) => projects.adminConnection(row),
    intervalMs: config.usageIntervalMs,
    diskIntervalMs: config.usageDiskIntervalMs,
    realtimeUsage: (ref) => realtime.usageOf(ref),
  })
  // The DDL watch (NOTIFY pgrst) is installed when PostgREST starts; a project used only through GraphQL gets it here.
  const graphql = new GraphqlService(logger, projects.connections, config.apiIdleMs, async (ref) => {
    const row = await findProject(db, ref)
    if (row) await ensureSchemaReloadTriggers(projects.adminConnection(row))
  })
  // A project that stops (pause, delete) drops its GraphQL engine and its pools; other changes (schemas, port,
  // passwords) are seen per request, and a pool whose login changed is replaced then.
  directory.onSettled(
    async (ref, project) => {
      if (project?.status === 'ACTIVE_HEALTHY') return
      await graphql.forget(ref)
      await projects.connections.forget(ref)
    },
    (error, ref) => logger.warn({ err: error, ref }, 'a stopped project kept its pools'),
  )
  const auth = new AuthService(db, projects, directory, secrets, config.smtpAllowPrivateHosts, logger)
  const storage = new StorageService({ db, projects, directory, dataDir: config.dataDir, maxFileBytes: config.storageMaxFileBytes, log: logger })
  const realtime = new RealtimeService({ db, projects, directory, requestLog, log: logger.child({ service: 'realtime' }), defaults: config.realtimeDefaults })
  const functions = new FunctionRuntime({
    db,
    secrets,
    dataDir: config.dataDir,
    platformDbPort: platformDbPortOf(platformDb.url),
    idleMs: config.apiIdleMs,
    memoryMb: config.functionMemoryMb,
    timeoutMs: config.functionTimeoutMs,
    log: logger.child({ service: 'functions' }),
  })
  // A project that stops running (pause, delete) stops its functions; key changes are seen per request.
  directory.onChange((ref, latest) => {
    directory
      .get(ref)
      .then(async (project) => {
        // A later change of the project decides (this read may predate it).
        if (!latest()) return
        if (!project) return functions.forgetProject(ref)
        // Other projects' functions must not reach a new project's (or a new) port.
        await functions.projectPortKnown(ref, project.port)
        if (project.status !== 'ACTIVE_HEALTHY') await functions.stopProject(ref)
      })
      // Loading the entry can fail while the project is being deleted (its keys go with its row): a project
      // that is gone still loses its functions' files.
      .catch(async () => {
        if ((await findProject(db, ref).catch(() => undefined)) === null) await functions.forgetProject(ref)
      })
      .catch(() => {})
  })
  // pg_net's requests and database webhooks, sent after commit by one worker per healthy project (services/net).
  const net = new NetService({ db, projects, directory, settings: deliverySettings(config), log: logger.child({ service: 'net' }) })
  // pg_cron's jobs of every running project, run as the roles that scheduled them (services/cron).
  const cron = new CronScheduler({ db, projects, directory, log: logger.child({ service: 'cron' }) })
  const ai = new AiService(config.ai)
  const ctx: PlatformContext = {
    config, db, identities: new IdentityResolver(db), projects, operations, secrets, accessCache, directory, rest, requestLog, graphql, auth, storage,
    realtime, functions, ai, logCollector, usage, cron,
  }
  let app: FastifyInstance | undefined
  let projectApp: FastifyInstance | undefined

  const shutdown = async () => {
    dataDirLock.markStopping()
    if (app) await closeServer(app)
    if (projectApp) await closeServer(projectApp)
    await rest.stopAll()
    await graphql.stop()
    await auth.stop()
    await storage.stop()
    await realtime.stop()
    await functions.stopAll()
    await net.stop()
    await cron.stop()
    directory.stop()
    await requestLog.stop()
    await logCollector.stop()
    await usage.stop()
    accessCache.stop()
    await notifications.stop()
    pitrScheduler.stop()
    await operations.stop()
    await templates.settle()
    await projects.stopAll()
    await db.end().catch(() => {})
    await platformDb.server?.stop()
    dataDirLock.release()
  }

  let firstLogin: Platform['firstLogin'] = null
  try {
    const applied = await migrate(db)
    if (applied.length) logger.info({ applied }, 'platform database migrated')
    firstLogin = await ensureOwnerAccount(db, config.adminEmail, config.adminPassword)
    // Settings saved on the AI settings page override STRATUM_AI_* (the defaults).
    await loadSavedAiSettings(db, secrets, ai)
    // Without notifications the caches stay off (and the hub retries): requests then read the database each time.
    await notifications.start().catch((error: Error) => logger.warn({ err: error }, 'cannot listen for platform database changes: caches are off until it can'))
    await projects.sealMissingCredentials()
    await projects.reconcile(await operations.busyRefs())
    await operations.start()
    pitrScheduler.start()
    projects.startMonitor()
    logCollector.start()
    usage.start()
    // The project listener first: its port (a free one when 0) goes into the project URLs and the dashboard's CSP.
    projectApp = await buildProjectApp(ctx, logger)
    await projectApp.listen({ port: config.projectPort, host: config.host })
    config.projectPort = listeningPort(projectApp, config.projectPort)
    await net.start()
    await cron.start()
    app = await buildHttpApp(ctx, logger)
    await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    // A boot that fails half-way (port taken...) must not leave Postgres servers behind.
    await shutdown().catch(() => {})
    throw error
  }

  const port = listeningPort(app, config.port)
  // The first project of a new installation is a copy too, not initdb plus the bootstrap.
  templates.warm(DEFAULT_POSTGRES_MAJOR)
  // Functions reach their own project (SUPABASE_URL) through the project listener, like any client.
  functions.platformPort = config.projectPort
  functions.dashboardPort = port
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`
  let closing: Promise<void> | null = null
  const apiUrl = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.projectPort}`
  return { app, projectApp: projectApp!, ctx, url, apiUrl, firstLogin, close: () => (closing ??= shutdown()) }
}

function listeningPort(app: FastifyInstance, configured: number): number {
  const address = app.server.address()
  return typeof address === 'object' && address ? address.port : configured
}

/** The platform database's port when it runs on this machine (embedded, or a local URL): functions may not reach it. */
function platformDbPortOf(url: string): number | null {
  try {
    const parsed = new URL(url)
    return ['localhost', '127.0.0.1', '[::1]', ''].includes(parsed.hostname) ? Number(parsed.port || 5432) : null
  } catch {
    return null
  }
}
