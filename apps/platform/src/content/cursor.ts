import { invalidInput } from '../errors.js'

/** A listing's position: the sort value of the last item given and its id (ties broken by id). */
export interface Cursor {
  v: string
  id: string
}

/** How the sort value is compared in SQL: as text (names) or as a timestamp (dates). */
export type CursorSort = 'text' | 'timestamptz'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** A timestamptz as Postgres writes it as text: 2024-02-29 12:34:56.123456+00 (offset maybe +05:30). */
const TIMESTAMPTZ = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?$/

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url')
}

/**
 * Reads a cursor a previous page gave. Cursors travel through the client, so anything may come
 * back: whatever is not exactly what encodeCursor wrote for this sort is refused here, before it
 * can reach (and fail) the query.
 */
export function decodeCursor(text: string, sort: CursorSort): Cursor {
  let value: unknown = null
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    value = null
  }
  const { v, id } = (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Partial<Record<keyof Cursor, unknown>>
  if (typeof v === 'string' && !v.includes('\u0000') && typeof id === 'string' && UUID.test(id) && (sort === 'text' || isTimestamp(v))) {
    return { v, id }
  }
  throw invalidInput('cursor is not valid: pass the cursor of a previous page')
}

/** A real calendar date and time (no 30 February, no hour 25) with an offset Postgres accepts. */
function isTimestamp(text: string): boolean {
  const match = TIMESTAMPTZ.exec(text)
  if (!match) return false
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = match.slice(1).map((part) => Number(part ?? 0)) as number[]
  const date = new Date(Date.UTC(year!, month! - 1, day, hour, minute, second))
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second &&
    offsetHours! <= 15 &&
    offsetMinutes! < 60
  )
}

/** How a listing is ordered: a sort column (name: text, else a timestamp) and a direction; ties broken by `c.id`. */
export interface KeysetOrder {
  /** A trusted SQL expression such as c.name (never user input). */
  column: string
  cast: CursorSort
  direction: 'ASC' | 'DESC'
}

/**
 * Adds the keyset condition of a cursor to a listing's WHERE parts (its values as bound parameters)
 * and returns the ORDER BY ... LIMIT tail, which fetches one row more than `limit` to tell whether
 * a next page exists.
 */
export function keysetPage(order: KeysetOrder, cursorText: string | undefined, limit: number, where: string[], params: unknown[]): string {
  if (cursorText) {
    const cursor = decodeCursor(cursorText, order.cast)
    params.push(cursor.v, cursor.id)
    where.push(`(${order.column}, c.id) ${order.direction === 'ASC' ? '>' : '<'} ($${params.length - 1}::${order.cast}, $${params.length}::uuid)`)
  }
  params.push(limit + 1)
  return `ORDER BY ${order.column} ${order.direction}, c.id ${order.direction} LIMIT $${params.length}`
}

/** One page of a keyset listing: `limit` rows, and the cursor of the next page when there is one. */
export function pageOf<T extends { id: string; sort_value?: string }>(rows: T[], limit: number): { page: T[]; cursor?: string } {
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return rows.length > limit && last ? { page, cursor: encodeCursor({ v: last.sort_value!, id: last.id }) } : { page }
}
