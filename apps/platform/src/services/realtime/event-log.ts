import type { Logger } from 'pino'
import { insertLogLines, type LogLine } from '../../observability/logs/store.js'
import type { Db } from '../../store/db.js'

const FLUSH_EVERY_MS = 500
/** Longest text kept of a client's own words (a topic, a refusal naming it): a line is a summary, not a copy. */
const MAX_TEXT = 500
/** While the platform database is away, at most this many lines wait; the oldest go first. */
const MAX_BUFFERED = 5000

export type RealtimeEventLevel = 'info' | 'warning' | 'error'

/** What happened, in realtime_logs' shape: a message and Supabase's fields (level, project, error_code). */
export interface RealtimeEvent {
  level: RealtimeEventLevel
  /** e.g. 'connect', 'join', 'join_refused', 'channel_shutdown', 'disconnect', 'changes_stream', 'changes_delivery'. */
  event: string
  message: string
  /** Supabase's operational code ('ClientJoinRateLimitReached', 'PrivateOnly', ...), when there is one. */
  errorCode?: string
  topic?: string
  role?: string | null
}

/**
 * The project's `realtime_logs` source in the Logs Explorer: connections, joins, refusals and the change stream's
 * trouble. `record` only appends to memory (a socket's speed never waits on the log); lines are written in batches,
 * one INSERT per project, into the log store the explorer reads.
 */
export class RealtimeEventLog {
  private buffer: Array<{ ref: string; line: LogLine }> = []
  private flushing: Promise<void> | null = null
  private dropped = 0
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS)
    this.timer.unref()
  }

  record(ref: string, event: RealtimeEvent): void {
    const metadata: Record<string, unknown> = { level: event.level, project: ref, external_id: ref, event: event.event }
    if (event.errorCode) metadata.error_code = clean(event.errorCode)
    if (event.topic !== undefined) metadata.topic = clean(event.topic)
    if (event.role !== undefined) metadata.role = event.role === null ? null : clean(event.role)
    this.buffer.push({ ref, line: { source: 'realtime_logs', timestamp: new Date(), eventMessage: clean(event.message), metadata } })
    if (this.buffer.length > MAX_BUFFERED) {
      this.buffer.shift()
      this.dropped++
    }
  }

  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = null
    })
    return this.flushing
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }

  private async write(): Promise<void> {
    if (!this.buffer.length) return
    const batch = this.buffer.splice(0)
    const byProject = new Map<string, LogLine[]>()
    for (const { ref, line } of batch) {
      let lines = byProject.get(ref)
      if (!lines) byProject.set(ref, (lines = []))
      lines.push(line)
    }
    for (const [ref, lines] of byProject) {
      try {
        await insertLogLines(this.db, ref, lines)
      } catch (error) {
        // A project deleted meanwhile (its lines have nowhere to go) or the database away: these lines are lost.
        this.dropped += lines.length
        this.log.debug({ err: error, ref }, 'realtime: event log lines were not written')
      }
    }
    if (this.dropped) {
      this.log.warn({ dropped: this.dropped }, 'realtime: event log lines were dropped')
      this.dropped = 0
    }
  }
}

/**
 * Text a client chose (topics reach the log verbatim) made storable: jsonb refuses NUL, which failed the whole batch
 * of the project's lines; and cut to MAX_TEXT characters.
 */
function clean(text: string): string {
  const stored = text.replaceAll('\u0000', '\ufffd')
  return stored.length > MAX_TEXT ? `${stored.slice(0, MAX_TEXT)}…` : stored
}
