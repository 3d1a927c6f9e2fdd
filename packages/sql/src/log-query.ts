/**
 * Rules for log explorer queries (the project shell spec's validation rules). Logs are queried in BigQuery's SQL,
 * so the query is read with BigQuery's lexical rules: "..." is a string there, `...` an
 * identifier, and # starts a comment.
 */
import { LOG_QUERY_ILIKE_ERROR, LOG_QUERY_WITH_OR_SUBQUERY_ERROR } from '@stratum/contracts'
import { isPunctuation, isWord, significantTokens, tokenize } from './lexer.js'

// The texts live with the other values the dashboard shows (packages/contracts/src/values/logs.ts).
export { LOG_QUERY_ILIKE_ERROR, LOG_QUERY_WITH_OR_SUBQUERY_ERROR }

/** The message rejecting a log query, or undefined when it is accepted. */
export function getLogQueryError(sql: string): string | undefined {
  const code = significantTokens(tokenize(sql, { dialect: 'bigquery' }))
  let depth = 0
  let hasWithOrSubquery = false
  let hasIlike = false
  for (const token of code) {
    if (isPunctuation(token, '(')) depth++
    else if (isPunctuation(token, ')')) depth = Math.max(0, depth - 1)
    else if (isWord(token, 'with') || (depth > 0 && isWord(token, 'select'))) hasWithOrSubquery = true
    else if (isWord(token, 'ilike')) hasIlike = true
  }
  if (hasWithOrSubquery) return LOG_QUERY_WITH_OR_SUBQUERY_ERROR
  if (hasIlike) return LOG_QUERY_ILIKE_ERROR
  return undefined
}
