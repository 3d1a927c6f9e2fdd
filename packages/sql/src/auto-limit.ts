/**
 * The automatic row limit (the SQL editor spec's validation rules): appended only to a single plain select
 * statement that has no comment, no existing limit or fetch-first clause, and a positive limit
 * chosen. "Plain" also excludes SELECT ... INTO, which creates a table: a limit there would
 * silently copy fewer rows.
 */
import { isComment, isPunctuation, isWord, significantTokens, tokenize, type Token } from './lexer.js'
import { splitTokenStatements } from './statements.js'

/** The row limit option meaning "no limit". */
export const NO_ROW_LIMIT = -1
/** Row limit options, in the order the editor offers them (the SQL editor spec's limits). */
export const ROW_LIMIT_OPTIONS = [NO_ROW_LIMIT, 100, 500, 1000] as const
export type RowLimitOption = (typeof ROW_LIMIT_OPTIONS)[number]

/** The SQL side panel's fixed limit and its notice (the API docs and assistant spec's limits). */
export const SQL_PANEL_ROW_LIMIT = 100
export const SQL_PANEL_ROW_LIMIT_NOTICE = 'Limited to only 100 rows'

export interface AutoLimitResult {
  /** The SQL to run. */
  sql: string
  /** The limit appended, or undefined when the SQL was left as it was. */
  autoLimit: number | undefined
}

export function shouldAppendLimit(sql: string, limit: number): boolean {
  return findInsertionPoint(sql, limit) !== undefined
}

/** Appends ` limit N` before the statement's terminating semicolon when the rule allows it. */
export function applyAutoLimit(sql: string, limit: number): AutoLimitResult {
  const at = findInsertionPoint(sql, limit)
  if (at === undefined) return { sql, autoLimit: undefined }
  return { sql: `${sql.slice(0, at)} limit ${limit}${sql.slice(at)}`, autoLimit: limit }
}

/** Where the limit goes (just after the statement's last token), or undefined if it must not. */
function findInsertionPoint(sql: string, limit: number): number | undefined {
  if (!Number.isSafeInteger(limit) || limit <= 0) return undefined
  const tokens = tokenize(sql)
  if (tokens.some((token) => isComment(token) || token.kind === 'directive' || token.unterminated)) return undefined
  const statements = splitTokenStatements(sql, tokens)
  if (statements.length !== 1) return undefined
  const code = significantTokens(statements[0]!.tokens)
  if (!isWord(code[0], 'select') || !parenthesesBalance(code) || hasTopLevelLimitOrInto(code)) return undefined
  return statements[0]!.end
}

/** LIMIT, FETCH FIRST|NEXT or INTO outside parentheses (a subquery's limit does not bound the result). */
function hasTopLevelLimitOrInto(code: readonly Token[]): boolean {
  let depth = 0
  return code.some((token, i) => {
    if (isPunctuation(token, '(')) depth++
    else if (isPunctuation(token, ')')) depth--
    if (depth !== 0) return false
    // After AS or a dot any keyword is a name: `select 1 as limit`, `t.limit` and `t.into` are
    // columns, not a limit or into clause (the spec's auto-limit rule excludes only an existing limit clause).
    if (isWord(code[i - 1], 'as') || isPunctuation(code[i - 1], '.')) return false
    if (isWord(token, 'limit', 'into')) return true
    return isWord(token, 'fetch') && isWord(code[i + 1], 'first', 'next')
  })
}

/** Half-typed SQL such as `select count(` gets no limit: it would only make the error stranger. */
function parenthesesBalance(code: readonly Token[]): boolean {
  let depth = 0
  for (const token of code) {
    if (isPunctuation(token, '(')) depth++
    else if (isPunctuation(token, ')') && --depth < 0) return false
  }
  return depth === 0
}
