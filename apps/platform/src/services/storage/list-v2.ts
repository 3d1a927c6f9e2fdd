import type pg from 'pg'
import { StorageError } from './errors.js'
import type { ListedItem } from './objects.js'

/**
 * POST /object/list-v2/{bucket}, as storage-api answers it (storage.from(b).listV2 in storage-js): objects under a
 * prefix in pages of `limit`, each page's `nextCursor` an opaque token naming where it ended; with `with_delimiter`,
 * one level only: the folders below the prefix (`name` ending in '/', no id) beside the objects directly in it, both
 * with `key`, the name's segment at the prefix's level. Sorted by name (byte order) or by a date with the name after
 * it; a folder's dates are its oldest object's creation. Read as the caller: its policies decide what is listed.
 */
export interface ListV2Options {
  prefix: string
  limit: number
  cursor: string | undefined
  withDelimiter: boolean
  sortColumn: 'name' | 'created_at' | 'updated_at'
  sortOrder: 'asc' | 'desc'
}

/** An entry as list (v1) answers it, with the key list-v2 adds when it lists one level. */
export interface ListV2Entry extends ListedItem {
  key?: string
}

export interface ListV2Page {
  hasNext: boolean
  nextCursor?: string
  nextCursorKey?: string
  folders: ListV2Entry[]
  objects: ListV2Entry[]
}

/** The largest page storage-api gives. */
export const LIST_V2_MAX_LIMIT = 1000

/** Where a page ended: the last name, and for a date sort the order, the column and that entry's date. */
interface Cursor {
  startAfter: string
  sortOrder?: string
  sortColumn?: string
  sortColumnAfter?: string
}

// storage-api's token: `letter:value` lines, base64. Kept so a cursor from either works with both.
const CURSOR_PARTS: Array<[string, keyof Cursor]> = [
  ['l', 'startAfter'],
  ['o', 'sortOrder'],
  ['c', 'sortColumn'],
  ['a', 'sortColumnAfter'],
]

export function encodeCursor(cursor: Cursor): string {
  const lines = CURSOR_PARTS.filter(([, field]) => cursor[field]).map(([letter, field]) => `${letter}:${cursor[field]}`)
  return Buffer.from(lines.join('\n')).toString('base64')
}

export function decodeCursor(token: string): Cursor {
  const cursor: Cursor = { startAfter: '', sortOrder: 'asc' }
  for (const line of Buffer.from(token, 'base64').toString().split('\n')) {
    const match = /^(\S):(.*)$/s.exec(line)
    const part = match ? CURSOR_PARTS.find(([letter]) => letter === match[1]) : undefined
    if (!match || !part) throw new StorageError(400, 'InvalidParameter', 'Invalid Parameter continuation token')
    cursor[part[1]] = match[2]!
  }
  return cursor
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

export async function listObjectsV2(client: pg.ClientBase, bucket: string, options: ListV2Options): Promise<ListV2Page> {
  const cursor = options.cursor ? decodeCursor(options.cursor) : undefined
  // A cursor carries the sort it was made under.
  const order = (cursor?.sortOrder ?? options.sortOrder) === 'desc' ? 'desc' : 'asc'
  const requested = cursor?.sortColumn ?? options.sortColumn
  const column = requested === 'created_at' || requested === 'updated_at' ? requested : 'name'
  const after = order === 'asc' ? '>' : '<'
  const values: unknown[] = [bucket, options.prefix, `${escapeLike(options.prefix)}%`, options.limit + 1]
  let page = ''
  if (cursor?.startAfter) {
    if (column !== 'name' && cursor.sortColumnAfter) {
      values.push(cursor.sortColumnAfter, cursor.startAfter)
      page = `WHERE (date_trunc('milliseconds', ${column}), name COLLATE "C") ${after} ($5::timestamptz, $6 COLLATE "C")`
    } else {
      values.push(cursor.startAfter)
      page = `WHERE name COLLATE "C" ${after} $5`
    }
  }
  const entries = options.withDelimiter
    ? // The folder is the prefix and the rest of the name up to its next '/', that slash included.
      `SELECT $2 || substr(rest, 1, strpos(rest, '/')) AS name, NULL::uuid AS id, min(created_at) AS updated_at,
              min(created_at) AS created_at, NULL::timestamptz AS last_accessed_at, NULL::jsonb AS metadata
       FROM below WHERE strpos(rest, '/') > 0 GROUP BY 1
       UNION ALL
       SELECT name, id, updated_at, created_at, last_accessed_at, metadata FROM below WHERE strpos(rest, '/') = 0`
    : 'SELECT name, id, updated_at, created_at, last_accessed_at, metadata FROM below'
  const { rows } = await client.query<ListV2Entry & { updated_at: Date | null; created_at: Date | null; last_accessed_at: Date | null }>(
    `WITH below AS (
       SELECT o.*, substr(o.name, length($2) + 1) AS rest FROM storage.objects o
       WHERE o.bucket_id = $1 AND o.name COLLATE "C" LIKE $3 ESCAPE '\\'
     ), entries AS (${entries})
     SELECT * FROM entries ${page}
     ORDER BY ${column === 'name' ? '' : `${column} ${order}, `}name COLLATE "C" ${order}
     LIMIT $4`,
    values,
  )
  const hasNext = rows.length > options.limit
  const shown = rows.slice(0, options.limit)
  // The key is the name's segment at the prefix's level (storage.search_v2's split_part(name, '/', levels)).
  const level = options.prefix ? options.prefix.split('/').length : 1
  const folders: ListV2Entry[] = []
  const objects: ListV2Entry[] = []
  for (const row of shown) {
    const entry: ListV2Entry = {
      ...(options.withDelimiter ? { key: row.name.split('/')[level - 1] ?? '' } : {}),
      name: row.name,
      id: row.id,
      updated_at: dateText(row.updated_at),
      created_at: dateText(row.created_at),
      last_accessed_at: dateText(row.last_accessed_at),
      metadata: row.metadata,
    }
    ;(row.id === null ? folders : objects).push(entry)
  }
  const last = shown[shown.length - 1]
  if (!hasNext || !last) return { hasNext: false, folders, objects }
  const lastDate = column === 'name' ? null : last[column]
  return {
    hasNext: true,
    nextCursor: encodeCursor({
      startAfter: last.name,
      sortOrder: cursor?.sortOrder ?? options.sortOrder,
      sortColumn: requested,
      sortColumnAfter: lastDate ? new Date(lastDate).toISOString() : undefined,
    }),
    nextCursorKey: last.name,
    folders,
    objects,
  }
}

const dateText = (value: Date | string | null): string | null => (value instanceof Date ? value.toISOString() : value)
