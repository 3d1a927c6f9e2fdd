/**
 * A tolerant, synchronous SQL tokenizer.
 *
 * The real Postgres parser (see parser.ts) decides statement boundaries for valid SQL, but it
 * rejects what the editor routinely holds: half-typed statements, `:name` parameters and
 * `@set` directives. Every rule in this package therefore works on these tokens, which never
 * throw: an unterminated string, comment or dollar quote simply runs to the end of the input
 * and is flagged `unterminated`. Token offsets are UTF-16 indices into the input, so the editor
 * can use them directly.
 *
 * The Postgres dialect follows the server's scanner (scan.l): E'' strings with backslash
 * escapes, standard_conforming_strings, nested block comments, $tag$ dollar quotes, U&"" and
 * "" identifiers. The BigQuery dialect exists for the log explorer's queries, where double
 * quotes delimit strings, backticks delimit identifiers and `#` starts a comment.
 */

export type TokenKind =
  | 'whitespace'
  | 'line-comment'
  | 'block-comment'
  /** An unquoted identifier or keyword. */
  | 'word'
  | 'quoted-identifier'
  | 'string'
  | 'dollar-string'
  | 'number'
  /** A named parameter `:name` (not valid SQL; substituted before running). */
  | 'parameter'
  /** A positional parameter `$1`. */
  | 'positional-parameter'
  | 'operator'
  /** One of ( ) [ ] , ; . and a lone `:` (array slices). */
  | 'punctuation'
  /** A parameter declaration line `@set name:type = value`. */
  | 'directive'
  | 'unknown'

export interface Token {
  kind: TokenKind
  /** The token's source text, exactly as written. */
  text: string
  /** UTF-16 offset of the first character. */
  start: number
  /** UTF-16 offset just past the last character. */
  end: number
  /** Set on strings, identifiers, comments and dollar quotes that reach the end of input unclosed. */
  unterminated?: boolean
}

export type SqlDialect = 'postgres' | 'bigquery'

export interface LexerOptions {
  dialect?: SqlDialect
  /**
   * Postgres' standard_conforming_strings (on by default since 9.1). When off, a backslash
   * escapes the next character in plain '' strings too, so `'it\'s'` is one string.
   */
  standardConformingStrings?: boolean
}

const PG_WHITESPACE = new Set([' ', '\t', '\n', '\r', '\f', '\v'])
// Characters that may form a Postgres operator (scan.l `op_chars`).
const OPERATOR_CHARS = new Set(['+', '-', '*', '/', '<', '>', '=', '~', '!', '@', '#', '%', '^', '&', '|', '`', '?'])
const PUNCTUATION = new Set(['(', ')', '[', ']', ',', ';', '.'])
const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y
const NUMBER =
  /0[xX][0-9A-Fa-f_]*|0[oO][0-7_]*|0[bB][01_]*|\d[\d_]*(?:\.(?!\.)[\d_]*)?(?:[eE][+-]?\d+)?|\.\d[\d_]*(?:[eE][+-]?\d+)?/y
const PARAMETER_NAME = /[A-Za-z_][A-Za-z0-9_]*/y
const DIRECTIVE_START = /@set\s/y

export function isIdentifierStart(ch: string | undefined): boolean {
  if (ch === undefined) return false
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch === '_' || ch.charCodeAt(0) >= 0x80
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9'
}

function isIdentifierPart(ch: string | undefined, dialect: SqlDialect): boolean {
  return isIdentifierStart(ch) || isDigit(ch) || (ch === '$' && dialect === 'postgres')
}

export function tokenize(sql: string, options: LexerOptions = {}): Token[] {
  return new Lexer(sql, options).run()
}

class Lexer {
  private readonly tokens: Token[] = []
  private pos = 0
  private readonly dialect: SqlDialect
  private readonly standardStrings: boolean

  constructor(
    private readonly sql: string,
    options: LexerOptions,
  ) {
    this.dialect = options.dialect ?? 'postgres'
    this.standardStrings = options.standardConformingStrings ?? true
  }

  run(): Token[] {
    while (this.pos < this.sql.length) this.next()
    return this.tokens
  }

  private push(kind: TokenKind, end: number, unterminated = false): void {
    const token: Token = { kind, text: this.sql.slice(this.pos, end), start: this.pos, end }
    if (unterminated) token.unterminated = true
    this.tokens.push(token)
    this.pos = end
  }

  private next(): void {
    const { sql, pos } = this
    const ch = sql[pos] as string
    const next = sql[pos + 1]
    const bq = this.dialect === 'bigquery'

    if (PG_WHITESPACE.has(ch)) {
      let end = pos + 1
      while (end < sql.length && PG_WHITESPACE.has(sql[end] as string)) end++
      return this.push('whitespace', end)
    }
    if ((ch === '-' && next === '-') || (bq && ch === '#')) return this.lineComment()
    if (ch === '/' && next === '*') return this.blockComment()
    if (ch === '@' && !bq && this.atLineStart() && matchAt(DIRECTIVE_START, sql, pos)) return this.directive()

    if (bq) {
      if (ch === "'" || ch === '"') return this.bigQueryString(pos, ch)
      if (ch === '`') return this.quoted(pos + 1, '`', 'quoted-identifier', true)
      if ((ch === 'r' || ch === 'R' || ch === 'b' || ch === 'B') && (next === "'" || next === '"')) {
        return this.bigQueryString(pos + 1, next)
      }
    } else {
      if (ch === "'") return this.quoted(pos + 1, "'", 'string', !this.standardStrings)
      if (ch === '"') return this.quoted(pos + 1, '"', 'quoted-identifier', false)
      // Prefixed literals are only prefixes at a token start: in `nE'x'` the scanner reads the
      // identifier `nE` and then a plain string, which is what falling through to words gives.
      if (next === "'" && (ch === 'e' || ch === 'E')) return this.quoted(pos + 2, "'", 'string', true)
      if (next === "'" && 'bBxX'.includes(ch)) return this.quoted(pos + 2, "'", 'string', false)
      if (next === "'" && (ch === 'n' || ch === 'N')) return this.quoted(pos + 2, "'", 'string', !this.standardStrings)
      if ((ch === 'u' || ch === 'U') && next === '&') {
        const quote = sql[pos + 2]
        if (quote === "'") return this.quoted(pos + 3, "'", 'string', false)
        if (quote === '"') return this.quoted(pos + 3, '"', 'quoted-identifier', false)
      }
      if (ch === '$') return this.dollar()
    }

    if (isIdentifierStart(ch)) {
      let end = pos + 1
      while (end < sql.length && isIdentifierPart(sql[end], this.dialect)) end++
      return this.push('word', end)
    }
    if (isDigit(ch) || (ch === '.' && isDigit(next))) {
      NUMBER.lastIndex = pos
      NUMBER.test(sql)
      return this.push('number', Math.max(NUMBER.lastIndex, pos + 1))
    }
    if (ch === ':') return this.colon()
    if (PUNCTUATION.has(ch)) return this.push('punctuation', pos + 1)
    if (OPERATOR_CHARS.has(ch)) return this.operator()
    return this.push('unknown', pos + 1)
  }

  private lineComment(): void {
    let end = this.pos
    while (end < this.sql.length && this.sql[end] !== '\n' && this.sql[end] !== '\r') end++
    this.push('line-comment', end)
  }

  private blockComment(): void {
    // Postgres nests block comments; BigQuery (like most dialects) does not.
    const nested = this.dialect === 'postgres'
    let depth = 1
    let i = this.pos + 2
    while (i < this.sql.length) {
      if (nested && this.sql[i] === '/' && this.sql[i + 1] === '*') {
        depth++
        i += 2
      } else if (this.sql[i] === '*' && this.sql[i + 1] === '/') {
        depth--
        i += 2
        if (depth === 0) return this.push('block-comment', i)
      } else {
        i++
      }
    }
    this.push('block-comment', this.sql.length, true)
  }

  /** Reads a literal from `from` (just past the opening quote) to its closing `quote`. */
  private quoted(from: number, quote: string, kind: TokenKind, backslashEscapes: boolean): void {
    let i = from
    while (i < this.sql.length) {
      const ch = this.sql[i]
      if (backslashEscapes && ch === '\\') {
        i += 2
      } else if (ch === quote) {
        // A doubled quote is an escaped quote inside the literal.
        if (this.sql[i + 1] === quote && quote !== '`') i += 2
        else return this.push(kind, i + 1)
      } else {
        i++
      }
    }
    this.push(kind, this.sql.length, true)
  }

  private bigQueryString(quoteAt: number, quote: string): void {
    const triple = quote.repeat(3)
    if (this.sql.startsWith(triple, quoteAt)) {
      let i = quoteAt + 3
      while (i < this.sql.length) {
        if (this.sql[i] === '\\') i += 2
        else if (this.sql.startsWith(triple, i)) return this.push('string', i + 3)
        else i++
      }
      return this.push('string', this.sql.length, true)
    }
    this.quoted(quoteAt + 1, quote, 'string', true)
  }

  private dollar(): void {
    const { sql, pos } = this
    if (isDigit(sql[pos + 1])) {
      let end = pos + 1
      while (isDigit(sql[end])) end++
      return this.push('positional-parameter', end)
    }
    DOLLAR_TAG.lastIndex = pos
    const match = DOLLAR_TAG.exec(sql)
    if (!match) return this.push('unknown', pos + 1)
    const delimiter = match[0]
    const close = sql.indexOf(delimiter, pos + delimiter.length)
    if (close === -1) return this.push('dollar-string', sql.length, true)
    this.push('dollar-string', close + delimiter.length)
  }

  private colon(): void {
    const { sql, pos } = this
    const next = sql[pos + 1]
    if (next === ':' || next === '=') return this.push('operator', pos + 2)
    // `:name` is a parameter unless the colon sits right after a value, as in the array slice
    // `arr[lo:hi]` or `arr[1:n]`; a parameter is always preceded by whitespace or an operator.
    const before = sql[pos - 1]
    const afterValue = isIdentifierPart(before, this.dialect) || before === ']' || before === ')' || before === '"' || before === "'"
    if (isIdentifierStart(next) && next!.charCodeAt(0) < 0x80 && !afterValue) {
      PARAMETER_NAME.lastIndex = pos + 1
      PARAMETER_NAME.test(sql)
      return this.push('parameter', PARAMETER_NAME.lastIndex)
    }
    this.push('punctuation', pos + 1)
  }

  private operator(): void {
    const { sql, pos } = this
    let end = pos + 1
    while (end < sql.length && OPERATOR_CHARS.has(sql[end] as string)) {
      // As in the server's scanner, `--` or `/*` inside an operator starts a comment.
      const pair = sql.slice(end, end + 2)
      if (pair === '--' || pair === '/*') break
      end++
    }
    this.push('operator', end)
  }

  private directive(): void {
    let end = this.pos
    while (end < this.sql.length && !'\n\r;'.includes(this.sql[end] as string)) end++
    this.push('directive', end)
  }

  private atLineStart(): boolean {
    for (let i = this.pos - 1; i >= 0; i--) {
      const ch = this.sql[i]
      if (ch === '\n' || ch === '\r') return true
      if (ch !== ' ' && ch !== '\t') return false
    }
    return true
  }
}

function matchAt(pattern: RegExp, text: string, at: number): boolean {
  pattern.lastIndex = at
  return pattern.test(text)
}

export function isComment(token: Token): boolean {
  return token.kind === 'line-comment' || token.kind === 'block-comment'
}

/** Whitespace, comments and directives: tokens that carry no SQL meaning. */
export function isTrivia(token: Token): boolean {
  return token.kind === 'whitespace' || token.kind === 'directive' || isComment(token)
}

/** The tokens that carry SQL meaning. */
export function significantTokens(tokens: readonly Token[]): Token[] {
  return tokens.filter((token) => !isTrivia(token))
}

/** True for an unquoted word spelling `word` (case-insensitively, as Postgres folds it). */
export function isWord(token: Token | undefined, ...words: string[]): boolean {
  return token?.kind === 'word' && words.includes(token.text.toLowerCase())
}

export function isPunctuation(token: Token | undefined, text: string): boolean {
  return token?.kind === 'punctuation' && token.text === text
}
