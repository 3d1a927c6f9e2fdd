import type { IncomingMessage, ServerResponse } from 'node:http'
import pg from 'pg'
import type { HttpRequestHandler } from 'postgraphile'
import type { Logger } from 'pino'
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
  key: string
  handler: HttpRequestHandler
  pool: pg.Pool
  /** LISTEN pgrst: the DDL watch (services/rest/schema-reload.ts) notifies it, and the engine is rebuilt. */
  listener: pg.Client
  lastUsed: number
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
  private engines = new Map<string, Engine>()
  /** Engines being built: concurrent first requests share one. */
  private building = new Map<string, Promise<Engine>>()
  private idleTimer: NodeJS.Timeout

  constructor(
    private readonly log: Logger,
    private readonly idleMs = 10 * 60_000,
  ) {
    this.idleTimer = setInterval(() => void this.dropIdle(), Math.max(1_000, Math.min(idleMs / 4, 60_000)))
    this.idleTimer.unref()
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
    engine.lastUsed = Date.now()
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
  async forget(ref: string): Promise<void> {
    const engine = this.engines.get(ref)
    if (!engine) return
    this.engines.delete(ref)
    await engine.listener.end().catch(() => {})
    await engine.handler.release().catch(() => {})
    await engine.pool.end().catch(() => {})
  }

  async stop(): Promise<void> {
    clearInterval(this.idleTimer)
    await Promise.all([...this.engines.keys()].map((ref) => this.forget(ref)))
  }

  private async engineFor(target: GraphqlTarget): Promise<Engine> {
    const key = JSON.stringify([target.connectionString, target.schemas])
    const known = this.engines.get(target.ref)
    if (known?.key === key) return known
    const pending = this.building.get(target.ref)
    if (pending) return pending
    const build = (async () => {
      if (known) await this.forget(target.ref)
      return this.build(target, key)
    })().finally(() => this.building.delete(target.ref))
    this.building.set(target.ref, build)
    return build
  }

  private async build(target: GraphqlTarget, key: string): Promise<Engine> {
    const pool = new pg.Pool({ connectionString: target.connectionString, max: POOL_SIZE, application_name: 'stratum-graphql' })
    pool.on('error', (error) => this.log.warn({ err: error, ref: target.ref }, 'GraphQL pool connection lost'))
    const listener = new pg.Client({ connectionString: target.connectionString, application_name: 'stratum-graphql-listener' })
    listener.on('error', () => void this.forget(target.ref))
    listener.on('notification', () => void this.forget(target.ref))
    await listener.connect()
    await listener.query('LISTEN pgrst')
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
    const engine: Engine = { key, handler, pool, listener, lastUsed: Date.now() }
    this.engines.set(target.ref, engine)
    return engine
  }

  private async dropIdle(): Promise<void> {
    const now = Date.now()
    for (const [ref, engine] of this.engines) if (now - engine.lastUsed > this.idleMs) await this.forget(ref)
  }
}
