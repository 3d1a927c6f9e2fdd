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
 * jsonb_build_object with any number of pairs: PostgreSQL takes at most 100 arguments per call, so
 * wide selections are built in chunks joined with `||`.
 */
export function jsonObject(pairs: Array<[string, string]>): string {
  if (pairs.length === 0) return `'{}'::jsonb`
  const chunks: string[] = []
  for (let index = 0; index < pairs.length; index += 50) {
    const part = pairs.slice(index, index + 50).map(([key, value]) => `${literal(key)}, ${value}`)
    chunks.push(`jsonb_build_object(${part.join(', ')})`)
  }
  return chunks.length === 1 ? chunks[0]! : `(${chunks.join(' || ')})`
}

/** The base64 text pg_graphql uses for cursors and node ids: base64 of a jsonb array's text, no line breaks. */
export function base64Json(arrayItems: string[]): string {
  return `translate(encode(convert_to(jsonb_build_array(${arrayItems.join(', ')})::text, 'utf-8'), 'base64'), E'\\n', '')`
}
