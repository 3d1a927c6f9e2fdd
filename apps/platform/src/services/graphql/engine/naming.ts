/**
 * pg_graphql's names: SQL names as they are by default; with the schema's `inflect_names` directive,
 * snake_case becomes PascalCase for types and camelCase for fields. A `name` directive wins over both.
 */

/** GraphQL's name rule: what does not match it is left out of the schema (pg_graphql omits weird names too). */
export const isGraphqlName = (name: string) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(name)

/** `account_BY_email` → `AccountBYEmail` with inflection; unchanged without. */
export function baseTypeName(name: string, inflect: boolean, override?: string): string {
  if (override) return override
  if (!inflect) return name
  let out = ''
  let previous = '+'
  for (const char of name) {
    out += /[\p{L}\p{N}]/u.test(previous) ? char : char.toUpperCase()
    previous = char
  }
  return out.replaceAll('_', '')
}

export function lowerFirst(token: string): string {
  const first = token.codePointAt(0)
  if (first === undefined) return token
  const char = String.fromCodePoint(first)
  return char.toLowerCase() + token.slice(char.length)
}

/** A column's field: camelCase when inflected. */
export function columnFieldName(name: string, inflect: boolean, override?: string): string {
  if (override) return override
  const base = baseTypeName(name, inflect)
  return inflect ? lowerFirst(base) : base
}

/** A function's field: a leading underscore dropped, then as a type name with its first letter lowered. */
export function functionFieldName(name: string, inflect: boolean, override?: string): string {
  if (override) return override
  const trimmed = name.startsWith('_') ? name.slice(1) : name
  return lowerFirst(baseTypeName(trimmed, inflect))
}

export function argName(name: string, inflect: boolean): string {
  return lowerFirst(baseTypeName(name, inflect))
}

/**
 * A relation's field, as pg_graphql names it: the single local column without its `_id` (or `Id`) suffix,
 * else the other table's name; a to-many side is `<table>Collection`.
 */
export function relationFieldName(options: {
  otherTypeName: string
  columns: string[]
  inflect: boolean
  unique: boolean
  override?: string
}): string {
  if (options.override) return options.override
  const asField = lowerFirst(options.otherTypeName)
  if (!options.unique) return `${asField}Collection`
  if (options.columns.length !== 1) return asField
  const column = options.columns[0]!
  const suffix = options.inflect ? '_id' : 'Id'
  if (!column.endsWith(suffix) || column.length === suffix.length) return asField
  return lowerFirst(baseTypeName(column.slice(0, -suffix.length), options.inflect))
}
