import { tokenize } from '@stratum/sql'
import type { FormatOptionsWithLanguage } from 'sql-formatter'

type Formatter = (sql: string, options: FormatOptionsWithLanguage) => string

/** Postgres's dialect, keywords left as written, 2 spaces (the editor's tab size), `:name` parameters kept. */
const OPTIONS: FormatOptionsWithLanguage = { language: 'postgresql', keywordCase: 'preserve', tabWidth: 2, paramTypes: { named: [':'] } }

/**
 * Formats SQL with `format` (sql-formatter's). The editor's `@set` directive lines are no SQL: they stay
 * as written, each on its own line, and the SQL between them is formatted piece by piece.
 */
export function formatSqlWith(format: Formatter, sql: string): string {
  const parts: string[] = []
  let at = 0
  const addSql = (text: string) => {
    if (text.trim()) parts.push(format(text, OPTIONS))
  }
  for (const token of tokenize(sql)) {
    if (token.kind !== 'directive') continue
    addSql(sql.slice(at, token.start))
    parts.push(token.text.trim())
    at = token.end
  }
  addSql(sql.slice(at))
  const formatted = parts.join('\n')
  return sql.endsWith('\n') ? `${formatted}\n` : formatted
}

/** Formats SQL; the formatter is loaded on first use (it is not needed to open the editor). Throws on SQL it cannot read. */
export async function formatSql(sql: string): Promise<string> {
  const { format } = await import('sql-formatter')
  return formatSqlWith(format, sql)
}
