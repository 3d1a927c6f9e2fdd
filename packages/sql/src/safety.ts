/**
 * The SQL panel's run gate (the API docs and assistant spec's validation rules): a query runs without
 * confirmation only if it starts with select, has no write keywords and calls no function
 * outside a short allowed list. Everything is decided on tokens, so words inside strings,
 * comments, dollar quotes and quoted identifiers never count.
 */
import { isPunctuation, isWord, significantTokens, tokenize, type Token } from './lexer.js'
import { identifierName, isIdentifierToken } from './identifiers.js'
import { BARE_FUNCTION_WORDS, RESERVED_KEYWORDS, SYNTAX_WORDS_BEFORE_PARENTHESIS } from './keywords.js'
import { splitTokenStatements } from './statements.js'

export const WRITE_OPERATION_WARNING = 'This query contains write operations.'
export const FUNCTION_CALL_WARNING = 'This query involves running a function.'
export const RUN_CONFIRMATION_QUESTION = 'Are you sure you want to execute it?'

/**
 * The spec's write keywords. As whole words only: created, inserted, updated, deleted and
 * truncated are ordinary words and do not count.
 */
export const WRITE_KEYWORDS = ['insert', 'update', 'delete', 'alter', 'drop', 'create', 'replace'] as const

/** The spec's allowed functions (`in` is listed there although `in (...)` is syntax). */
export const ALLOWED_FUNCTIONS = [
  'count', 'sum', 'avg', 'min', 'max', 'coalesce', 'nullif', 'length', 'lower', 'upper', 'trim',
  'substring', 'to_char', 'to_date', 'extract', 'date', 'date_trunc', 'string_agg', 'now', 'left', 'in',
] as const

/** Function words allowed without parentheses. */
export const ALLOWED_BARE_FUNCTIONS = ['current_timestamp', 'current_date'] as const

export type QueryWarningKind = 'hasWriteOperation' | 'hasUnknownFunctions'

export interface QueryWarning {
  kind: QueryWarningKind
  /** WRITE_OPERATION_WARNING or FUNCTION_CALL_WARNING. */
  message: string
  /** RUN_CONFIRMATION_QUESTION, shown after the message. */
  question: string
  /** Write keywords found, lower case, each once. */
  writeKeywords: string[]
  /** Statements that do not start with select, by their first word (or token). */
  nonSelectStatements: string[]
  /** Called functions outside the allowed list, as written (schema-qualified when so). */
  unknownFunctions: string[]
}

const WRITE_KEYWORD_SET: ReadonlySet<string> = new Set(WRITE_KEYWORDS)
const ALLOWED_FUNCTION_SET: ReadonlySet<string> = new Set(ALLOWED_FUNCTIONS)
const ALLOWED_BARE_SET: ReadonlySet<string> = new Set(ALLOWED_BARE_FUNCTIONS)
// A name right after these words is an object being named, not a call: `insert into t (a)`.
const NAMING_WORDS = ['into', 'table', 'references', 'function', 'procedure', 'view', 'type', 'domain', 'aggregate', 'trigger', 'exists', 'copy', 'only']
// In CREATE INDEX, the table after ON and the method after USING are names: `on public.t (a)`, `using btree (a)`.
const INDEX_NAMING_WORDS = ['on', 'using']

/**
 * Returns the warning to confirm before running `sql`, or null when it may run straight away.
 * Empty SQL gets null too: it is not run at all (see isEmptySql).
 */
export function getQueryWarning(sql: string): QueryWarning | null {
  const tokens = tokenize(sql)
  const writeKeywords = new Set<string>()
  const nonSelectStatements: string[] = []
  const unknownFunctions = new Set<string>()

  // "Starts with select" holds for each statement: `select 1; truncate t` must not slip through.
  for (const statement of splitTokenStatements(sql, tokens)) {
    const code = significantTokens(statement.tokens)
    if (!isWord(code[0], 'select')) nonSelectStatements.push(code[0]!.text.toLowerCase())
    const indexStatement = isWord(code[0], 'create') && (isWord(code[1], 'index') || (isWord(code[1], 'unique') && isWord(code[2], 'index')))
    code.forEach((token, i) => {
      const qualified = isPunctuation(code[i - 1], '.')
      if (token.kind === 'word' && !qualified && WRITE_KEYWORD_SET.has(token.text.toLowerCase())) {
        writeKeywords.add(token.text.toLowerCase())
      }
      const called = calledFunction(code, i, indexStatement)
      if (called !== undefined) unknownFunctions.add(called)
    })
  }

  const base = { question: RUN_CONFIRMATION_QUESTION, writeKeywords: [...writeKeywords], nonSelectStatements, unknownFunctions: [...unknownFunctions] }
  if (writeKeywords.size > 0 || nonSelectStatements.length > 0) {
    return { kind: 'hasWriteOperation', message: WRITE_OPERATION_WARNING, ...base }
  }
  if (unknownFunctions.size > 0) return { kind: 'hasUnknownFunctions', message: FUNCTION_CALL_WARNING, ...base }
  return null
}

// Non-reserved words after which an expression, and so a call, may follow: window frame bounds
// (`range f(x) preceding`), a tablesample method, CALL/EXECUTE/RETURN and the argument keywords
// of the XML and JSON constructors. Reserved words and SYNTAX_WORDS_BEFORE_PARENTHESIS count too.
const WORDS_BEFORE_EXPRESSION: ReadonlySet<string> = new Set([
  'range', 'groups', 'tablesample', 'call', 'execute', 'perform', 'return', 'document', 'content', 'value', 'key', 'passing', 'ref',
  'version', 'path',
])

/** Whether `previous` is a name (a quoted identifier, or a word no expression can follow). */
function followsName(previous: Token | undefined): boolean {
  if (previous?.kind === 'quoted-identifier') return true
  if (previous?.kind !== 'word') return false
  const word = previous.text.toLowerCase()
  return !RESERVED_KEYWORDS.has(word) && !SYNTAX_WORDS_BEFORE_PARENTHESIS.has(word) && !WORDS_BEFORE_EXPRESSION.has(word)
}

/**
 * Whether the `)` at `code[close]` ends DISTINCT ON (...) or OPERATOR(schema.op), after which an
 * expression follows (rather than an alias's column list).
 */
function closesBeforeExpression(code: readonly Token[], close: number): boolean {
  let depth = 0
  for (let i = close; i >= 0; i--) {
    if (isPunctuation(code[i], ')')) depth++
    else if (isPunctuation(code[i], '(') && --depth === 0) {
      return isWord(code[i - 1], 'operator') || (isWord(code[i - 1], 'on') && isWord(code[i - 2], 'distinct'))
    }
  }
  return false
}

/** The name of the disallowed function called at `code[i]`, if one is. */
function calledFunction(code: readonly Token[], i: number, indexStatement: boolean): string | undefined {
  const token = code[i]!
  const previous = code[i - 1]
  const qualified = isPunctuation(previous, '.')
  const name = identifierName(token)
  if (name === undefined) return undefined

  if (token.kind === 'word' && !qualified && BARE_FUNCTION_WORDS.has(name)) {
    return ALLOWED_BARE_SET.has(name) ? undefined : name
  }
  if (!isPunctuation(code[i + 1], '(')) return undefined
  if (token.kind === 'word' && !qualified && (RESERVED_KEYWORDS.has(name) || SYNTAX_WORDS_BEFORE_PARENTHESIS.has(name))) return undefined
  // `x::numeric(10, 2)` and `cast(x as varchar(20))` name types; `as t(a, b)` and
  // `generate_series(1, 3) g(n)` name columns of an alias.
  if (previous?.kind === 'operator' && previous.text === '::') return undefined
  if (isWord(previous, 'as', ...NAMING_WORDS)) return undefined
  // `primary key (a, b)`, `foreign key (a)`: the key's columns.
  if (token.kind === 'word' && name === 'key' && isWord(previous, 'primary', 'foreign')) return undefined
  if (indexStatement && (isWord(previous, ...INDEX_NAMING_WORDS) || (qualified && isWord(code[i - 3], ...INDEX_NAMING_WORDS)))) return undefined
  // The same with the name schema-qualified: `create table public.t (...)`, `insert into public.t (a)`.
  if (qualified && isWord(code[i - 3], ...NAMING_WORDS)) return undefined
  // After a `)` a name opens an alias's column list (`generate_series(1, 3) g(n)`), except after
  // DISTINCT ON (...) or OPERATOR(...): `select distinct on (a) pg_sleep(1)` calls pg_sleep.
  if (isPunctuation(previous, ')') && !closesBeforeExpression(code, i - 1)) return undefined
  // A name right after another name is an alias with column names (`from t x(a, b)`) or a type
  // with a modifier (`character varying(20)`), not a call (the run gate counts only calls).
  if (followsName(previous)) return undefined

  if (qualified) {
    const schemaToken = code[i - 2]
    const schema = isIdentifierToken(schemaToken) ? identifierName(schemaToken) : undefined
    // pg_catalog.count(...) is the built-in; any other schema's count is someone's function.
    if (schema === 'pg_catalog' && ALLOWED_FUNCTION_SET.has(name)) return undefined
    return `${schemaToken?.text ?? ''}.${token.text}`
  }
  return ALLOWED_FUNCTION_SET.has(name) ? undefined : token.text
}
