import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type pg from 'pg'
import type { Logger } from 'pino'
import { WebSocketServer } from 'ws'
import { AUTHENTICATOR_ROLE, REPLICATION_ROLE, replicationPassword, withAdminClient } from '../../control/bootstrap-roles.js'
import { findProject } from '../../control/project-store.js'
import type { ProjectService } from '../../control/projects.js'
import { checkApiKey, GatewayError } from '../../gateway/api-key.js'
import type { GatewayProject, ProjectDirectory } from '../../gateway/project-directory.js'
import type { RequestLog } from '../../gateway/request-log.js'
import { signaturePrefix } from '../../gateway/request-log-entry.js'
import type { Db } from '../../store/db.js'
import type { RealtimeConfigResponse } from '@stratum/contracts'
import { dropOrphanSlots } from './changes/slots.js'
import { realtimeConfigInForce, type StoredRealtimeConfig } from './config.js'
import { RealtimeEventLog } from './event-log.js'
import { DEFAULT_REALTIME_CONFIG, LIMIT_TEXTS } from './limits.js'
import { ProjectRealtime } from './project-realtime.js'
import { MAX_FRAME_BYTES, type Vsn } from './protocol.js'
import { ensureRealtimeSchema } from './schema.js'
import { RealtimeSocket } from './socket.js'

const SOCKET_PATH = /^\/projects\/([a-z]{20})\/realtime\/v1\/websocket\/?(?:\?(.*))?$/
const POOL_PURPOSE = 'realtime'
/** Statuses in which the project's sockets are closed: it is not coming back by itself. */
const GONE = new Set(['INACTIVE', 'PAUSING', 'GOING_DOWN', 'REMOVED'])

export interface RealtimeOptions {
  db: Db
  projects: ProjectService
  directory: ProjectDirectory
  requestLog: RequestLog
  log: Logger
  /** The installation's defaults for a project's Realtime settings (environment: the platform's config.ts). */
  defaults?: RealtimeConfigResponse
}

/** Phoenix's serializer negotiation: `~> 1.0.0` or `~> 2.0.0`; no vsn means 1.0.0. */
function negotiateVsn(value: string | null): Vsn | null {
  if (value === null || /^1\.0\.\d+$/.test(value)) return '1.0.0'
  if (/^2\.0\.\d+$/.test(value)) return '2.0.0'
  return null
}

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/**
 * Supabase Realtime for every project at `{project URL}/realtime/v1`: the Phoenix socket (socket.ts, channel.ts),
 * broadcast, presence and postgres_changes (changes/), and the HTTP broadcast API (http-broadcast.ts). One
 * ProjectRealtime per project with connections; the realtime schema is made the first time a project is used.
 */
export class RealtimeService {
  private readonly projectsRealtime = new Map<string, ProjectRealtime>()
  private readonly known = new Map<string, GatewayProject>()
  /** The settings each project's live realtime state (and its clients) was made under. */
  private readonly servedWith = new Map<string, { settings: StoredRealtimeConfig | undefined }>()
  private readonly ready = new Map<string, Promise<string>>()
  private readonly sockets = new Set<RealtimeSocket>()
  private readonly servers = new Set<WebSocketServer>()
  private readonly configs = new Map<string, { stored: StoredRealtimeConfig; config: RealtimeConfigResponse }>()
  private readonly events: RealtimeEventLog

  constructor(private readonly options: RealtimeOptions) {
    this.events = new RealtimeEventLog(options.db, options.log)
    options.directory.onChange((ref) => this.ready.delete(ref))
    options.directory.onSettled(
      (ref, project) => this.settle(ref, project),
      (error, ref) => options.log.warn({ err: error, ref }, 'realtime: a stopped project kept its connections'),
    )
  }

  /**
   * The project's realtime settings were just changed (the settings route, after directory.changed): its clients of
   * before are disconnected now, before the route answers, so that a client connecting once it has the answer is
   * never caught by the disconnection that the directory's notification would otherwise bring a moment later.
   */
  async settingsChanged(ref: string): Promise<void> {
    await this.settle(ref, await this.options.directory.get(ref))
  }

  private async settle(ref: string, project: GatewayProject | null): Promise<void> {
    if (project) this.known.set(ref, project)
    if (!project || GONE.has(project.status)) return this.closeProject(ref)
    // New settings: the project's clients are disconnected and reconnect under them, as a Supabase tenant's are.
    // Compared with the settings its live state was made under, not `known`: a health probe or a join that read
    // the project after the change (and set `known`) left the clients of before connected.
    const served = this.servedWith.get(ref)
    if (served && !sameSettings(served.settings, project.realtime)) await this.closeProject(ref, 'Realtime settings changed')
  }

  /** The project's realtime state, made on first use. */
  project(ref: string, current: GatewayProject): ProjectRealtime {
    this.known.set(ref, current)
    let realtime = this.projectsRealtime.get(ref)
    if (!realtime) {
      realtime = new ProjectRealtime({
        ref,
        log: this.options.log,
        gatewayProject: async () => {
          const project = await this.options.directory.getCurrent(ref)
          if (!project) throw new Error('The project is gone')
          this.known.set(ref, project)
          return project
        },
        pool: () => this.pool(ref),
        replicationLogin: async () => {
          const adminPassword = await this.ensureReady(ref)
          return { port: this.known.get(ref)!.port, user: REPLICATION_ROLE, password: replicationPassword(adminPassword) }
        },
        config: () => this.configOf(ref),
        record: (event) => this.events.record(ref, event),
      })
      this.projectsRealtime.set(ref, realtime)
      this.servedWith.set(ref, { settings: current.realtime })
    }
    return realtime
  }

  /** The project's settings in force (the same object until they change). */
  configOf(ref: string): RealtimeConfigResponse {
    const stored = this.known.get(ref)?.realtime
    const defaults = this.options.defaults ?? DEFAULT_REALTIME_CONFIG
    if (!stored) return defaults
    let entry = this.configs.get(ref)
    if (entry?.stored !== stored) this.configs.set(ref, (entry = { stored, config: realtimeConfigInForce(stored, defaults) }))
    return entry.config
  }

  /** Sockets connected now and messages so far, for the usage collector. */
  usageOf(ref: string): { connections: number; messages: number } {
    const realtime = this.projectsRealtime.get(ref)
    return { connections: realtime?.sockets ?? 0, messages: realtime?.messages ?? 0 }
  }

  /** Ends the project's connections now (POST .../config/realtime/shutdown); clients reconnect by themselves. */
  async shutdown(ref: string): Promise<void> {
    await this.closeProject(ref, 'Realtime was shut down')
  }

  /** As `authenticator`, PostgREST's login: the roles channels take are the ones the REST API may take. */
  pool(ref: string): pg.Pool {
    const project = this.known.get(ref)
    if (!project) throw new Error(`Project ${ref} is not known to realtime`)
    return this.options.projects.connections.pool(
      ref,
      { port: project.port, user: AUTHENTICATOR_ROLE, password: project.authenticatorPassword },
      { purpose: POOL_PURPOSE, max: this.configOf(ref).connection_pool, idleTimeoutMillis: 30_000, statementTimeoutMs: 5_000, applicationName: 'stratum-realtime' },
    )
  }

  /** The realtime schema, role and publications, once per project and process; resolves with the superuser password. */
  ensureReady(ref: string): Promise<string> {
    let ready = this.ready.get(ref)
    if (!ready) {
      ready = (async () => {
        const row = await findProject(this.options.db, ref)
        if (!row) throw new Error(`No project ${ref}`)
        const { adminPassword } = this.options.projects.credentials(row)
        await withAdminClient(this.options.projects.adminConnection(row), async (client) => {
          await ensureRealtimeSchema(client, adminPassword)
          // Set up again after each change of the project (a restart, a restore, a branch made from it): slots nobody
          // owns (a crashed platform's, one copied from the parent) go now rather than at the next listener's start.
          const dropped = await dropOrphanSlots(client, ref)
          if (dropped.length) this.options.log.info({ ref, slots: dropped }, 'realtime: slots nobody owned were dropped')
        })
        return adminPassword
      })()
      this.ready.set(ref, ready)
      ready.catch(() => this.ready.delete(ref))
    }
    return ready
  }

  /** Serves the project listener's WebSocket upgrades; `rewrite` maps `{ref}.<domain>` hosts onto /projects/{ref}. */
  attach(server: Server, rewrite?: (request: IncomingMessage) => string): () => void {
    const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false })
    this.servers.add(sockets)
    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      void this.upgrade(sockets, request, socket, head, rewrite ? rewrite(request) : (request.url ?? '/')).catch((error: Error) => {
        this.options.log.warn({ err: error }, 'realtime: an upgrade failed')
        socket.destroy()
      })
    }
    server.on('upgrade', onUpgrade)
    return () => {
      server.off('upgrade', onUpgrade)
      this.servers.delete(sockets)
      sockets.close()
    }
  }

  private async upgrade(server: WebSocketServer, request: IncomingMessage, socket: Duplex, head: Buffer, url: string): Promise<void> {
    const started = Date.now()
    const match = SOCKET_PATH.exec(url)
    if (!match) return refuseUpgrade(socket, 404, { message: 'no Route matched with those values' })
    const ref = match[1]!
    const query = new URLSearchParams(match[2] ?? '')
    let project: GatewayProject | null = null
    let apikey: string | undefined
    const log = (status: number, role: string | null) =>
      this.options.requestLog.record({
        timestamp: new Date(started),
        projectRef: ref,
        service: 'realtime',
        method: 'GET',
        path: url.slice(`/projects/${ref}`.length).replace(/([?&]apikey=)[^&]*/, '$1[redacted]'),
        status,
        durationMs: Date.now() - started,
        role,
        signaturePrefix: signaturePrefix(apikey),
        userAgent: header(request, 'user-agent') ?? null,
        clientAddress: request.socket.remoteAddress ?? null,
      })
    try {
      project = await this.options.directory.getCurrent(ref)
      if (!project) throw new GatewayError(404, 'no Route matched with those values')
      apikey = header(request, 'x-api-key') ?? header(request, 'apikey') ?? query.get('apikey') ?? undefined
      const key = checkApiKey(project, apikey, header(request, 'authorization'), header(request, 'user-agent'))
      if (project.status !== 'ACTIVE_HEALTHY') throw new GatewayError(503, `The project is not running (status: ${project.status})`)
      const vsn = negotiateVsn(query.get('vsn'))
      if (!vsn) throw new GatewayError(400, `Unsupported serializer version: ${query.get('vsn')}`)
      const realtime = this.project(ref, project)
      if (realtime.config.suspend) throw new GatewayError(403, LIMIT_TEXTS.suspended)
      if (realtime.sockets >= realtime.limits.maxConcurrentUsers) throw new GatewayError(429, LIMIT_TEXTS.connections)
      server.handleUpgrade(request, socket, head, (ws) => {
        const client = new RealtimeSocket(ws, vsn, key.bearer, realtime, socket)
        this.sockets.add(client)
        this.events.record(ref, { level: 'info', event: 'connect', message: `Connected (serializer ${vsn})`, role: key.apikeyRole })
        ws.on('close', (code: number) => {
          this.sockets.delete(client)
          this.events.record(ref, { level: 'info', event: 'disconnect', message: `Disconnected (close code ${code})` })
        })
      })
      log(101, key.apikeyRole)
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error
      log(error.status, null)
      if (project) this.events.record(ref, { level: 'error', event: 'connect_refused', message: `Connection refused (${error.status}): ${error.message}` })
      refuseUpgrade(socket, error.status, error.body())
    }
  }

  /** The project stopped or went away: its sockets close (clients reconnect when it is back) and its stream ends. */
  private async closeProject(ref: string, reason = 'The project is not running'): Promise<void> {
    const realtime = this.projectsRealtime.get(ref)
    if (!realtime) return
    this.projectsRealtime.delete(ref)
    this.servedWith.delete(ref)
    for (const socket of [...this.sockets]) if (socket.projectRef === ref) socket.close(1001, reason)
    await realtime.stop()
    await this.options.projects.connections.forget(ref, POOL_PURPOSE)
  }

  /** The health check: the realtime schema is in place and the change stream's login can be computed. */
  async probe(ref: string, current: GatewayProject): Promise<void> {
    this.known.set(ref, current)
    await this.ensureReady(ref)
  }

  async stop(): Promise<void> {
    for (const socket of [...this.sockets]) socket.close(1001, 'The server is shutting down')
    for (const server of this.servers) server.close()
    await Promise.all([...this.projectsRealtime.keys()].map((ref) => this.closeProject(ref)))
    await this.events.stop()
  }
}

/** An upgrade refused before it happened: a plain HTTP answer on the raw socket. */
function refuseUpgrade(socket: Duplex, status: number, body: object): void {
  const text = JSON.stringify(body)
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 503: 'Service Unavailable' }[status] ?? 'Error'
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`)
}

/** Whether two stored settings are the same (none stored: the defaults). */
function sameSettings(a: StoredRealtimeConfig | undefined, b: StoredRealtimeConfig | undefined): boolean {
  if (!a || !b) return a === b
  return (Object.keys(a) as Array<keyof StoredRealtimeConfig>).every((key) => a[key] === b[key])
}
