import fs from 'node:fs/promises'
import type { HealthService, ProjectStatus, ServiceHealth } from '@stratum/contracts'
import { ADMIN_ROLE, EDITOR_ROLE, PRIVILEGED_SESSION_OPTIONS, USER_ROLE } from '../control/bootstrap-roles.js'
import type { ProjectRow } from '../control/project-store.js'
import type { PlatformContext } from '../platform-context.js'
import { AUTH_HEALTH_INFO } from '../services/auth/service.js'
import { denoBinary } from '../services/functions/deno.js'
import { withProjectSession } from '../control/project-connections.js'

export const DEFAULT_HEALTH_TIMEOUT_MS = 5_000
/** Statuses on the way to ACTIVE_HEALTHY: a service not answering yet is coming up, not unhealthy. */
const COMING_UP = new Set<ProjectStatus>(['COMING_UP', 'RESTORING', 'RESTARTING', 'UPGRADING', 'RESIZING'])
const RUNNING = new Set<ProjectStatus>(['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY'])
const NO_POOLER = 'No connection pooler runs on this platform: clients connect to the database directly'

type Check = (ctx: PlatformContext, project: ProjectRow) => Promise<ServiceHealth['info'] | void>

/** One query on a fresh connection: as the platform's superuser (db), or as the user's own postgres role (db_postgres_user). */
async function query(project: ProjectRow, user: string, password: string, timeoutMs: number, options?: string): Promise<void> {
  try {
    await withProjectSession({ port: project.port, user, password, options }, (client) => client.query('SELECT 1'), { connectTimeoutMs: timeoutMs })
  } catch (error) {
    // The instance's address is the platform's business, not the caller's.
    if ((error as { code?: string }).code === 'ECONNREFUSED') throw new Error('The database is not accepting connections')
    throw error
  }
}

const unavailable = (reason: string): Check => async () => {
  throw new Error(reason)
}

/**
 * Each service checked for real, the way its own traffic reaches it: the database by a query, the data
 * API by a request to the project's PostgREST (started if it was idle, as a client's request would),
 * auth and storage through their own connections to the project's schemas, functions by the Deno
 * runtime being there to start them. Services Stratum does not run answer unhealthy, saying so.
 */
const CHECKS: Record<HealthService, (timeoutMs: number) => Check> = {
  db: (timeoutMs) => async (ctx, project) => query(project, ADMIN_ROLE, ctx.projects.credentials(project).adminPassword, timeoutMs, PRIVILEGED_SESSION_OPTIONS),
  db_postgres_user: (timeoutMs) => async (ctx, project) =>
    query(project, EDITOR_ROLE, ctx.projects.credentials(project).editorPassword, timeoutMs, `-c role=${USER_ROLE}`),
  rest: () => async (ctx, project) => {
    const gateway = await ctx.directory.getCurrent(project.ref)
    if (!gateway) throw new Error('The project is gone')
    const postgrest = await ctx.rest.acquire(gateway)
    const answer = await postgrest.http.request({ method: 'HEAD', path: '/' })
    await answer.body.dump()
    if (answer.statusCode >= 500) throw new Error(`PostgREST answered ${answer.statusCode}`)
    return { db_schema: gateway.settings.db_schema }
  },
  auth: () => async (ctx, project) => {
    await ctx.auth.probe(project.ref)
    return { ...AUTH_HEALTH_INFO }
  },
  storage: () => async (ctx, project) => {
    const gateway = await ctx.directory.getCurrent(project.ref)
    if (!gateway) throw new Error('The project is gone')
    await ctx.storage.probe(gateway)
  },
  functions: () => async () => {
    await fs.access(denoBinary(), fs.constants.X_OK)
  },
  realtime: () => async (ctx, project) => {
    const gateway = await ctx.directory.getCurrent(project.ref)
    if (!gateway) throw new Error('The project is gone')
    await ctx.realtime.probe(project.ref, gateway)
  },
  pooler: () => unavailable(NO_POOLER),
  pg_bouncer: () => unavailable(NO_POOLER),
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${timeoutMs} ms`)), timeoutMs)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

async function checkOne(ctx: PlatformContext, project: ProjectRow, name: HealthService, timeoutMs: number): Promise<ServiceHealth> {
  const unhealthy = (error: string): ServiceHealth => ({ name, healthy: false, status: COMING_UP.has(project.status) ? 'COMING_UP' : 'UNHEALTHY', error })
  // Only the database is asked while the project is not running: the others would be started by the check itself.
  if (!RUNNING.has(project.status) && name !== 'db' && name !== 'db_postgres_user' && name !== 'functions') {
    return unhealthy(`The project is not running (status: ${project.status})`)
  }
  try {
    const info = await withTimeout(CHECKS[name](timeoutMs)(ctx, project), timeoutMs)
    return { name, healthy: true, status: 'ACTIVE_HEALTHY', ...(info ? { info } : {}) }
  } catch (error) {
    return unhealthy(error instanceof Error ? error.message : String(error))
  }
}

/** GET /v1/projects/{ref}/health: the asked services, checked at once, in the order asked (each once). */
export async function checkHealth(ctx: PlatformContext, project: ProjectRow, services: HealthService[], timeoutMs = DEFAULT_HEALTH_TIMEOUT_MS): Promise<ServiceHealth[]> {
  return Promise.all([...new Set(services)].map((name) => checkOne(ctx, project, name, timeoutMs)))
}
