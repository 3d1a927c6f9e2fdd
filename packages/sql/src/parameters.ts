/**
 * Named query parameters (the SQL editor spec's parameters). A parameter is declared by a set directive
 * `@set name:type = value`, on a line of its own or in a line comment (`-- @set ...`, which
 * keeps the snippet valid SQL), and used in the SQL as `:name`. Pipe-separated options make
 * an enum: `@set status:active|archived = active`.
 */
import { tokenize, type Token } from './lexer.js'

export interface SqlParameter {
  name: string
  /** The value to use: the declared default, or '' when none is declared. */
  value: string
  defaultValue: string | undefined
  /** The declared type ('enum' when options were given), undefined when undeclared. */
  type: string | undefined
  possibleValues: string[] | undefined
  /** How many times `:name` appears in the SQL. */
  occurrences: number
}

export interface ParameterDirective {
  name: string
  type: string | undefined
  possibleValues: string[] | undefined
  value: string
  /** UTF-16 offsets of the directive (the whole comment for `-- @set`). */
  start: number
  end: number
}

const DIRECTIVE = /^@set\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?::([^=]*))?=([^;\n\r]*)/
const LINE_COMMENT_DIRECTIVE = /^--\s*(@set\s.*)$/

/** The `@set` directives of the SQL, in order. Malformed ones (no name or no value) are skipped. */
export function parseParameterDirectives(sql: string, tokens: readonly Token[] = tokenize(sql)): ParameterDirective[] {
  const directives: ParameterDirective[] = []
  for (const token of tokens) {
    const source = directiveSource(token)
    if (source === undefined) continue
    const match = DIRECTIVE.exec(source)
    if (!match) continue
    const [, name, typeText, rawValue] = match
    const value = unquote(rawValue!.trim())
    if (!value) continue
    const typeInfo = typeText?.trim() || undefined
    const options = typeInfo?.includes('|') ? typeInfo.split('|').map((option) => option.trim()).filter(Boolean) : undefined
    directives.push({
      name: name!,
      type: options ? 'enum' : typeInfo,
      possibleValues: options,
      value,
      start: token.start,
      end: token.end,
    })
  }
  return directives
}

/** The directive text a token carries, if it is a directive line or a `-- @set` comment. */
export function directiveSource(token: Token): string | undefined {
  if (token.kind === 'directive') return token.text
  if (token.kind === 'line-comment') return LINE_COMMENT_DIRECTIVE.exec(token.text)?.[1]
  return undefined
}

/** `'it''s'` declares the value it's; unquoted values are taken as written. */
function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replaceAll("''", "'")
  return value
}

/**
 * The parameters used in the SQL, in order of first use, with their declarations. `:name`
 * counts only in code: not in strings, comments, dollar quotes or identifiers, and `::casts`
 * are not parameters. Declared but unused parameters are not listed.
 */
export function parseParameters(sql: string): SqlParameter[] {
  const tokens = tokenize(sql)
  const declared = new Map(parseParameterDirectives(sql, tokens).map((directive) => [directive.name, directive]))
  const occurrences = new Map<string, number>()
  for (const token of tokens) {
    if (token.kind !== 'parameter') continue
    const name = token.text.slice(1)
    occurrences.set(name, (occurrences.get(name) ?? 0) + 1)
  }
  return [...occurrences].map(([name, count]) => {
    const directive = declared.get(name)
    return {
      name,
      value: directive?.value ?? '',
      defaultValue: directive?.value,
      type: directive?.type,
      possibleValues: directive?.possibleValues,
      occurrences: count,
    }
  })
}
