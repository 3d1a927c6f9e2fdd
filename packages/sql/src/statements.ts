/**
 * Statement splitting on tokens, for SQL the real parser cannot take (half-typed text,
 * `:name` parameters) and for the synchronous rules of this package.
 *
 * It follows psql's splitting rules, which match the server's grammar for valid SQL: a `;`
 * ends a statement only outside parentheses (CREATE RULE ... DO (a; b) keeps its actions) and
 * outside the BEGIN ATOMIC ... END body of a SQL-standard function, which psql recognises by
 * the statement opening with CREATE [OR REPLACE] FUNCTION|PROCEDURE.
 */
import { isPunctuation, isTrivia, tokenize, type LexerOptions, type Token } from './lexer.js'

export interface SqlStatement {
  /** The statement's source text: no surrounding whitespace, no terminating semicolon. */
  text: string
  /** UTF-16 offset of the statement's first character in the input. */
  start: number
  /** UTF-16 offset just past its last character. */
  end: number
}

/** A statement with the tokens inside its span (comments included, edge whitespace excluded). */
export interface TokenStatement extends SqlStatement {
  tokens: Token[]
}

export function splitStatementsByLexer(sql: string, options?: LexerOptions): SqlStatement[] {
  return splitTokenStatements(sql, tokenize(sql, options)).map(({ text, start, end }) => ({ text, start, end }))
}

export function splitTokenStatements(sql: string, tokens: readonly Token[]): TokenStatement[] {
  const statements: TokenStatement[] = []
  let segment: Token[] = []
  const tracker = new BoundaryTracker()
  for (const token of tokens) {
    if (isPunctuation(token, ';') && tracker.atTopLevel()) {
      pushStatement(sql, segment, statements)
      segment = []
      tracker.reset()
      continue
    }
    tracker.see(token)
    segment.push(token)
  }
  pushStatement(sql, segment, statements)
  return statements
}

function pushStatement(sql: string, segment: Token[], statements: TokenStatement[]): void {
  // A segment of only whitespace, comments and directives is no statement (the server agrees:
  // `select 1; -- done` holds one statement).
  if (!segment.some((token) => !isTrivia(token))) return
  const isEdge = (token: Token) => token.kind === 'whitespace' || token.kind === 'directive'
  let first = 0
  while (isEdge(segment[first]!)) first++
  let last = segment.length - 1
  while (isEdge(segment[last]!)) last--
  const tokens = segment.slice(first, last + 1)
  const start = tokens[0]!.start
  const end = tokens[tokens.length - 1]!.end
  statements.push({ text: sql.slice(start, end), start, end, tokens })
}

/** Tracks parenthesis depth and psql's BEGIN ATOMIC heuristic for one statement. */
class BoundaryTracker {
  private parenDepth = 0
  private beginDepth = 0
  private leadingWords: string[] = []

  atTopLevel(): boolean {
    return this.parenDepth === 0 && this.beginDepth === 0
  }

  reset(): void {
    this.parenDepth = 0
    this.beginDepth = 0
    this.leadingWords = []
  }

  see(token: Token): void {
    if (isPunctuation(token, '(')) this.parenDepth++
    // A stray `)` must not push later semicolons into a negative, never-closing depth.
    else if (isPunctuation(token, ')')) this.parenDepth = Math.max(0, this.parenDepth - 1)
    else if (token.kind === 'word') this.seeWord(token.text.toLowerCase())
  }

  private seeWord(word: string): void {
    if (this.leadingWords.length < 4) this.leadingWords.push(word)
    if (!this.definesRoutine() || this.parenDepth > 0) return
    if (word === 'begin') this.beginDepth++
    // CASE also closes with END; it only matters once inside a BEGIN block.
    else if (word === 'case' && this.beginDepth > 0) this.beginDepth++
    else if (word === 'end' && this.beginDepth > 0) this.beginDepth--
  }

  private definesRoutine(): boolean {
    const [w0, w1, w2, w3] = this.leadingWords
    const routine = (w?: string) => w === 'function' || w === 'procedure'
    return w0 === 'create' && (routine(w1) || (w1 === 'or' && w2 === 'replace' && routine(w3)))
  }
}

/** True when the SQL holds no statement at all (only whitespace, comments or directives). */
export function isEmptySql(sql: string, options?: LexerOptions): boolean {
  return tokenize(sql, options).every(isTrivia)
}
