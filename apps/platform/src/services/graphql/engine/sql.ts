/**
 * The only ways the engine puts names and values into SQL: identifiers are always double-quoted here,
 * values always travel as parameters ($n), never spliced into the text.
 */

/** An identifier, double-quoted with inner quotes doubled (a name with spaces or quotes stays one name). */
export function ident(name: string): string {
  if (name.includes('\u0000')) throw new Error('An identifier may not contain a NUL character')
  return `"${name.replaceAll('"', '""')}"`
}

/** schema.name, both quoted. */
export function qualified(schema: string, name: string): string {
  return `${ident(schema)}.${ident(name)}`
}

/** A text literal, only for the engine's own constants (type names, keys of json objects it builds). */
export function literal(text: string): string {
  if (text.includes('\u0000')) throw new Error('A literal may not contain a NUL character')
  return `'${text.replaceAll("'", "''")}'`
}

/** The parameters of one statement: add() returns the placeholder of a value. */
export class Params {
  readonly values: unknown[] = []

  add(value: unknown): string {
    this.values.push(value)
    return `$${this.values.length}`
  }

  /** A value cast to a SQL type expression (from the catalog: format_type or a quoted name). */
  typed(value: unknown, type: string): string {
    return `${this.add(value)}::${type}`
  }
}

/**
 * An object of the pairs, as `json`: the answer is built as text in the order of the selection, never as binary jsonb
 * (building jsonb and printing it again made the whole statement twice as slow: issue 31's nested list, 7.0 ms against
 * 3.5 ms). PostgreSQL takes at most 100 arguments per call, so a selection wider than 50 fields is built as jsonb chunks
 * joined with `||` (json has no such operator), which may sit inside json like any value.
 */
export function jsonObject(pairs: Array<[string, string]>): string {
  if (pairs.length === 0) return `'{}'::json`
  const chunks: string[] = []
  for (let index = 0; index < pairs.length; index += 50) {
    chunks.push(pairs.slice(index, index + 50).map(([key, value]) => `${literal(key)}, ${value}`).join(', '))
  }
  return chunks.length === 1 ? `json_build_object(${chunks[0]})` : `(${chunks.map((chunk) => `jsonb_build_object(${chunk})`).join(' || ')})::json`
}

/** The base64 text pg_graphql uses for cursors and node ids: base64 of a jsonb array's text, no line breaks. */
export function base64Json(arrayItems: string[]): string {
  return `translate(encode(convert_to(jsonb_build_array(${arrayItems.join(', ')})::text, 'utf-8'), 'base64'), E'\\n', '')`
}
