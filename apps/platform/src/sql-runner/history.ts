import { SQL_HISTORY_RETENTION, type SqlHistoryEntry, type SqlHistoryParameter, type SqlHistoryPage, type SqlHistoryQuery } from '@stratum/contracts'
import type { Db } from '../store/db.js'

/** A run as the member's history starts it: before it runs, so that its entry is written while it runs. */
export interface StartedRun {
  projectRef: string
  userId: string
  query: string
  /** The named parameters' values, when `query` is the text as written. */
  parameters?: SqlHistoryParameter[] | null
}

/** How a run ended, for its history entry: its duration, and the last result's row count or the error. */
export interface FinishedRun {
  durationMs: number
  rowCount: number | null
  error?: string
}

/** One run's entry: finished exactly once, with how it ended or `null` (not kept: the entry is deleted). */
export interface HistoryEntry {
  /** Settles once the entry is in the table (or could not be written: logged); never rejects. */
  readonly written: Promise<void>
  finish(run: FinishedRun | null): void
}

/**
 * Inserts in flight past which a run's answer waits for its own entry: the answer does not wait for the history
 * (the listing does, settled()), but a member firing queries faster than the platform's database takes their
 * entries must not pile them up in memory.
 */
const MAX_INSERTS_IN_FLIGHT = 64

/** An entry's duration while its run is going: hidden from the listing until the run's end is written. */
const RUNNING = -1
/** Ends written per statement (each is one array element of an UPDATE's parameters). */
const MAX_BATCH = 500
/**
 * How long ends wait to be written with the ones that follow: a member running queries one after another costs the
 * platform's database one write per batch, not one per run. The listing and shutdown write them at once.
 */
const FLUSH_DELAY_MS = 200

/**
 * Each member's query history, written off the run's path (issue 32): the entry is inserted when the run starts, at
 * the same time as the run itself (one statement that also deletes the member's entries past the newest
 * `retention`), so that the answer waits for neither; how the run ended is written after the answer, batched with
 * the other runs that ended meanwhile. The listing waits for the entries and ends already known (settled), so a
 * member who opens the history right after a run reads it complete: the answer need not wait for the insert
 * (on `select 1` it took longer than the query itself), unless inserts are backed up (backedUp).
 */
export class QueryHistory {
  private ends: Array<{ id: string; run: FinishedRun | null }> = []
  private flushing: Promise<void> | null = null
  private timer: NodeJS.Timeout | null = null
  /** Ends whose entry is still being inserted: settled() waits for them too. */
  private readonly waiting = new Set<Promise<void>>()
  private insertsInFlight = 0
  /**
   * Each member's last insert on each project: the next waits for it. The listing's order is the id's, taken when the
   * insert runs; two inserts in flight at once on two pool connections could take them in the other order (measured:
   * a run listed under the one started after it), so one member's entries are inserted in the order their runs began.
   */
  private readonly lastInsert = new Map<string, Promise<unknown>>()

  constructor(
    private readonly db: Db,
    private readonly log: { error(details: object, message: string): void },
    private readonly retention = SQL_HISTORY_RETENTION,
  ) {
    if (retention < 2) throw new Error('the query history keeps at least 2 runs')
  }

  /** Whether so many entries are still being inserted that an answer should wait for its own (MAX_INSERTS_IN_FLIGHT). */
  get backedUp(): boolean {
    return this.insertsInFlight >= MAX_INSERTS_IN_FLIGHT
  }

  start(run: StartedRun): HistoryEntry {
    this.insertsInFlight++
    const member = `${run.projectRef}\n${run.userId}`
    const previous = this.lastInsert.get(member)
    const id = (previous ? previous.then(() => this.insert(run)) : this.insert(run))
      .catch((error: unknown) => {
        this.log.error({ err: error }, 'could not record the run in the query history')
        return null
      })
      .finally(() => {
        this.insertsInFlight--
        if (this.lastInsert.get(member) === id) this.lastInsert.delete(member)
      })
    this.lastInsert.set(member, id)
    let finished = false
    return {
      written: id.then(() => {}),
      finish: (end) => {
        if (finished) return
        finished = true
        const queued = id.then((entry) => {
          if (entry === null) return
          this.ends.push({ id: entry, run: end })
          this.schedule()
        })
        this.waiting.add(queued)
        void queued.finally(() => this.waiting.delete(queued))
      },
    }
  }

  /** Resolves once every run finished so far has its end written (those waiting for their batch are written now). */
  async settled(): Promise<void> {
    while (this.waiting.size > 0 || this.ends.length > 0 || this.flushing) {
      await Promise.all(this.waiting)
      if (this.ends.length > 0) this.flushNow()
      await this.flushing
    }
  }

  /** Ends are written after FLUSH_DELAY_MS, or at once when a whole batch is waiting. */
  private schedule(): void {
    if (this.flushing || this.timer) return
    if (this.ends.length >= MAX_BATCH) return this.flushNow()
    this.timer = setTimeout(() => this.flushNow(), FLUSH_DELAY_MS)
    // A batch waiting never keeps the process alive: shutdown writes it (settled).
    this.timer.unref()
  }

  private flushNow(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.flushing ??= this.flush()
  }

  /**
   * The new entry, and the member's entries past the newest `retention` deleted, in one statement: the DELETE reads
   * the table as it was before the INSERT, so it keeps retention - 1 of those.
   *
   * Its commit does not wait for the disk (synchronous_commit off for this one transaction): an fsync is what the
   * answer would wait for on a busy disk. The entry is visible at once all the same; only a crash of the platform's
   * database within a fraction of a second could lose it, and the end written after it (a normal commit) makes it
   * durable too.
   */
  private async insert(run: StartedRun): Promise<string> {
    // A named statement: planned once per connection, not on every run.
    const { rows } = await this.db.query<{ id: string }>({
      name: 'query-history-start',
      text: `WITH settings AS (SELECT set_config('synchronous_commit', 'off', true)), added AS (
         INSERT INTO query_history (project_ref, user_id, query, duration_ms, row_count, status, error_message, parameters)
         VALUES ($1, $2, $3, ${RUNNING}, NULL, 'ok', NULL, $4) RETURNING id
       ), trimmed AS (
         DELETE FROM query_history WHERE project_ref = $1 AND user_id = $2 AND id < (
           SELECT id FROM query_history WHERE project_ref = $1 AND user_id = $2 ORDER BY id DESC OFFSET $5 LIMIT 1)
       )
       SELECT id::text AS id FROM added, settings`,
      values: [run.projectRef, run.userId, run.query, run.parameters ? JSON.stringify(run.parameters) : null, this.retention - 2],
    })
    return rows[0]!.id
  }

  /** Writes a batch of the ends queued so far; those queued meanwhile wait for the next one. */
  private async flush(): Promise<void> {
    // Not before the caller has kept this promise (flushing): it is cleared below.
    await Promise.resolve()
    const batch = this.ends.splice(0, MAX_BATCH)
    try {
      if (batch.length > 0) await this.write(batch)
    } catch (error) {
      this.log.error({ err: error, runs: batch.length }, 'could not record the end of runs in the query history')
    }
    this.flushing = null
    if (this.ends.length > 0) this.schedule()
  }

  private async write(batch: Array<{ id: string; run: FinishedRun | null }>): Promise<void> {
    const kept = batch.filter((end): end is { id: string; run: FinishedRun } => end.run !== null)
    const dropped = batch.filter((end) => end.run === null).map((end) => end.id)
    if (kept.length > 0) {
      await this.db.query({
        name: 'query-history-end',
        text: `UPDATE query_history h SET duration_ms = e.duration_ms, row_count = e.row_count, status = e.status, error_message = e.error_message
         FROM unnest($1::bigint[], $2::int[], $3::bigint[], $4::text[], $5::text[]) AS e(id, duration_ms, row_count, status, error_message)
         WHERE h.id = e.id`,
        values: [
          kept.map((end) => end.id),
          kept.map((end) => Math.max(0, Math.round(end.run.durationMs))),
          kept.map((end) => (end.run.error === undefined ? end.run.rowCount : null)),
          kept.map((end) => (end.run.error === undefined ? 'ok' : 'error')),
          kept.map((end) => end.run.error ?? null),
        ],
      })
    }
    if (dropped.length > 0) await this.db.query('DELETE FROM query_history WHERE id = ANY($1::bigint[])', [dropped])
  }
}

interface HistoryRow {
  id: string
  query: string
  ran_at: Date
  duration_ms: number
  row_count: string | null
  status: 'ok' | 'error'
  error_message: string | null
  parameters: SqlHistoryParameter[] | null
}

/** LIKE's wildcards in a search term are matched as themselves. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * A page of the member's own runs on the project, newest first; `search` matches the query text, case-insensitive.
 * Runs still going are not listed yet.
 */
export async function listRuns(db: Db, projectRef: string, userId: string, page: SqlHistoryQuery): Promise<SqlHistoryPage> {
  const search = page.search?.trim() ? `%${likeEscaped(page.search.trim())}%` : null
  // The id is sent as text (bigint); the order is the column's, not the text alias's ("9" > "18").
  const { rows } = await db.query<HistoryRow>(
    `SELECT id::text AS id, query, ran_at, duration_ms, row_count::text AS row_count, status, error_message, parameters
     FROM query_history
     WHERE project_ref = $1 AND user_id = $2 AND duration_ms <> ${RUNNING} AND ($3::text IS NULL OR query ILIKE $3) AND ($4::bigint IS NULL OR id < $4)
     ORDER BY query_history.id DESC LIMIT $5`,
    [projectRef, userId, search, page.cursor ?? null, page.limit + 1],
  )
  const entries: SqlHistoryEntry[] = rows.slice(0, page.limit).map((row) => ({
    id: row.id,
    query: row.query,
    ran_at: row.ran_at.toISOString(),
    duration_ms: row.duration_ms,
    row_count: row.row_count === null ? null : Number(row.row_count),
    status: row.status,
    error_message: row.error_message,
    parameters: row.parameters,
  }))
  return { entries, next_cursor: rows.length > page.limit ? (entries.at(-1)?.id ?? null) : null }
}
