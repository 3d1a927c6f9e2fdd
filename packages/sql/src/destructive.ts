/**
 * Destructive patterns (the SQL editor spec's validation rules): delete, drop, truncate, alter table ... drop
 * column, and an update without a where clause. Found on tokens, so text in strings,
 * comments, quoted identifiers and function bodies never matches, with one exception: the body
 * of a DO block runs right away, so its statements are examined too.
 */
import { isPunctuation, isWord, significantTokens, tokenize, type Token } from './lexer.js'
import { isIdentifierToken } from './identifiers.js'
import { splitTokenStatements } from './statements.js'

export type DestructiveKind = 'delete' | 'drop' | 'truncate' | 'alter-table-drop-column' | 'update-without-where'

export interface DestructiveOperation {
  kind: DestructiveKind
  /** Index of the statement (as splitStatementsByLexer counts them). */
  statementIndex: number
  /** UTF-16 offsets of the keyword that starts the operation (inside a DO block: of the block). */
  start: number
  end: number
  /**
   * The command, in upper case, as a warning names it: DELETE, DROP TABLE (DROP and the kind of object),
   * TRUNCATE, ALTER TABLE ... DROP COLUMN, UPDATE.
   */
  command: string
  /** What it acts on, as written (schema-qualified, quoted): the table, or the objects a DROP removes. Empty when not found. */
  targets: string[]
  /** ALTER TABLE ... DROP COLUMN: the column dropped. */
  column?: string
  /** DELETE: no WHERE limits it, so every row goes (MERGE's THEN DELETE is limited by its match). */
  everyRow?: boolean
}

// In ALTER TABLE, `drop` followed by one of these drops something other than a column
// (ALTER COLUMN c DROP DEFAULT | NOT NULL | EXPRESSION | IDENTITY, DROP CONSTRAINT c).
const NOT_A_COLUMN_AFTER_DROP = ['constraint', 'default', 'not', 'expression', 'identity']
// In a PL/pgSQL body a command may follow these block words as well as a semicolon.
const PLPGSQL_COMMAND_PREFIXES = ['begin', 'then', 'else', 'loop']

export function findDestructiveOperations(sql: string): DestructiveOperation[] {
  const found: DestructiveOperation[] = []
  splitTokenStatements(sql, tokenize(sql)).forEach((statement, statementIndex) => {
    const code = significantTokens(statement.tokens)
    for (const { token, ...what } of scanStatement(code, false)) {
      found.push({ ...what, statementIndex, start: token.start, end: token.end })
    }
    const body = doBlockBody(code)
    if (body) {
      const doKeyword = code[0]!
      for (const { token: _inBody, ...what } of scanBody(body)) found.push({ ...what, statementIndex, start: doKeyword.start, end: doKeyword.end })
    }
  })
  return found
}

/** True when the SQL holds a delete, drop, truncate or alter table drop column. */
export function isDestructiveSql(sql: string): boolean {
  return findDestructiveOperations(sql).some((operation) => operation.kind !== 'update-without-where')
}

/** True when the SQL updates rows without a where clause. */
export function hasUpdateWithoutWhere(sql: string): boolean {
  return findDestructiveOperations(sql).some((operation) => operation.kind === 'update-without-where')
}

type Finding = Omit<DestructiveOperation, 'statementIndex' | 'start' | 'end'> & { token: Token }

function scanBody(body: string): Finding[] {
  return splitTokenStatements(body, tokenize(body)).flatMap((statement) => scanStatement(significantTokens(statement.tokens), true))
}

function scanStatement(code: readonly Token[], plpgsql: boolean): Finding[] {
  const findings: Finding[] = []
  code.forEach((token, i) => {
    if (token.kind !== 'word' || isPunctuation(code[i - 1], '.')) return
    const word = token.text.toLowerCase()
    const atCommandStart = i === 0 || (plpgsql && isWord(code[i - 1], ...PLPGSQL_COMMAND_PREFIXES))
    if (word === 'delete' && (isWord(code[i + 1], 'from') || isWord(code[i - 1], 'then')) && !namesColumn(code, i)) {
      // DELETE FROM is the only spelling of the command; MERGE spells its action WHEN ... THEN DELETE.
      // Other deletes are privileges or events: GRANT DELETE ON, ON DELETE CASCADE, FOR DELETE.
      if (isWord(code[i + 1], 'from')) {
        const table = readName(code, skipWords(code, i + 2, 'only'))
        findings.push({ kind: 'delete', token, command: 'DELETE', targets: table.name ? [table.name] : [], everyRow: !hasWhereAtSameDepth(code, i) })
      } else {
        const into = code.findIndex((t, k) => k < i && isWord(t, 'into') && isWord(code[k - 1], 'merge'))
        const table = into >= 0 ? readName(code, skipWords(code, into + 1, 'only')) : { name: undefined }
        findings.push({ kind: 'delete', token, command: 'DELETE', targets: table.name ? [table.name] : [], everyRow: false })
      }
    } else if (word === 'drop' && atCommandStart) {
      findings.push({ kind: 'drop', token, ...dropped(code, i + 1) })
    } else if (word === 'truncate' && atCommandStart) {
      findings.push({ kind: 'truncate', token, command: 'TRUNCATE', targets: nameList(code, skipWords(code, i + 1, 'table'), ['only']) })
    } else if (word === 'alter' && atCommandStart && isWord(code[i + 1], 'table')) {
      const drop = findAlterTableDropColumn(code, i + 2)
      if (drop !== undefined) {
        const table = readName(code, skipWords(code, i + 2, 'if', 'exists', 'only'))
        const column = code[skipWords(code, drop + 1, 'column', 'if', 'exists')]
        findings.push({
          kind: 'alter-table-drop-column',
          token: code[drop]!,
          command: 'ALTER TABLE ... DROP COLUMN',
          targets: table.name ? [table.name] : [],
          ...(isIdentifierToken(column) ? { column: column!.text } : {}),
        })
      }
    } else if (word === 'update') {
      const set = updateSetIndex(code, i)
      if (set !== undefined && !hasWhereAtSameDepth(code, set)) {
        const table = readName(code, skipWords(code, i + 1, 'only'))
        findings.push({ kind: 'update-without-where', token, command: 'UPDATE', targets: table.name ? [table.name] : [] })
      }
    }
  })
  return findings
}

/** The index of the first token from `from` on that is not one of `words`. */
function skipWords(code: readonly Token[], from: number, ...words: string[]): number {
  let j = from
  while (isWord(code[j], ...words)) j++
  return j
}

/** A possibly qualified name (`a`, `s.a`, `"S"."A"`) as written, and the index after it. */
function readName(code: readonly Token[], from: number): { name?: string; next: number } {
  if (!isIdentifierToken(code[from])) return { next: from }
  let name = code[from]!.text
  let j = from + 1
  while (isPunctuation(code[j], '.') && isIdentifierToken(code[j + 1])) {
    name += `.${code[j + 1]!.text}`
    j += 2
  }
  return { name, next: j }
}

/** `name [(args)] [*], name ...`: the names of a comma-separated list (ONLY and other `skip` words before each ignored). */
function nameList(code: readonly Token[], from: number, skip: string[] = []): string[] {
  const names: string[] = []
  let j = from
  for (;;) {
    const { name, next } = readName(code, skipWords(code, j, ...skip))
    if (!name) return names
    names.push(name)
    j = next
    if (isPunctuation(code[j], '(')) j = afterParentheses(code, j)
    if (code[j]?.kind === 'operator' && code[j]!.text === '*') j++
    if (!isPunctuation(code[j], ',')) return names
    j++
  }
}

function afterParentheses(code: readonly Token[], open: number): number {
  let depth = 0
  for (let j = open; j < code.length; j++) {
    if (isPunctuation(code[j], '(')) depth++
    else if (isPunctuation(code[j], ')') && --depth === 0) return j + 1
  }
  return code.length
}

// The words that name what DROP removes: DROP TABLE, DROP MATERIALIZED VIEW, DROP FOREIGN DATA WRAPPER, DROP OWNED BY...
const DROP_OBJECT_WORDS = [
  'access', 'aggregate', 'by', 'cast', 'collation', 'configuration', 'conversion', 'data', 'database', 'dictionary', 'domain', 'event',
  'extension', 'foreign', 'function', 'group', 'index', 'language', 'materialized', 'method', 'operator', 'owned', 'parser', 'policy',
  'procedure', 'publication', 'role', 'routine', 'rule', 'schema', 'search', 'sequence', 'server', 'statistics', 'subscription', 'table',
  'tablespace', 'template', 'text', 'transform', 'trigger', 'type', 'user', 'view', 'wrapper', 'class', 'family', 'mapping', 'for',
]

function dropped(code: readonly Token[], from: number): { command: string; targets: string[] } {
  const kind: string[] = []
  let j = from
  while (isWord(code[j], ...DROP_OBJECT_WORDS) && !(kind.length > 0 && isPunctuation(code[j + 1], '.'))) kind.push(code[j++]!.text.toUpperCase())
  // DROP INDEX CONCURRENTLY, DROP ... IF EXISTS
  const targets = nameList(code, skipWords(code, j, 'concurrently', 'if', 'exists'))
  // A name that is one of those words (drop table data): the last word was the name.
  if (!targets.length && kind.length > 1) return { command: ['DROP', ...kind.slice(0, -1)].join(' '), targets: nameList(code, j - 1) }
  return { command: ['DROP', ...kind].join(' '), targets }
}

/**
 * DELETE is a non-reserved keyword, so `select delete from t` and `select a as delete from t`
 * select a column named delete: a select list item (after SELECT, DISTINCT, ALL or a comma) or an
 * alias (after AS, except in PREPARE name AS DELETE ...) is no delete statement.
 */
function namesColumn(code: readonly Token[], i: number): boolean {
  const previous = code[i - 1]
  if (isPunctuation(previous, ',') || isWord(previous, 'select', 'distinct', 'all')) return true
  return isWord(previous, 'as') && !isWord(code[0], 'prepare')
}

/** The index of the DROP of a column in an ALTER TABLE. */
function findAlterTableDropColumn(code: readonly Token[], from: number): number | undefined {
  let depth = 0
  for (let i = from; i < code.length; i++) {
    const token = code[i]!
    if (isPunctuation(token, '(')) depth++
    else if (isPunctuation(token, ')')) depth--
    else if (depth === 0 && isWord(token, 'drop')) {
      const next = code[i + 1]
      // DROP [COLUMN] [IF EXISTS] name: the COLUMN keyword is optional.
      if (next && isIdentifierToken(next) && !isWord(next, ...NOT_A_COLUMN_AFTER_DROP)) return i
    }
  }
  return undefined
}

/**
 * When `code[i]` is the UPDATE command (`update [only] name [*] [[as] alias] set`), returns the
 * index of its SET. FOR UPDATE, ON UPDATE, GRANT UPDATE ON, BEFORE UPDATE OF and the upsert's
 * DO UPDATE SET (which touches only conflicting rows) do not have that shape.
 */
function updateSetIndex(code: readonly Token[], i: number): number | undefined {
  let j = i + 1
  if (isWord(code[j], 'only')) j++
  if (!isIdentifierToken(code[j]) || isWord(code[j], 'set')) return undefined
  j++
  while (isPunctuation(code[j], '.') && isIdentifierToken(code[j + 1])) j += 2
  if (code[j]?.kind === 'operator' && code[j]!.text === '*') j++
  if (isWord(code[j], 'as')) j++
  if (isIdentifierToken(code[j]) && !isWord(code[j], 'set')) j++
  return isWord(code[j], 'set') ? j : undefined
}

/** Whether a WHERE follows at the same depth before the command ends (`;` or its closing paren). */
function hasWhereAtSameDepth(code: readonly Token[], from: number): boolean {
  let depth = 0
  for (let i = from + 1; i < code.length; i++) {
    const token = code[i]!
    if (isPunctuation(token, '(')) depth++
    else if (isPunctuation(token, ')')) {
      if (--depth < 0) return false
    } else if (depth === 0 && isWord(token, 'where')) return true
  }
  return false
}

/** The source of a DO block's body, which the server runs at once. */
function doBlockBody(code: readonly Token[]): string | undefined {
  if (!isWord(code[0], 'do')) return undefined
  const literal = code.find((token) => token.kind === 'dollar-string' || token.kind === 'string')
  if (!literal) return undefined
  if (literal.kind === 'dollar-string') {
    const delimiter = literal.text.slice(0, literal.text.indexOf('$', 1) + 1)
    const end = literal.unterminated ? literal.text.length : literal.text.length - delimiter.length
    return literal.text.slice(delimiter.length, end)
  }
  const opening = literal.text.indexOf("'")
  const isEscape = /^[eE]/.test(literal.text)
  const inner = literal.text.slice(opening + 1, literal.unterminated ? undefined : -1).replaceAll("''", "'")
  return isEscape ? inner.replace(/\\(.)/g, '$1') : inner
}
