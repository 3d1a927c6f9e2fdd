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
    for (const { kind, token } of scanStatement(code, false)) {
      found.push({ kind, statementIndex, start: token.start, end: token.end })
    }
    const body = doBlockBody(code)
    if (body) {
      const doKeyword = code[0]!
      for (const { kind } of scanBody(body)) found.push({ kind, statementIndex, start: doKeyword.start, end: doKeyword.end })
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

interface Finding {
  kind: DestructiveKind
  token: Token
}

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
      findings.push({ kind: 'delete', token })
    } else if (word === 'drop' && atCommandStart) {
      findings.push({ kind: 'drop', token })
    } else if (word === 'truncate' && atCommandStart) {
      findings.push({ kind: 'truncate', token })
    } else if (word === 'alter' && atCommandStart && isWord(code[i + 1], 'table')) {
      const drop = findAlterTableDropColumn(code, i + 2)
      if (drop) findings.push({ kind: 'alter-table-drop-column', token: drop })
    } else if (word === 'update') {
      const set = updateSetIndex(code, i)
      if (set !== undefined && !hasWhereAtSameDepth(code, set)) findings.push({ kind: 'update-without-where', token })
    }
  })
  return findings
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

function findAlterTableDropColumn(code: readonly Token[], from: number): Token | undefined {
  let depth = 0
  for (let i = from; i < code.length; i++) {
    const token = code[i]!
    if (isPunctuation(token, '(')) depth++
    else if (isPunctuation(token, ')')) depth--
    else if (depth === 0 && isWord(token, 'drop')) {
      const next = code[i + 1]
      // DROP [COLUMN] [IF EXISTS] name: the COLUMN keyword is optional.
      if (next && isIdentifierToken(next) && !isWord(next, ...NOT_A_COLUMN_AFTER_DROP)) return token
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
