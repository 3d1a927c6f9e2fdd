import type { Logger } from 'pino'
import type { Db } from '../store/db.js'
import type { RequestLogEntry } from './request-log-entry.js'

const FLUSH_EVERY_MS = 250
const FLUSH_AT = 500
/** While the database is away, at most this many entries wait; the oldest go first. */
const MAX_BUFFERED = 10_000
const RETENTION_DAYS = 7
const PRUNE_EVERY_MS = 60 * 60_000
const COLUMNS = 11
/** An edge_logs line's metadata, in the shape of Supabase's edge logs (request, response, and who asked). */
const EDGE_METADATA = `jsonb_build_object(
  'identifier', project_ref, 'service', service, 'role', role, 'signature_prefix', signature_prefix, 'duration_ms', duration_ms,
  'request', jsonb_build_object('method', method, 'path', split_part(path, '?', 1), 'search', nullif(substr(path, length(split_part(path, '?', 1)) + 1), ''),
    'url', path, 'headers', jsonb_build_object('user_agent', user_agent, 'x_real_ip', client_address)),
  'response', jsonb_build_object('status_code', status, 'origin_time', duration_ms))`

/**
 * The gateway's request log in the platform database. `record` only appends to memory: the gateway's
 * speed never depends on the log. Entries are written in batches (one INSERT of many rows) and kept
 * for a week.
 */
export class RequestLog {
  private buffer: RequestLogEntry[] = []
  private flushing: Promise<void> | null = null
  private dropped = 0
  private failing = false
  private readonly flushTimer: NodeJS.Timeout
  private readonly pruneTimer: NodeJS.Timeout

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {
    this.flushTimer = setInterval(() => void this.flush(), FLUSH_EVERY_MS)
    this.flushTimer.unref()
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_EVERY_MS)
    this.pruneTimer.unref()
  }

  record(entry: RequestLogEntry): void {
    this.buffer.push(entry)
    if (this.buffer.length > MAX_BUFFERED) {
      this.buffer.shift()
      this.dropped++
    }
    if (this.buffer.length >= FLUSH_AT) void this.flush()
  }

  /** Writes what is buffered (one batch at a time); failures keep the entries for the next try. */
  flush(): Promise<void> {
    this.flushing ??= this.writeBatches().finally(() => {
      this.flushing = null
    })
    return this.flushing
  }

  async stop(): Promise<void> {
    clearInterval(this.flushTimer)
    clearInterval(this.pruneTimer)
    await this.flush()
  }

  private async writeBatches(): Promise<void> {
    while (this.buffer.length) {
      const batch = this.buffer.slice(0, FLUSH_AT)
      const values: unknown[] = []
      const rows = batch.map((entry, index) => {
        values.push(
          entry.timestamp, entry.projectRef, entry.service, entry.method, entry.path, entry.status, entry.durationMs,
          entry.role, entry.signaturePrefix, entry.userAgent, entry.clientAddress,
        )
        return `(${Array.from({ length: COLUMNS }, (_, column) => `$${index * COLUMNS + column + 1}`).join(', ')})`
      })
      try {
        // The same statement feeds the log store's edge_logs (observability/logs/): both tables get the batch or neither.
        await this.db.query(
          `WITH logged AS (
             INSERT INTO api_request_log (timestamp, project_ref, service, method, path, status, duration_ms, role, signature_prefix, user_agent, client_address)
             VALUES ${rows.join(', ')}
             RETURNING *
           )
           INSERT INTO log_events (project_ref, source, timestamp, event_message, metadata)
           SELECT project_ref, 'edge_logs', timestamp, concat_ws(' | ', method, status, client_address, path, user_agent), ${EDGE_METADATA}
           FROM logged`,
          values,
        )
      } catch (error) {
        // Once per outage, not every 250 ms.
        if (!this.failing) this.log.warn({ err: error, waiting: this.buffer.length }, 'request log: cannot write; keeping the entries for the next try')
        this.failing = true
        return
      }
      if (this.failing) this.log.info('request log: writing again')
      this.failing = false
      this.buffer.splice(0, batch.length)
      if (this.dropped) {
        this.log.warn({ dropped: this.dropped }, 'request log: entries were dropped while the database was unavailable')
        this.dropped = 0
      }
    }
  }

  private async prune(): Promise<void> {
    await this.db
      .query(`DELETE FROM api_request_log WHERE timestamp < now() - make_interval(days => ${RETENTION_DAYS})`)
      .catch((error: Error) => this.log.warn({ err: error }, 'request log: pruning failed'))
  }
}
