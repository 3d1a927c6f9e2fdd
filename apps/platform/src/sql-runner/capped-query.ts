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
type QueryInternals = pg.Query & { _result: EncodedResult }
const baseHandleRowDescription = (pg.Query.prototype as unknown as { handleRowDescription(this: pg.Query, msg: RowDescriptionMessage): void })
  .handleRowDescription

/**
 * A query whose rows are encoded to JSON text as they arrive (json-rows.ts), and kept only while
 * the budget lasts: past it, rows are read off the wire and dropped, so a huge result costs time
 * (bounded by the statement timeout) but never memory. The statement itself runs to its end;
 * cancelling it would roll back an INSERT ... RETURNING.
 */
export class CappedQuery extends pg.Query {
  truncated = false
  private encoder: JsonRowEncoder | null = null

  constructor(
    text: string,
    values: unknown[] | undefined,
    private readonly budget: ResultBudget,
  ) {
    super({ text, values, types: resultTypes })
  }

  handleRowDescription(msg: RowDescriptionMessage): void {
    baseHandleRowDescription.call(this, msg)
    ;(this as unknown as QueryInternals)._result.jsonRows = []
    this.encoder = jsonRowEncoder(msg.fields, resultTypes)
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
    ;(this as unknown as QueryInternals)._result.jsonRows!.push(this.encoder!.encode(msg.fields))
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
