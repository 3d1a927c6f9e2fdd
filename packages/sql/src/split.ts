/**
 * Statement splitting for running and marking errors: the real Postgres grammar decides the
 * boundaries; the lexer takes over for SQL the grammar rejects, so the editor always gets
 * statements with offsets, plus the syntax error's position when there is one.
 */
import { tokenize, type LexerOptions, type Token } from './lexer.js'
import { DEFAULT_PARSER_POSTGRES_VERSION, parseSql, type ParserPostgresVersion, type SqlSyntaxError } from './parser.js'
import { splitTokenStatements, type SqlStatement } from './statements.js'

export interface SplitOptions extends Pick<LexerOptions, 'standardConformingStrings'> {
  /** The project's Postgres major, whose grammar decides validity. Default 17. */
  postgresVersion?: ParserPostgresVersion
}

export interface SplitStatement extends SqlStatement {
  /** The parse node type (SelectStmt, DeleteStmt, ...) when the parser accepted the SQL. */
  nodeType?: string
}

export interface SplitResult {
  statements: SplitStatement[]
  /** 'parser' when the real grammar accepted the SQL; 'lexer' when it rejected it or could not load. */
  source: 'parser' | 'lexer'
  /** The parser's syntax error, with the index of the statement that holds it. */
  error?: SqlSyntaxError & { statementIndex: number }
}

const WHITESPACE = /[ \t\n\r\f\v]/

export async function splitSqlStatements(sql: string, options: SplitOptions = {}): Promise<SplitResult> {
  const tokens = tokenize(sql, options)
  const byLexer = (): SplitStatement[] => splitTokenStatements(sql, tokens).map(({ text, start, end }) => ({ text, start, end }))
  // The parser always reads with standard_conforming_strings on: with it off, `'a\'; b'` is one
  // string to the server but two statements to the parser, so only the lexer can be trusted.
  if (options.standardConformingStrings === false || tokens.every((token) => token.kind === 'whitespace')) {
    return { statements: byLexer(), source: 'lexer' }
  }

  const masked = maskForParser(sql, tokens)
  let outcome
  try {
    outcome = await parseSql(masked, options.postgresVersion ?? DEFAULT_PARSER_POSTGRES_VERSION)
  } catch {
    return { statements: byLexer(), source: 'lexer' }
  }
  if (!outcome.ok) {
    const statements = byLexer()
    return { statements, source: 'lexer', error: { ...outcome.error, statementIndex: statementAt(statements, outcome.error.position) } }
  }
  const statements = outcome.spans.map(({ start, end, nodeType }) => {
    while (start < end && WHITESPACE.test(masked[start]!)) start++
    while (end > start && WHITESPACE.test(masked[end - 1]!)) end--
    return { text: sql.slice(start, end), start, end, nodeType }
  })
  return { statements, source: 'parser' }
}

/**
 * Rewrites what only this editor understands into valid SQL of the same UTF-16 length, so the
 * parser's offsets stay valid for the original text: `:name` becomes the identifier `_name`
 * (valid wherever a value, column or table name is) and `@set` lines become spaces.
 */
export function maskForParser(sql: string, tokens: readonly Token[]): string {
  let out = ''
  let at = 0
  for (const token of tokens) {
    if (token.kind === 'parameter') {
      out += sql.slice(at, token.start) + '_' + token.text.slice(1)
      at = token.end
    } else if (token.kind === 'directive') {
      out += sql.slice(at, token.start) + ' '.repeat(token.text.length)
      at = token.end
    }
  }
  return out + sql.slice(at)
}

/** The statement holding `position`: the last one starting at or before it. */
function statementAt(statements: readonly SqlStatement[], position: number): number {
  let index = -1
  statements.forEach((statement, i) => {
    if (statement.start <= position) index = i
  })
  return Math.max(index, 0)
}
