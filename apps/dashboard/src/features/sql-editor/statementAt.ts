import { parseParameters, splitStatementsByLexer, tokenize, type SqlStatement } from '@stratum/sql'

/** What a run sends: the SQL and where it starts in the editor's text (error positions are marked from it). */
export interface StatementRunnable {
  sql: string
  offset: number
}

/**
 * The statement under the cursor (`offset`, 0-based in `text`), split as the server splits (strings, dollar
 * quotes, comments and BEGIN ATOMIC bodies respected). A cursor on a statement, or right after its `;`, picks
 * it; a cursor between statements picks the one before (the one just written), or the first one after when
 * none comes before. Null when the text holds no statement.
 */
export function statementAt(text: string, offset: number): SqlStatement | null {
  return pickStatement(splitStatementsByLexer(text), offset)
}

/** `statementAt` over statements already split (in text order). */
export function pickStatement(statements: SqlStatement[], offset: number): SqlStatement | null {
  let before: SqlStatement | null = null
  for (const statement of statements) {
    // `end` excludes the semicolon: a cursor just past it still belongs to the statement.
    if (offset >= statement.start && offset <= statement.end + 1) return statement
    if (statement.end < offset) before = statement
    else return before ?? statement
  }
  return before
}

/**
 * The statement under the cursor as a run: its text from the editor, and its offset. A statement using
 * `:name` parameters gets the text's `@set` declarations in front (they are read from the run's own SQL);
 * the offset stays the statement's own, since substituting the parameters removes those lines again before
 * the SQL is sent (positions past a parameter shift by its value's length, as in any run with parameters).
 */
export function statementRunnable(text: string, offset: number): StatementRunnable | null {
  const statement = statementAt(text, offset)
  if (!statement) return null
  if (parseParameters(statement.text).length === 0) return { sql: statement.text, offset: statement.start }
  const directives = tokenize(text)
    .filter((token) => token.kind === 'directive')
    .map((token) => token.text.trimEnd())
  if (directives.length === 0) return { sql: statement.text, offset: statement.start }
  const prefix = `${directives.join('\n')}\n`
  return { sql: prefix + statement.text, offset: statement.start }
}
