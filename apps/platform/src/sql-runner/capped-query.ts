import pg from 'pg'
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

const baseHandleDataRow = (pg.Query.prototype as unknown as { handleDataRow(this: pg.Query, msg: DataRowMessage): void }).handleDataRow

/**
 * A query that keeps rows only while the budget lasts: past it, rows are read off the wire and
 * dropped, so a huge result costs time (bounded by the statement timeout) but never memory. The
 * statement itself runs to its end; cancelling it would roll back an INSERT ... RETURNING.
 */
export class CappedQuery extends pg.Query {
  truncated = false

  constructor(
    text: string,
    values: unknown[] | undefined,
    private readonly budget: ResultBudget,
  ) {
    super({ text, values, types: resultTypes })
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
    baseHandleDataRow.call(this, msg)
  }
}

/** Runs a CappedQuery on a client; resolves with its result(s). */
export function execute(client: pg.PoolClient, query: CappedQuery): Promise<pg.QueryResult | pg.QueryResult[]> {
  return new Promise((resolve, reject) => {
    query.on('end', resolve)
    query.on('error', reject)
    client.query(query)
  })
}
