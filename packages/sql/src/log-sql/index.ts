/**
 * Log queries, from the text a user or an agent writes to SQL over the log store: the spec's refusals first
 * (their exact texts), then the BigQuery lexical rewrite, the real Postgres parser, and the whitelist
 * translation. Throws LogQueryError with a sentence to show; never answers SQL it did not build itself.
 */
import { getLogQueryError } from '../log-query.js'
import { parseSqlTree } from '../parser.js'
import { bigQueryToPostgres } from './dialect.js'
import { LogQueryError } from './expressions.js'
import { translateLogStatement, type LogQueryWindow, type TranslatedLogQuery } from './translate.js'

export { LogQueryError } from './expressions.js'
export { LOG_STORE_TABLE, type LogQueryWindow, type TranslatedLogQuery } from './translate.js'

export async function translateLogQuery(sql: string, window: LogQueryWindow): Promise<TranslatedLogQuery> {
  const refusal = getLogQueryError(sql)
  if (refusal) throw new LogQueryError(refusal)
  let text: string
  try {
    text = bigQueryToPostgres(sql)
  } catch (error) {
    throw new LogQueryError((error as Error).message)
  }
  const parsed = await parseSqlTree(text)
  if (!parsed.ok) throw new LogQueryError(`Syntax error in the log query: ${parsed.error.message}`)
  if (parsed.stmts.length !== 1) throw new LogQueryError('A log query is exactly one SELECT statement')
  return translateLogStatement(parsed.stmts[0]!, window)
}
