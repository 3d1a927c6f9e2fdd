import type { IncomingMessage, ServerResponse } from 'node:http'
import { createHash } from 'node:crypto'
import type pg from 'pg'
import type { Logger } from 'pino'
import { ProjectProcessManager } from '../../control/processes/project-process-manager.js'
import { openProjectSession, type ProjectConnections } from '../../control/project-connections.js'
import { mustCloseAfterEarlyAnswer } from '../../gateway/proxy.js'
import type { GraphqlEngine } from './engine/engine.js'
import { GraphqlInputError, readGraphqlParams } from './request-body.js'
import { GRAPHQL_ROLES, type GraphqlTarget } from './target.js'

/**
 * Writes a refusal in GraphQL's error shape. When the body was not read to its end (a 403 or 413
 * before reading it), it is drained or the connection closes after the answer (gateway/proxy.ts).
 */
function answer(request: IncomingMessage, response: ServerResponse, error: GraphqlInputError): void {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }
  if (mustCloseAfterEarlyAnswer(request)) headers.connection = 'close'
  response.writeHead(error.status, headers).end(JSON.stringify(error.body()))
}

const POOL_SIZE = 3

interface Engine {
  engine: GraphqlEngine
  pool: pg.Pool
  /** LISTEN pgrst: the DDL watch (services/rest/schema-reload.ts) notifies it, and the reflected schemas are dropped. */
  listener: pg.Client
  stop(): Promise<void>
}

/**
 * GraphQL at `/graphql/v1` with pg_graphql's schema and semantics (engine/): one engine per active project,
 * made on its first request and dropped after an idle time and when the project's settings or keys change.
 * Each role's schema is reflected from the database as that role and kept until the DDL watch notifies.
 * Every operation is compiled to SQL and runs in a transaction as the request's role with its JWT claims in
 * `request.jwt.claims`, so row level security and auth.uid() hold.
 */
export class GraphqlService {
  /** Engines by project: built on the first request (concurrent first requests share one), dropped when idle. */
  private readonly engines: ProjectProcessManager<Engine>

  /**
   * `prepare` runs before a project's engine is made: main.ts can install the DDL watch there (the event triggers
   * that NOTIFY pgrst are otherwise installed only when PostgREST starts, so a project used only through GraphQL
   * would not see its schema changes).
   */
  constructor(
    private readonly log: Logger,
    private readonly connections: ProjectConnections,
    idleMs = 10 * 60_000,
    private readonly prepare?: (ref: string) => Promise<void>,
  ) {
    this.engines = new ProjectProcessManager<Engine>({
      what: 'GraphQL engine',
      idleMs,
      log,
      // An operation still running (or waiting for a session) keeps its engine: ending the pool would fail it.
      busy: ({ pool }) => pool.waitingCount > 0 || pool.totalCount > pool.idleCount,
    })
  }

  async handle(request: IncomingMessage, response: ServerResponse, target: GraphqlTarget): Promise<void> {
    // The gateway passes only these roles (graphqlTarget): checked again here, as defense in depth.
    if (!GRAPHQL_ROLES.has(target.role)) return answer(request, response, new GraphqlInputError(403, `The role ${target.role} may not use GraphQL`))
    if (request.method !== 'POST') {
      // Drained (or closed) like any early answer: a GET carries no body to read.
      return answer(request, response, new GraphqlInputError(405, 'Send GraphQL requests as POST'))
    }
    let params
    try {
      params = await readGraphqlParams(request)
    } catch (error) {
      if (error instanceof GraphqlInputError) return answer(request, response, error)
      throw error
    }
    let engine: Engine
    try {
      engine = await this.engineFor(target)
    } catch (error) {
      this.log.warn({ err: error, ref: target.ref }, 'GraphQL engine could not be built')
      return answer(request, response, new GraphqlInputError(503, `The GraphQL service of this project is not available: ${(error as Error).message}`))
    }
    let body: unknown
    try {
      body = await engine.engine.handle(params, { role: target.role, claims: target.claims as Record<string, unknown> })
    } catch (error) {
      // The engine answers bad documents and database refusals itself: anything else is a fault of ours.
      this.log.error({ err: error, ref: target.ref }, 'GraphQL request failed')
      return answer(request, response, new GraphqlInputError(500, 'The GraphQL request could not be answered'))
    }
    // As pg_graphql through PostgREST answers: 200, errors (if any) in the body.
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body))
  }

  /** Drops the project's engine: the next request reflects the database again. */
  forget(ref: string): Promise<void> {
    return this.engines.stop(ref)
  }

  stop(): Promise<void> {
    return this.engines.stopAll()
  }

  private engineFor(target: GraphqlTarget): Promise<Engine> {
    return this.engines.acquire(target.ref, JSON.stringify([target.login, target.schemas]), () => this.build(target))
  }

  private async build(target: GraphqlTarget): Promise<Engine> {
    await this.prepare?.(target.ref)
    // Each engine has a pool of its own in the registry (a rebuilt engine must not end its successor's), named by
    // the login and schemas it was built for.
    const purpose = `graphql:${createHash('sha256').update(JSON.stringify([target.login, target.schemas])).digest('hex').slice(0, 16)}`
    const pool = this.connections.pool(target.ref, target.login, { purpose, max: POOL_SIZE, applicationName: 'stratum-graphql' })
    // Loaded on the first GraphQL request, not at boot (graphql-js is a large module the platform may never need).
    const { GraphqlEngine: EngineClass } = await import('./engine/engine.js')
    const graphql: GraphqlEngine = new EngineClass(pool, target.schemas, this.log)
    let engine: Engine | null = null
    // A lost listener drops this engine (not a newer one): schema changes would go unnoticed otherwise.
    const drop = () => void (engine ? this.engines.discard(target.ref, engine) : undefined)
    const release = () => this.connections.forget(target.ref, purpose)
    // A session of its own: LISTEN holds it for the engine's life.
    const listener = await openProjectSession(target.login, { applicationName: 'stratum-graphql-listener' }).catch(async (error: unknown) => {
      await release()
      throw error
    })
    listener.on('error', drop)
    listener.on('end', drop)
    listener.on('notification', () => graphql.invalidate())
    try {
      await listener.query('LISTEN pgrst')
    } catch (error) {
      await listener.end().catch(() => {})
      await release()
      throw error
    }
    let stopped: Promise<void> | null = null
    engine = {
      engine: graphql,
      pool,
      listener,
      stop: () =>
        (stopped ??= (async () => {
          listener.removeListener('end', drop)
          await listener.end().catch(() => {})
          await release()
        })()),
    }
    return engine
  }
}
