import pg from 'pg'
import { jsonRowEncoder, type JsonRowEncoder, type JsonRows } from './json-rows.js'
import { resultTypes } from './pools.js'

/** What is left of a request's result allowance, shared by its statements. */
export interface ResultBudget {
  rows: number
  /** Characters of the rows' text (about their size once sent as JSON). */
  chars: number
}

interface DataRowMessage {
  fields: (string | null)[]
}

interface RowDescriptionMessage {
  fields: Array<{ name: string; dataTypeID: number }>
}

/** pg's result object, with the rows of this query kept as JSON text instead. */
export type EncodedResult = pg.QueryResult & { jsonRows?: JsonRows }

// pg.Query's protocol handlers: the query below takes over what it does with rows. They are
// internal to pg (pinned by its major version); query.js keeps the current result in `_result`.
type QueryInternals = pg.Query & { _result: EncodedResult; _results: EncodedResult | EncodedResult[] }
const queryPrototype = pg.Query.prototype as unknown as {
  handleRowDescription(this: pg.Query, msg: RowDescriptionMessage): void
  handleCommandComplete(this: pg.Query, msg: unknown, connection: unknown): void
}
const baseHandleRowDescription = queryPrototype.handleRowDescription
const baseHandleCommandComplete = queryPrototype.handleCommandComplete

/**
 * Where a streamed query hands its rows as they arrive (instead of keeping them): the columns of
 * each result it starts, then its rows in batches. `result` counts the results of this query.
 */
export interface RowStream {
  columns(result: number, fields: ReadonlyArray<{ name: string; dataTypeID: number }>): void
  rows(result: number, batch: JsonRows): void
}

/** The first batch is small so that the first rows show at once; later ones are larger. */
const FIRST_BATCH_ROWS = 100
const BATCH_ROWS = 2_000
/** A batch is also sent once it is this old, for queries that produce rows slowly. */
const BATCH_MAX_AGE_MS = 50

/**
 * A query whose rows are encoded to JSON text as they arrive (json-rows.ts), then either kept on
 * its result or handed to a RowStream in batches, while the budget lasts: past it, rows are read
 * off the wire and dropped, so a huge result costs time (bounded by the statement timeout) but
 * never memory. The statement itself runs to its end;
 * cancelling it would roll back an INSERT ... RETURNING.
 */
export class CappedQuery extends pg.Query {
  truncated = false
  /** Each result's command tag as Postgres sent it (`INSERT 0 3`), in order. */
  readonly commandTags: string[] = []
  private encoder: JsonRowEncoder | null = null
  private result = -1
  private batch: JsonRows = []
  private batchStarted = 0
  private sentRows = 0

  constructor(
    text: string,
    values: unknown[] | undefined,
    private readonly budget: ResultBudget,
    private readonly stream?: RowStream,
    private readonly types: pg.CustomTypesConfig = resultTypes,
  ) {
    // Text and values as arguments: pg copies a config object property by property (utils.cloneQueryConfig, a few µs
    // a query: issue 32). The result's type parsers are then set as pg's constructor sets them from a config.
    super(text, values)
    const internals = this as unknown as QueryInternals
    internals._result = new pg.Result(undefined as never, types as never) as EncodedResult
    internals._results = internals._result
  }

  handleRowDescription(msg: RowDescriptionMessage): void {
    this.flush()
    baseHandleRowDescription.call(this, msg)
    ;(this as unknown as QueryInternals)._result.jsonRows = []
    this.encoder = jsonRowEncoder(msg.fields, this.types)
    this.result++
    this.sentRows = 0
    this.stream?.columns(this.result, msg.fields)
  }

  handleCommandComplete(msg: unknown, connection: unknown): void {
    this.flush()
    const tag = (msg as { text?: string }).text
    this.commandTags.push(tag ?? '')
    baseHandleCommandComplete.call(this, msg, connection)
  }

  /** Hands the rows gathered so far to the stream. */
  private flush(): void {
    if (!this.stream || this.batch.length === 0) return
    this.stream.rows(this.result, this.batch)
    this.sentRows += this.batch.length
    this.batch = []
  }

  handleDataRow(msg: DataRowMessage): void {
    if (this.truncated) return
    let chars = 8
    for (const field of msg.fields) chars += field === null ? 4 : field.length + 4
    if (this.budget.rows <= 0 || this.budget.chars < chars) {
      this.truncated = true
      return
    }
    this.budget.rows -= 1
    this.budget.chars -= chars
    const row = this.encoder!.encode(msg.fields)
    if (!this.stream) {
      ;(this as unknown as QueryInternals)._result.jsonRows!.push(row)
      return
    }
    const now = performance.now()
    if (this.batch.length === 0) this.batchStarted = now
    this.batch.push(row)
    const size = this.sentRows === 0 ? FIRST_BATCH_ROWS : BATCH_ROWS
    if (this.batch.length >= size || now - this.batchStarted >= BATCH_MAX_AGE_MS) this.flush()
  }
}

/** Runs a CappedQuery on a client; resolves with its result(s). */
export function execute(client: pg.PoolClient, query: CappedQuery): Promise<EncodedResult | EncodedResult[]> {
  return new Promise((resolve, reject) => {
    query.on('end', resolve)
    query.on('error', reject)
    client.query(query)
  })
}
