import { RefParams } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import type { RunnerState } from '../../control/operations/runner.js'
import { checkHealth, DEFAULT_HEALTH_TIMEOUT_MS } from '../../observability/health.js'
import { projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { parse } from '../../errors.js'
import { route } from '../typed-route.js'

/** Longest wait for the platform database to answer a health check before it counts as unreachable. */
const PLATFORM_DB_TIMEOUT_MS = 5_000

interface Readiness {
  ready: boolean
  message: string
  database: 'ok' | 'unreachable'
  jobRunner: RunnerState
}

/**
 * Ready when the platform database answers and the job runner reaches it: `running` (this platform runs
 * the operations) or `standby` (another platform on the same database does, and takes turns with us).
 */
async function platformReadiness(ctx: PlatformContext): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined
  const database = await Promise.race([
    ctx.db.query('SELECT 1').then(() => 'ok' as const),
    new Promise<'unreachable'>((resolve) => {
      timer = setTimeout(() => resolve('unreachable'), PLATFORM_DB_TIMEOUT_MS)
    }),
  ])
    .catch(() => 'unreachable' as const)
    .finally(() => clearTimeout(timer))
  const jobRunner = ctx.operations.state
  const runnerReady = jobRunner === 'running' || jobRunner === 'standby'
  const problems = [
    ...(database === 'ok' ? [] : ['the platform database is unreachable']),
    ...(runnerReady ? [] : [`the job runner is ${jobRunner === 'unreachable' ? 'unreachable' : jobRunner}`]),
  ]
  const message = problems.length ? `Stratum is not ready: ${problems.join(', and ')}` : 'ok'
  return { ready: problems.length === 0, message, database, jobRunner }
}

/**
 * GET /api/health: the platform's own readiness (below). GET /v1/projects/{ref}/health: each asked service checked for real (observability/health.ts). Every
 * member may read it; a paused project answers 200 with its services unhealthy, not an error. The
 * dashboard's own 'Connecting to project' check (/platform/projects/{ref}/database/health) stays the
 * single quick database probe in projects.ts.
 */
export async function healthRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  // The platform's readiness, without a login (auth-hook.ts): 200 `{ status: 'ok' }` when it can serve,
  // 503 naming what it cannot reach otherwise, so a load balancer or a restart script waits for it.
  app.get('/api/health', async (_request, reply) => {
    const readiness = await platformReadiness(ctx)
    if (readiness.ready) return { status: 'ok' }
    reply.code(503)
    return { status: 'unavailable', message: readiness.message, platform_database: readiness.database, job_runner: readiness.jobRunner }
  })

  route(app, 'GET /v1/projects/{ref}/health', async (request, _reply, input) => {
    const { ref } = parse(RefParams, request.params)
    const query = input.query
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read')
    return checkHealth(ctx, project, query.services, query.timeout_ms ?? DEFAULT_HEALTH_TIMEOUT_MS)
  })
}
