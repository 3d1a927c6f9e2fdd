/**
 * Substituting parameter values into the SQL before it runs: each `:name` in code becomes a
 * literal quoted for its declared type, and the `@set` directives are removed.
 */
import { tokenize, type Token } from './lexer.js'
import { quoteIdentifier, quoteLiteral } from './literals.js'
import { directiveSource, parseParameterDirectives } from './parameters.js'

export class ParameterError extends Error {
  constructor(
    message: string,
    readonly parameter: string,
  ) {
    super(message)
    this.name = 'ParameterError'
  }
}

export interface ParameterDeclaration {
  name: string
  type?: string | undefined
  possibleValues?: readonly string[] | undefined
}

const NUMBER_TYPES = new Set(['number', 'numeric', 'decimal', 'int', 'integer', 'int2', 'int4', 'int8', 'smallint', 'bigint', 'float', 'float4', 'float8', 'real', 'double', 'double precision'])
const BOOLEAN_TYPES = new Set(['boolean', 'bool'])
const TRUE_WORDS = new Set(['true', 't', 'yes', 'y', 'on', '1'])
const FALSE_WORDS = new Set(['false', 'f', 'no', 'n', 'off', '0'])
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/

/**
 * The SQL text for one parameter value:
 * - number types: the number itself, checked, negative ones in parentheses (so `a-:n` cannot
 *   turn into the comment `a--5`);
 * - boolean: true or false;
 * - enum: one of the declared options, as a string literal;
 * - identifier: a quoted identifier, dotted names quoted part by part (`public.users`);
 * - raw: the text as written (the user's own SQL, e.g. an ORDER BY expression);
 * - anything else (text, date, uuid, undeclared): a string literal, which Postgres coerces to
 *   the type the context needs.
 */
export function formatParameterValue(value: string, parameter: ParameterDeclaration): string {
  const type = parameter.type?.trim().toLowerCase()
  const trimmed = value.trim()
  if (type && NUMBER_TYPES.has(type)) {
    if (!NUMBER.test(trimmed)) throw new ParameterError(`Parameter ${parameter.name} must be a number`, parameter.name)
    return trimmed.startsWith('-') ? `(${trimmed})` : trimmed.replace(/^\+/, '')
  }
  if (type && BOOLEAN_TYPES.has(type)) {
    const word = trimmed.toLowerCase()
    if (TRUE_WORDS.has(word)) return 'true'
    if (FALSE_WORDS.has(word)) return 'false'
    throw new ParameterError(`Parameter ${parameter.name} must be true or false`, parameter.name)
  }
  if (type === 'enum' && parameter.possibleValues && !parameter.possibleValues.includes(value)) {
    throw new ParameterError(`Parameter ${parameter.name} must be one of: ${parameter.possibleValues.join(', ')}`, parameter.name)
  }
  if (type === 'identifier' || type === 'ident') {
    if (!trimmed) throw new ParameterError(`Parameter ${parameter.name} must name an identifier`, parameter.name)
    return trimmed.split('.').map(quoteIdentifier).join('.')
  }
  if (type === 'raw') return value
  return quoteLiteral(value)
}

/**
 * Returns the SQL with every `:name` replaced and the `@set` directives removed. `values`
 * overrides the declared defaults; a parameter with neither raises a ParameterError
 * ('Missing value for parameter: name'), as does a value its type rejects.
 */
export function substituteParameters(sql: string, values: Readonly<Record<string, string | undefined>> = {}): string {
  const tokens = tokenize(sql)
  const declared = new Map(parseParameterDirectives(sql, tokens).map((directive) => [directive.name, directive]))
  const edits: Edit[] = []
  tokens.forEach((token, i) => {
    if (token.kind === 'parameter') {
      const name = token.text.slice(1)
      const directive = declared.get(name)
      const value = values[name] ?? directive?.value
      if (value === undefined) throw new ParameterError(`Missing value for parameter: ${name}`, name)
      edits.push({ start: token.start, end: token.end, text: formatParameterValue(value, directive ?? { name }) })
    } else if (directiveSource(token) !== undefined) {
      edits.push({ ...directiveRemoval(sql, tokens, i), text: '' })
    }
  })
  let out = ''
  let at = 0
  for (const edit of edits) {
    out += sql.slice(at, edit.start) + edit.text
    at = edit.end
  }
  return out + sql.slice(at)
}

interface Edit {
  start: number
  end: number
  text: string
}

/**
 * The range a directive occupies: the token, the `;` a bare directive may end with and, when it
 * stands on a line of its own, the whole line with its break.
 */
function directiveRemoval(sql: string, tokens: readonly Token[], i: number): { start: number; end: number } {
  const token = tokens[i]!
  let end = token.end
  if (token.kind === 'directive' && tokens[i + 1]?.text === ';') end = tokens[i + 1]!.end
  const lineStart = sql.slice(0, token.start).search(/[ \t]*$/)
  const ownLine = lineStart === 0 || /[\n\r]/.test(sql[lineStart - 1]!)
  if (!ownLine) return { start: token.start, end }
  const after = /^[ \t]*(\r\n|\n|\r)?/.exec(sql.slice(end))![0]
  return { start: lineStart, end: end + after.length }
}
