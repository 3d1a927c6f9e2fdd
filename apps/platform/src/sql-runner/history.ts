import { SQL_HISTORY_RETENTION, type SqlHistoryEntry, type SqlHistoryParameter, type SqlHistoryPage, type SqlHistoryQuery } from '@stratum/contracts'
import type { Db } from '../store/db.js'

/** One run as the member's history keeps it: what ran, when, and how it ended (the last result's row count, or the error). */
export interface HistoryRun {
  projectRef: string
  userId: string
  query: string
  /** The named parameters' values, when `query` is the text as written. */
  parameters?: SqlHistoryParameter[] | null
  /** When the run began. */
  ranAt: Date
  durationMs: number
  rowCount: number | null
  error?: string
}

/** Runs written per statement (each is one array element of the INSERT's parameters). */
const MAX_BATCH = 500
/**
 * How long a run waits to be written with the ones that follow: a member running queries one after another costs the
 * platform's database one write per batch, not one per run. The listing and shutdown write them at once.
 */
const FLUSH_DELAY_MS = 200
/**
 * Runs not yet written past which an answer waits for its own entry: the answer does not wait for the history (the
 * listing does, settled()), but a member firing queries faster than the platform's database takes them must not pile
 * them up in memory. Counted in runs and in characters of query text (a query may be up to the body limit).
 */
const MAX_UNWRITTEN_RUNS = 2 * MAX_BATCH
const MAX_UNWRITTEN_CHARS = 16 * 1024 * 1024
/** SQLSTATE classes of a row's fault (22: data exception, 23: integrity constraint), not the database's (a lost connection). */
const refusesARow = (error: unknown) => /^2[23]/.test((error as { code?: string }).code ?? '')

interface Batch {
  runs: HistoryRun[]
  /** Settles once the batch is in the table (or could not be written: logged); never rejects. */
  written: Promise<void>
  done(): void
}

function newBatch(): Batch {
  let done!: () => void
  const written = new Promise<void>((resolve) => (done = resolve))
  return { runs: [], written, done }
}

/**
 * Each member's query history, written off the run's path (issue 32): a run's entry is written once it has ended, in
 * a batch with the runs that ended within FLUSH_DELAY_MS, by one INSERT; the answer waits for none of it unless too
 * much is unwritten (backedUp). The listing waits for every run recorded so far (settled), so a member who opens the
 * history right after a run reads it. Batches are written one after the other, each in the order its runs were
 * recorded: the listing's order (the id's) is the order runs ended, so one member's runs one after another are listed
 * in the order they ran.
 */
export class QueryHistory {
  private open: Batch | null = null
  private readonly sealed: Batch[] = []
  /** The batch being written, while one is. */
  private current: Batch | null = null
  private writing: Promise<void> | null = null
  private timer: NodeJS.Timeout | null = null
  private unwrittenRuns = 0
  private unwrittenChars = 0

  constructor(
    private readonly db: Db,
    private readonly log: { error(details: object, message: string): void },
    private readonly retention = SQL_HISTORY_RETENTION,
  ) {
    if (retention < 1) throw new Error('the query history keeps at least 1 run')
  }

  /** Whether so much is unwritten that an answer should wait for its own entry (record's promise). */
  get backedUp(): boolean {
    return this.unwrittenRuns >= MAX_UNWRITTEN_RUNS || this.unwrittenChars >= MAX_UNWRITTEN_CHARS
  }

  /** Queues a run's entry; the promise settles once it is written (or could not be: logged), and never rejects. */
  record(run: HistoryRun): Promise<void> {
    const batch = (this.open ??= newBatch())
    batch.runs.push(run)
    this.unwrittenRuns++
    this.unwrittenChars += run.query.length
    if (batch.runs.length >= MAX_BATCH) this.seal()
    else if (!this.timer) {
      this.timer = setTimeout(() => this.seal(), FLUSH_DELAY_MS)
      // A batch waiting never keeps the process alive: shutdown writes it (settled).
      this.timer.unref()
    }
    return batch.written
  }

  /**
   * Resolves once every run recorded so far is written (the open batch is written now); not the runs recorded after
   * the call, so that a listing is not held up by others' runs that keep coming.
   */
  async settled(): Promise<void> {
    this.seal()
    // Batches are written in order: the last one's being written means all are.
    await (this.sealed.at(-1) ?? this.current)?.written
  }

  /** Closes the open batch and has it written after those before it. */
  private seal(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (!this.open) return
    this.sealed.push(this.open)
    this.open = null
    this.writing ??= this.drain()
  }

  private async drain(): Promise<void> {
    for (let batch = this.sealed.shift(); batch; batch = this.sealed.shift()) {
      this.current = batch
      await this.writeBatch(batch.runs)
      this.unwrittenRuns -= batch.runs.length
      for (const run of batch.runs) this.unwrittenChars -= run.query.length
      batch.done()
    }
    // No await between the last check of `sealed` and this: a batch sealed meanwhile was taken by the loop.
    this.current = null
    this.writing = null
  }

  /**
   * A batch in one statement; if one run's row is refused (its project or member gone meanwhile: a foreign key; a value
   * the table cannot take), each run on its own, so that the refused ones lose no other member's. Then each member's
   * entries past the newest `retention` are deleted.
   */
  private async writeBatch(runs: HistoryRun[]): Promise<void> {
    try {
      await this.insert(runs)
    } catch (error) {
      if (runs.length > 1 && refusesARow(error)) {
        for (const run of runs) await this.writeBatch([run])
      } else this.log.error({ err: error, runs: runs.length }, 'could not record runs in the query history')
      return
    }
    try {
      await this.trim(runs)
    } catch (error) {
      this.log.error({ err: error }, 'could not trim the query history')
    }
  }

  /**
   * Its commit does not wait for the disk (synchronous_commit off for this one transaction): an fsync is what a member's
   * next run would wait for on a busy disk. Only a crash of the platform's database within a fraction of a second could
   * lose the batch, as it could lose the runs still waiting in memory for theirs.
   */
  private async insert(runs: HistoryRun[]): Promise<void> {
    // A named statement: planned once per connection, not on every batch. ORDER BY: ids are taken in recording order.
    await this.db.query({
      name: 'query-history-record',
      text: `WITH settings AS (SELECT set_config('synchronous_commit', 'off', true))
       INSERT INTO query_history (project_ref, user_id, query, ran_at, duration_ms, row_count, status, error_message, parameters)
       SELECT e.project_ref, e.user_id, e.query, e.ran_at, e.duration_ms, e.row_count, e.status, e.error_message, e.parameters
       FROM unnest($1::text[], $2::uuid[], $3::text[], $4::timestamptz[], $5::int[], $6::bigint[], $7::text[], $8::text[], $9::jsonb[])
         WITH ORDINALITY AS e(project_ref, user_id, query, ran_at, duration_ms, row_count, status, error_message, parameters, n),
         settings
       ORDER BY e.n`,
      values: [
        runs.map((run) => run.projectRef),
        runs.map((run) => run.userId),
        runs.map((run) => run.query),
        runs.map((run) => run.ranAt),
        runs.map((run) => Math.max(0, Math.round(run.durationMs))),
        runs.map((run) => (run.error === undefined ? run.rowCount : null)),
        runs.map((run) => (run.error === undefined ? 'ok' : 'error')),
        runs.map((run) => run.error ?? null),
        runs.map((run) => (run.parameters?.length ? JSON.stringify(run.parameters) : null)),
      ],
    })
  }

  /** Deletes, for each member of the batch, the entries older than their newest `retention`. */
  private async trim(runs: HistoryRun[]): Promise<void> {
    const members = new Map(runs.map((run) => [`${run.projectRef}\n${run.userId}`, run]))
    await this.db.query({
      name: 'query-history-trim',
      text: `DELETE FROM query_history h
       USING unnest($1::text[], $2::uuid[]) AS m(project_ref, user_id)
       WHERE h.project_ref = m.project_ref AND h.user_id = m.user_id AND h.id < (
         SELECT id FROM query_history k WHERE k.project_ref = m.project_ref AND k.user_id = m.user_id ORDER BY id DESC OFFSET $3 LIMIT 1)`,
      values: [[...members.values()].map((run) => run.projectRef), [...members.values()].map((run) => run.userId), this.retention - 1],
    })
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
 */
export async function listRuns(db: Db, projectRef: string, userId: string, page: SqlHistoryQuery): Promise<SqlHistoryPage> {
  const search = page.search?.trim() ? `%${likeEscaped(page.search.trim())}%` : null
  // The id is sent as text (bigint); the order is the column's, not the text alias's ("9" > "18").
  const { rows } = await db.query<HistoryRow>(
    `SELECT id::text AS id, query, ran_at, duration_ms, row_count::text AS row_count, status, error_message, parameters
     FROM query_history
     WHERE project_ref = $1 AND user_id = $2 AND ($3::text IS NULL OR query ILIKE $3) AND ($4::bigint IS NULL OR id < $4)
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
