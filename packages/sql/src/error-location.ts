/**
 * Where an error's position falls in the query, and psql's two lines that show it:
 *
 *   LINE 2: select lower(1, 2, 3)
 *                  ^
 */
export interface ErrorLocation {
  /** 1-based line and column of the position. */
  line: number
  column: number
  /** The whole line the position is on (without its line break). */
  lineText: string
}

/**
 * The line and column of `position`, 1-based as Postgres gives it, in `sql`. Undefined when the
 * position is missing or outside the text. Line breaks are \n, \r\n or \r, as Postgres counts them.
 */
export function errorLocation(sql: string, position: number | undefined): ErrorLocation | undefined {
  if (position === undefined || !Number.isInteger(position) || position < 1 || position > sql.length + 1) return undefined
  const index = position - 1
  let line = 1
  let lineStart = 0
  for (let i = 0; i < index; i++) {
    const char = sql[i]
    if (char === '\n' || (char === '\r' && sql[i + 1] !== '\n')) {
      line++
      lineStart = i + 1
    }
  }
  const rest = sql.slice(lineStart)
  const lineEnd = rest.search(/\r\n|\r|\n/)
  const lineText = lineEnd === -1 ? rest : rest.slice(0, lineEnd)
  return { line, column: index - lineStart + 1, lineText }
}

/**
 * psql's `LINE n:` lines for an error position: the line, then a caret under the column. Tabs before
 * the column are kept in the caret's line so that it lines up however tabs are drawn.
 */
export function errorLocationLines(sql: string, position: number | undefined): [string, string] | undefined {
  const location = errorLocation(sql, position)
  if (!location) return undefined
  const prefix = `LINE ${location.line}: `
  const before = location.lineText.slice(0, location.column - 1).replace(/[^\t]/g, ' ')
  return [`${prefix}${location.lineText}`, `${' '.repeat(prefix.length)}${before}^`]
}
