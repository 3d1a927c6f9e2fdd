import { GraphqlEngineError } from './errors.js'

/** base64 of a JSON array, as pg_graphql's node ids and cursors are. */
function decodeArray(text: string): unknown[] | null {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/=\s]*$/.test(text)) return null
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64').toString('utf8'))
    return Array.isArray(value) ? value : null
  } catch {
    return null
  }
}

/** A node id: [schema, table, ...primary key values]. */
export function decodeNodeId(text: string): { schema: string; table: string; values: unknown[] } {
  const items = decodeArray(text)
  if (!items || items.length < 3 || typeof items[0] !== 'string' || typeof items[1] !== 'string') {
    throw new GraphqlEngineError('Invalid value passed to nodeId argument')
  }
  return { schema: items[0], table: items[1], values: items.slice(2) }
}

/** A cursor: the values of the ordering columns of a row. */
export function decodeCursor(text: string): unknown[] {
  const items = decodeArray(text)
  if (!items) throw new GraphqlEngineError('Invalid cursor')
  return items
}

/** A JSON value from a cursor or node id, as the text PostgreSQL reads for the column's type. */
export function asParam(value: unknown): string | null {
  if (value === null || value === undefined) return null
  return typeof value === 'string' ? value : JSON.stringify(value)
}
