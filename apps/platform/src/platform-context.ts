import type { AiService } from './ai/model.js'
import type { IdentityResolver } from './auth/identity.js'
import type { Config } from './config.js'
import type { OperationRunner } from './control/operations/runner.js'
import type { ProjectService } from './control/projects.js'
import type { SecretBox } from './control/secret-box.js'
import type { ProjectDirectory } from './gateway/project-directory.js'
import type { RequestLog } from './gateway/request-log.js'
import type { LogCollector } from './observability/logs/collector.js'
import type { UsageCollector } from './observability/usage/collector.js'
import type { AuthService } from './services/auth/service.js'
import type { FunctionRuntime } from './services/functions/runtime.js'
import type { GraphqlService } from './services/graphql/service.js'
import type { RestSupervisor } from './services/rest/supervisor.js'
import type { RealtimeService } from './services/realtime/service.js'
import type { StorageService } from './services/storage/service.js'
import type { CronScheduler } from './services/cron/scheduler.js'
import type { Db } from './store/db.js'
import type { ProjectAccessCache } from './auth/project-access-cache.js'

/** What every route family gets: the platform's long-lived services. */
export interface PlatformContext {
  config: Config
  db: Db
  identities: IdentityResolver
  projects: ProjectService
  operations: OperationRunner
  secrets: SecretBox
  /** Users' access to projects, cached for the SQL routes (project-access-cache.ts). */
  accessCache: ProjectAccessCache
  /** What the gateway knows of each project (status, keys, data API settings), kept in memory. */
  directory: ProjectDirectory
  /** One PostgREST per active project, behind the gateway's /rest/v1. */
  rest: RestSupervisor
  /** Every request through a project's URL (gateway/request-log.ts). */
  requestLog: RequestLog
  /** Copies each instance's Postgres log into the log store every few seconds (observability/logs/). */
  logCollector: LogCollector
  /** Samples each instance's usage and applies read-only mode at 95% of the disk quota (observability/usage/). */
  usage: UsageCollector
  /** GraphQL behind the gateway's /graphql/v1 (the pg_graphql-compatible engine, one per active project). */
  graphql: GraphqlService
  /** Supabase Auth for each project's end users, behind the gateway's /auth/v1 (services/auth). */
  auth: AuthService
  /** Storage for each project's files, behind the gateway's /storage/v1 (services/storage). */
  storage: StorageService
  /** Broadcast, presence and Postgres changes over Phoenix WebSockets, behind the gateway's /realtime/v1 (services/realtime). */
  realtime: RealtimeService
  /** Edge functions, each in its own Deno process, behind the gateway's /functions/v1 (services/functions). */
  functions: FunctionRuntime
  /**
   * The AI model behind every AI route (one instance: settings saved on the AI settings page apply to
   * all of them at once). Ask it per call: `ai.enabled`, `ai.model()`.
   */
  ai: AiService
  /** pg_cron's scheduler: runs each running project's cron jobs as the roles that scheduled them (services/cron). */
  cron: CronScheduler
}
