import { checkedExpression, quoteIdentifier, tokenize } from '@stratum/sql'

/**
 * Checks on what a user types into the Database pages' forms before it is pasted into DDL. Names are always
 * quoted (quoteIdentifier); the few places that take SQL text on purpose (a function's arguments and return
 * type) must stay inside their clause: nothing in them may end the statement, open a body or hide text in a comment.
 */

/** Input a builder refuses; its message is shown under the form. */
export class ObjectInputError extends Error {
  override name = 'ObjectInputError'
}

export interface ObjectName {
  schema: string
  name: string
}

/** A name as the user typed it: not blank, no longer than Postgres keeps (63 bytes). */
export function checkedName(name: string, what: string): string {
  if (!name.trim()) throw new ObjectInputError(`${what} is required`)
  if (new TextEncoder().encode(name).length > 63) throw new ObjectInputError(`${what} is longer than 63 bytes`)
  return name
}

export function qualified(object: ObjectName): string {
  return `${quoteIdentifier(object.schema)}.${quoteIdentifier(object.name)}`
}

/**
 * A comma-separated list written in SQL (a function's arguments, a TABLE(...) result): one clause, so no `;`,
 * no comment, no dollar-quoted text and balanced parentheses. Blank is allowed (no arguments).
 */
export function checkedSqlList(text: string, what: string): string {
  const trimmed = text.trim()
  if (!trimmed) return ''
  try {
    checkedExpression(trimmed, what)
  } catch (error) {
    throw new ObjectInputError(error instanceof Error ? error.message : String(error))
  }
  for (const token of tokenize(trimmed)) {
    if (token.kind === 'block-comment') throw new ObjectInputError(`${what} may not hold a comment`)
    if (token.kind === 'dollar-string') throw new ObjectInputError(`${what} may not hold dollar-quoted text`)
  }
  return trimmed
}

const WORD = '(?:[a-z_][a-z0-9_$]*|"(?:[^"]|"")+")'
const MULTI_WORD = '(?:double\\s+precision|character\\s+varying|bit\\s+varying)'
const TYPE_MOD = '(?:\\s*\\(\\s*\\d+(?:\\s*,\\s*\\d+)?\\s*\\))?'
const TIME_ZONE = '(?:\\s+with(?:out)?\\s+time\\s+zone)?'
const ARRAY = '(?:\\s*\\[\\s*\\])*'
const SINGLE_TYPE = `(?:${MULTI_WORD}|${WORD}(?:\\s*\\.\\s*${WORD})?)${TYPE_MOD}${TIME_ZONE}${ARRAY}`
const RETURN_TYPE = new RegExp(`^(?:setof\\s+)?${SINGLE_TYPE}$`, 'i')
const TABLE_RESULT = /^table\s*\((.*)\)$/is

/**
 * A function's return type: one type name (built-in words, a typmod, `with time zone`, array brackets, a schema-
 * qualified or quoted name), optionally SETOF, or TABLE(column type, ...).
 */
export function checkedReturnType(text: string): string {
  const trimmed = text.trim()
  if (!trimmed) throw new ObjectInputError('Return type is required')
  const table = TABLE_RESULT.exec(trimmed)
  if (table) {
    if (!checkedSqlList(table[1] ?? '', 'The returned table')) throw new ObjectInputError('The returned table needs at least one column')
    return trimmed
  }
  if (!RETURN_TYPE.test(trimmed)) throw new ObjectInputError(`Unsupported return type: ${trimmed}`)
  return trimmed
}

/**
 * A dollar quote for a body: `$function$`, or `$function_N$` when the body itself holds that text, so that
 * nothing in the body can close the quote early.
 */
export function dollarQuote(body: string): string {
  let tag = '$function$'
  for (let n = 1; body.includes(tag); n += 1) tag = `$function_${n}$`
  return tag
}
