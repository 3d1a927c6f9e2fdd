import type pg from 'pg'
import type { Logger } from 'pino'
import { NET_OWNER_ROLE } from '../../control/bootstrap-roles.js'
import { openProjectSession, type ProjectLogin } from '../../control/project-connections.js'
import { deliver, type DeliverySettings, type QueuedRequest } from './delivery.js'
import type { DeliveryResult } from './http-request.js'
import { ensureNetSchema, NET_WAKE_CHANNEL } from './schema.js'

/** Requests of one project in flight at once; the rest wait in the queue. */
export const MAX_IN_FLIGHT = 8
/** pg_net's default TTL (pg_net.ttl): responses older than this are deleted. */
export const RESPONSE_TTL = '6 hours'
const PRUNE_EVERY_MS = 60_000
const RECONNECT_MS = [1_000, 2_000, 5_000, 10_000, 30_000]

export interface ProjectNetWorkerOptions {
  ref: string
  /** The platform superuser's login (its session carries the pinned search_path: project-connections.ts). */
  login: () => Promise<ProjectLogin>
  settings: DeliverySettings
  log: Logger
}

/**
 * Sends one project's queued requests (pg_net's background worker, here in the platform). One session as the
 * platform's superuser LISTENs for the queue's trigger (a NOTIFY arrives at commit), takes up to MAX_IN_FLIGHT rows
 * at a time and records each answer in net._http_response. It reads and writes only net's tables, which belong to a
 * role no tenant is a member of (schema.ts): no trigger, rule or policy of a tenant runs on them. Started when the
 * project is healthy (and drains what was queued while it was not), stopped with it.
 */
export class ProjectNetWorker {
  private session: pg.Client | null = null
  private stopped = false
  private draining = false
  private drainAgain = false
  private inFlight = 0
  private lastPrune = 0
  private attempt = 0
  private retry: NodeJS.Timeout | null = null
  private readonly abort = new AbortController()

  constructor(private readonly options: ProjectNetWorkerOptions) {}

  start(): void {
    void this.connect()
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.retry) clearTimeout(this.retry)
    this.abort.abort()
    const session = this.session
    this.session = null
    await session?.end().catch(() => {})
  }

  private async connect(): Promise<void> {
    if (this.stopped) return
    let session: pg.Client | null = null
    try {
      session = await openProjectSession(await this.options.login(), { applicationName: 'stratum-net', statementTimeoutMs: 30_000 })
      if (this.stopped) return void (await session.end().catch(() => {}))
      await this.prepare(session)
      session.on('notification', () => this.drain())
      session.on('end', () => this.lost(session!))
      session.on('error', () => this.lost(session!))
      await session.query(`LISTEN ${NET_WAKE_CHANNEL}`)
      this.session = session
      this.attempt = 0
      this.drain()
    } catch (error) {
      await session?.end().catch(() => {})
      this.options.log.warn({ err: error, ref: this.options.ref }, 'net: cannot reach the project database; retrying')
      this.reconnectLater()
    }
  }

  /**
   * Projects made before net have its schema made now. Then the tables are checked to be as schema.ts made them (owned
   * by the net role, no trigger but the queue's wake-up, no rule, no row security, no default but the id's sequence and
   * now(), no constraint, no index on an expression or with a predicate, the method domain the net role's): the
   * worker's statements run nothing else. No tenant can add any of these (each needs the tables' owner, a role no
   * tenant is a member of: Postgres 15 gives `postgres` no CREATEROLE, which there could grant any role); this check is
   * for a restore or a copy that brought other objects.
   */
  private async prepare(session: pg.Client): Promise<void> {
    const exists = await session.query<{ ready: boolean }>(
      `SELECT pg_catalog.to_regclass('net.http_request_queue') IS NOT NULL AND pg_catalog.to_regprocedure('supabase_functions.http_request()') IS NOT NULL AS ready`,
    )
    if (!exists.rows[0]?.ready) await ensureNetSchema(session)
    const { rows } = await session.query<{ foreign_objects: number }>(FOREIGN_OBJECTS_SQL, ['{net.http_request_queue,net._http_response}', NET_OWNER_ROLE])
    if (Number(rows[0]?.foreign_objects) !== 0) throw new Error('net: the queue tables are not as the platform made them; nothing is sent')
  }

  private lost(session: pg.Client): void {
    if (this.session !== session) return
    this.session = null
    void session.end().catch(() => {})
    this.reconnectLater()
  }

  private reconnectLater(): void {
    if (this.stopped || this.retry) return
    const delay = RECONNECT_MS[Math.min(this.attempt++, RECONNECT_MS.length - 1)]!
    this.retry = setTimeout(() => {
      this.retry = null
      void this.connect()
    }, delay)
    this.retry.unref()
  }

  /** Takes queued rows while slots are free; called on every notification and after every answer. */
  private drain(): void {
    if (this.draining) {
      this.drainAgain = true
      return
    }
    this.draining = true
    void this.drainOnce()
      .catch((error: Error) => this.options.log.warn({ err: error, ref: this.options.ref }, 'net: reading the queue failed'))
      .finally(() => {
        this.draining = false
        if (this.drainAgain && !this.stopped) {
          this.drainAgain = false
          this.drain()
        }
      })
  }

  private async drainOnce(): Promise<void> {
    for (;;) {
      const session = this.session
      const free = MAX_IN_FLIGHT - this.inFlight
      if (!session || this.stopped || free <= 0) return
      await this.pruneWhenDue(session)
      // Taken off the queue before sending, as pg_net does: a request is sent at most once.
      const { rows } = await session.query<QueuedRequest>(
        `DELETE FROM net.http_request_queue WHERE id IN (
           SELECT q.id FROM net.http_request_queue q ORDER BY q.id LIMIT $1::integer FOR UPDATE SKIP LOCKED)
         RETURNING id::text, method::text, url, headers, body, timeout_milliseconds`,
        [free],
      )
      if (rows.length === 0) return
      for (const row of rows) this.send(session, row)
    }
  }

  private send(session: pg.Client, row: QueuedRequest): void {
    this.inFlight++
    void deliver(row, this.options.ref, this.options.settings, this.abort.signal)
      .then((result) => (this.stopped ? undefined : record(session, row.id, result)))
      .catch((error: Error) => this.options.log.warn({ err: error, ref: this.options.ref, id: row.id }, 'net: a response could not be recorded'))
      .finally(() => {
        this.inFlight--
        this.drain()
      })
  }

  private async pruneWhenDue(session: pg.Client): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return
    this.lastPrune = Date.now()
    await session.query(`DELETE FROM net._http_response WHERE created < pg_catalog.now() - $1::pg_catalog.interval`, [RESPONSE_TTL])
  }
}

/** What is on net's tables beyond what schema.ts put there ($1 the two tables, $2 the net role); 0 when nothing. */
const FOREIGN_OBJECTS_SQL = `
  WITH owner AS (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) $2::text)
  SELECT (SELECT pg_catalog.count(*) FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) ANY ($1::pg_catalog.regclass[])
             AND (c.relowner OPERATOR(pg_catalog.<>) (SELECT oid FROM owner) OR c.relrowsecurity))
       + (SELECT pg_catalog.count(*) FROM pg_catalog.pg_trigger t WHERE t.tgrelid OPERATOR(pg_catalog.=) ANY ($1::pg_catalog.regclass[])
             AND NOT (t.tgrelid OPERATOR(pg_catalog.=) 'net.http_request_queue'::pg_catalog.regclass AND t.tgname OPERATOR(pg_catalog.=) 'stratum_wake'
                      AND t.tgfoid OPERATOR(pg_catalog.=) 'net._stratum_wake()'::pg_catalog.regprocedure))
       + (SELECT pg_catalog.count(*) FROM pg_catalog.pg_rewrite w WHERE w.ev_class OPERATOR(pg_catalog.=) ANY ($1::pg_catalog.regclass[]))
       + (SELECT pg_catalog.count(*) FROM pg_catalog.pg_attrdef d WHERE d.adrelid OPERATOR(pg_catalog.=) ANY ($1::pg_catalog.regclass[])
             AND pg_catalog.pg_get_expr(d.adbin, d.adrelid) OPERATOR(pg_catalog.<>) ALL (ARRAY['now()', 'nextval(''net.http_request_queue_id_seq''::regclass)']))
       + (SELECT pg_catalog.count(*) FROM pg_catalog.pg_constraint k WHERE k.conrelid OPERATOR(pg_catalog.=) ANY ($1::pg_catalog.regclass[])
             AND k.contype OPERATOR(pg_catalog.<>) 'n')
       + (SELECT pg_catalog.count(*) FROM pg_catalog.pg_index i WHERE i.indrelid OPERATOR(pg_catalog.=) ANY ($1::pg_catalog.regclass[])
             AND (i.indexprs IS NOT NULL OR i.indpred IS NOT NULL))
       + (SELECT pg_catalog.count(*) FROM pg_catalog.pg_type y WHERE y.oid OPERATOR(pg_catalog.=) 'net.http_method'::pg_catalog.regtype
             AND y.typowner OPERATOR(pg_catalog.<>) (SELECT oid FROM owner)) AS foreign_objects`

async function record(session: pg.Client, id: string, result: DeliveryResult): Promise<void> {
  await session.query(
    `INSERT INTO net._http_response (id, status_code, content_type, headers, content, timed_out, error_msg)
     VALUES ($1::bigint, $2::integer, $3::text, $4::jsonb, $5::text, $6::boolean, $7::text)`,
    [id, result.status_code, result.content_type, result.headers === null ? null : JSON.stringify(result.headers), result.content, result.timed_out, result.error_msg],
  )
}
