import { LOG_QUERY_MAX_WINDOW_MS, LOG_QUERY_TIMEOUT_MS, type LogQueryParams, type LogQueryResponse } from '@stratum/contracts'
import { LogQueryError, translateLogQuery } from '@stratum/sql/parser'
import type { Db } from '../../store/db.js'

/**
 * The window a query covers: the caller's, or the last 24 hours. A window longer than 24 hours keeps its
 * last 24 (as the field's API caps it); one that ends before it starts is refused.
 */
export function logQueryWindow(params: Pick<LogQueryParams, 'iso_timestamp_start' | 'iso_timestamp_end'>, now = Date.now()): { start: Date; end: Date } {
  const end = params.iso_timestamp_end ? new Date(params.iso_timestamp_end) : new Date(now)
  let start = params.iso_timestamp_start ? new Date(params.iso_timestamp_start) : new Date(end.getTime() - LOG_QUERY_MAX_WINDOW_MS)
  if (end.getTime() - start.getTime() > LOG_QUERY_MAX_WINDOW_MS) start = new Date(end.getTime() - LOG_QUERY_MAX_WINDOW_MS)
  return { start, end }
}

/**
 * Runs a log query for one project. The SQL is the translator's (never the caller's text); it runs in a
 * read-only transaction with a statement timeout, and the translator caps its rows. A refused or failing
 * query answers its message in `error` beside an empty result, as the field's endpoint does.
 */
export async function runLogQuery(db: Db, projectRef: string, params: LogQueryParams): Promise<LogQueryResponse> {
  const { start, end } = logQueryWindow(params)
  if (start.getTime() >= end.getTime()) return { result: [], error: 'iso_timestamp_start must be before iso_timestamp_end' }
  const sql = params.sql?.trim()
  if (!sql) return { result: [], error: 'sql is required' }
  let translated
  try {
    translated = await translateLogQuery(sql, { projectRef, start: start.toISOString(), end: end.toISOString() })
  } catch (error) {
    if (error instanceof LogQueryError) return { result: [], error: error.message }
    throw error
  }
  const client = await db.connect()
  try {
    await client.query('BEGIN TRANSACTION READ ONLY')
    await client.query(`SET LOCAL statement_timeout = ${LOG_QUERY_TIMEOUT_MS}`)
    const { rows } = await client.query(translated.sql, translated.params)
    await client.query('COMMIT')
    return { result: rows }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    // The query's own mistakes (a bad regular expression, a cast of a value that is not a number, the timeout).
    const pgError = error as { code?: string; message: string }
    if (typeof pgError.code === 'string' && /^(22|42|57014)/.test(pgError.code)) return { result: [], error: pgError.message }
    throw error
  } finally {
    client.release()
  }
}
