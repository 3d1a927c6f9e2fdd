import { tokenize } from '../lexer.js'
import { quoteIdentifier, quoteLiteral } from '../literals.js'

/**
 * Building blocks shared by the table editor's SQL builders. Every name the user or the database
 * gives is quoted as an identifier, every value becomes a string literal: names and data are
 * hostile, and nothing they hold may end a literal or an identifier early.
 */

/** Thrown for input a builder refuses (an unknown operator, a type it cannot vouch for, ...). */
export class TableEditorInputError extends Error {
  override name = 'TableEditorInputError'
}

export interface RelationName {
  schema: string
  name: string
}

export function qualifiedName(relation: RelationName): string {
  return `${quoteIdentifier(relation.schema)}.${quoteIdentifier(relation.name)}`
}

/** A cell value as the editor sends it: a text in Postgres's input syntax, SQL NULL, or the column's DEFAULT. */
export type CellInput = { kind: 'value'; text: string } | { kind: 'null' } | { kind: 'default' }

export function cellSql(input: CellInput): string {
  if (input.kind === 'null') return 'NULL'
  if (input.kind === 'default') return 'DEFAULT'
  return quoteLiteral(input.text)
}

/** A key value read from a row (the editor reads every column as text); a key is never NULL. */
export function keyLiteral(value: string | null): string {
  if (value === null) throw new TableEditorInputError('A primary key value cannot be NULL')
  return quoteLiteral(value)
}

/**
 * A type name safe to paste into DDL: a built-in type written with words, an optional
 * (precision[, scale]) and array brackets (`numeric(10,2)`, `timestamp with time zone`, `text[]`),
 * or a schema-qualified quoted name (`"public"."mood"`) as typeSql builds it for user types.
 */
const MULTI_WORD = '(?:double precision|character varying|bit varying|timestamp|time)'
const BUILTIN_TYPE = new RegExp(`^(?:[a-z_][a-z0-9_]*|${MULTI_WORD})( ?\\(\\s*\\d+(\\s*,\\s*\\d+)?\\s*\\))?( with(out)? time zone)?(\\[\\])*$`, 'i')
const QUOTED_TYPE = /^"(?:[^"]|"")+"\."(?:[^"]|"")+"(\[\])*$/

export function checkedType(type: string): string {
  const trimmed = type.trim()
  if (BUILTIN_TYPE.test(trimmed) || QUOTED_TYPE.test(trimmed)) return trimmed
  throw new TableEditorInputError(`Unsupported column type: ${type}`)
}

/** A user-defined type (an enum, a domain) by schema and name. */
export function userTypeSql(schema: string, name: string, array = false): string {
  return `${quoteIdentifier(schema)}.${quoteIdentifier(name)}${array ? '[]' : ''}`
}

/**
 * An SQL expression the user writes on purpose (a policy's USING or WITH CHECK): it must stay one
 * expression, so it may not hold a semicolon, unbalanced parentheses or an unterminated token.
 */
export function checkedExpression(expression: string, what: string): string {
  const trimmed = expression.trim()
  if (!trimmed) throw new TableEditorInputError(`${what} is empty`)
  let depth = 0
  for (const token of tokenize(trimmed)) {
    if (token.unterminated) throw new TableEditorInputError(`${what} has an unterminated ${token.kind}`)
    // A line comment would swallow the closing parenthesis the builder adds after the expression.
    if (token.kind === 'line-comment') throw new TableEditorInputError(`${what} may not hold a -- comment`)
    if (token.kind === 'punctuation' && token.text === ';') throw new TableEditorInputError(`${what} must be a single expression (no ;)`)
    if (token.kind === 'punctuation' && token.text === '(') depth += 1
    if (token.kind === 'punctuation' && token.text === ')') depth -= 1
    if (depth < 0) throw new TableEditorInputError(`${what} has unbalanced parentheses`)
  }
  if (depth !== 0) throw new TableEditorInputError(`${what} has unbalanced parentheses`)
  return trimmed
}
