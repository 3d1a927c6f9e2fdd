import type { IncomingMessage, ServerResponse } from 'node:http'
import { createHash } from 'node:crypto'
import type pg from 'pg'
import type { HttpRequestHandler } from 'postgraphile'
import type { Logger } from 'pino'
import { ProjectProcessManager } from '../../control/processes/project-process-manager.js'
import { openProjectSession, type ProjectConnections } from '../../control/project-connections.js'
import { mustCloseAfterEarlyAnswer } from '../../gateway/proxy.js'
import { GraphqlInputError, readGraphqlParams } from './request-body.js'
import type { GraphqlTarget } from './target.js'

/**
 * Writes a refusal in GraphQL's error shape. When the body was not read to its end (a 403 or 413
 * before reading it), it is drained or the connection closes after the answer (gateway/proxy.ts).
 */
function answer(request: IncomingMessage, response: ServerResponse, error: GraphqlInputError): void {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }
  if (mustCloseAfterEarlyAnswer(request)) headers.connection = 'close'
  response.writeHead(error.status, headers).end(JSON.stringify(error.body()))
}

/** The roles a request may run as: the gateway passes only these (defense in depth here too). */
const API_ROLES = new Set(['anon', 'authenticated', 'service_role'])
const POOL_SIZE = 3

interface Engine {
  handler: HttpRequestHandler
  pool: pg.Pool
  /** LISTEN pgrst: the DDL watch (services/rest/schema-reload.ts) notifies it, and the engine is rebuilt. */
  listener: pg.Client
  stop(): Promise<void>
}

/** The target of the request being handled, for PostGraphile's pgSettings callback. */
const targets = new WeakMap<IncomingMessage, GraphqlTarget>()

/**
 * GraphQL at `/graphql/v1` by PostGraphile 4 (version 5 needs Node 22): one engine per active
 * project, built from the database on its first request and dropped after an idle time, on a schema
 * change and when the project's settings or keys change. Every operation runs in a transaction as the
 * request's role with its JWT claims in `request.jwt.claims`, so row level security and auth.uid() hold.
 */
export class GraphqlService {
  /** Engines by project: built on the first request (concurrent first requests share one), dropped when idle. */
  private readonly engines: ProjectProcessManager<Engine>

  constructor(
    private readonly log: Logger,
    private readonly connections: ProjectConnections,
    idleMs = 10 * 60_000,
  ) {
    this.engines = new ProjectProcessManager<Engine>({ what: 'GraphQL engine', idleMs, log })
  }

  async handle(request: IncomingMessage, response: ServerResponse, target: GraphqlTarget): Promise<void> {
    if (!API_ROLES.has(target.role)) return answer(request, response, new GraphqlInputError(403, `The role ${target.role} may not use GraphQL`))
    // The body is read and checked here, and PostGraphile gets it parsed (body-parser skips a request
    // whose `_body` is set): wrong shapes and NUL bytes are a 400 in GraphQL's shape, never a 500.
    const parsed = request as IncomingMessage & { body?: unknown; _body?: boolean }
    try {
      parsed.body = request.method === 'POST' ? await readGraphqlParams(request) : {}
      parsed._body = true
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
    targets.set(request, target)
    await new Promise<void>((resolve, reject) => {
      response.once('finish', resolve)
      response.once('close', resolve)
      void engine.handler(request, response, (error?: unknown) => {
        if (error) reject(error instanceof Error ? error : new Error(String(error)))
        else if (!response.writableEnded) {
          response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ message: 'Send GraphQL requests as POST' }] }))
        }
      })
    })
  }

  /** Drops the project's engine: the next request introspects the database again. */
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
    // Each engine has a pool of its own in the registry (a rebuilt engine must not end its successor's), named by
    // the login and schemas it was built for.
    const purpose = `graphql:${createHash('sha256').update(JSON.stringify([target.login, target.schemas])).digest('hex').slice(0, 16)}`
    const pool = this.connections.pool(target.ref, target.login, { purpose, max: POOL_SIZE, applicationName: 'stratum-graphql' })
    let engine: Engine | null = null
    // A schema change (or a lost listener) drops this engine, not a newer one.
    const drop = () => void (engine ? this.engines.discard(target.ref, engine) : undefined)
    const release = () => this.connections.forget(target.ref, purpose)
    // A session of its own: LISTEN holds it for the engine's life.
    const listener = await openProjectSession(target.login, { applicationName: 'stratum-graphql-listener' }).catch(async (error: unknown) => {
      await release()
      throw error
    })
    listener.on('error', drop)
    listener.on('notification', drop)
    try {
      await listener.query('LISTEN pgrst')
    } catch (error) {
      await listener.end().catch(() => {})
      await release()
      throw error
    }
    // Loaded on the first GraphQL request, not at boot: PostGraphile takes about half a second to import.
    const { postgraphile } = await import('postgraphile')
    const handler = postgraphile(pool, target.schemas, {
      graphqlRoute: '/graphql',
      graphiql: false,
      disableQueryLog: true,
      dynamicJson: true,
      retryOnInitFail: false,
      watchPg: false,
      showErrorStack: false,
      extendedErrors: ['hint', 'detail', 'errcode'],
      enableCors: false,
      bodySizeLimit: '1MB',
      pgSettings: async (request: IncomingMessage) => {
        const target = targets.get(request)
        if (!target) throw new Error('No target for this GraphQL request')
        return { role: target.role, 'request.jwt.claims': JSON.stringify(target.claims), 'request.jwt.claim.role': target.role }
      },
    })
    let stopped: Promise<void> | null = null
    engine = {
      handler,
      pool,
      listener,
      stop: () =>
        (stopped ??= (async () => {
          await listener.end().catch(() => {})
          await handler.release().catch(() => {})
          await release()
        })()),
    }
    return engine
  }
}
