import type { PageCursor } from '@stratum/sql'

export interface PagerState {
  canFirst: boolean
  canPrevious: boolean
  canNext: boolean
  canLast: boolean
  first: PageCursor
  previous: PageCursor | undefined
  next: PageCursor | undefined
  last: PageCursor
}

type Row = Record<string, string | null>

/**
 * Where first/previous/next/last go from the page on screen. Keyset pages move by the key of the
 * first or last row; offset pages count from the start, or from the end once the last page was read.
 */
export function pagerState(options: {
  cursor: PageCursor
  keyset: boolean
  canReadFromEnd: boolean
  rows: readonly Row[]
  pageSize: number
  primaryKey: readonly string[]
  /** The capped count of matching rows. */
  count: number
}): PagerState {
  const { cursor, keyset, rows, pageSize, primaryKey } = options
  const full = rows.length === pageSize
  const single = options.count <= pageSize
  const keyOf = (row: Row | undefined) => primaryKey.map((column) => row?.[column] ?? null)
  const atStart = cursor.kind === 'first' || (cursor.kind === 'offset' && cursor.offset === 0)
  const atEnd = cursor.kind === 'last' || (cursor.kind === 'fromEnd' && cursor.offset === 0)
  let previous: PageCursor | undefined
  let next: PageCursor | undefined
  if (keyset) {
    const first = rows[0]
    const last = rows[rows.length - 1]
    if (first && !atStart && !(cursor.kind === 'before' && !full)) previous = { kind: 'before', key: keyOf(first) }
    if (last && !atEnd && !(cursor.kind !== 'before' && !full)) next = { kind: 'after', key: keyOf(last) }
  } else if (cursor.kind === 'fromEnd' || cursor.kind === 'last') {
    const offset = cursor.kind === 'fromEnd' ? cursor.offset : 0
    if (full) previous = { kind: 'fromEnd', offset: offset + pageSize }
    if (offset > 0) next = { kind: 'fromEnd', offset: Math.max(0, offset - pageSize) }
  } else {
    const offset = cursor.kind === 'offset' ? cursor.offset : 0
    if (offset > 0) previous = { kind: 'offset', offset: Math.max(0, offset - pageSize) }
    if (full) next = { kind: 'offset', offset: offset + pageSize }
  }
  if (single && atStart) next = undefined
  const last: PageCursor = keyset ? { kind: 'last' } : { kind: 'fromEnd', offset: 0 }
  return {
    canFirst: !atStart,
    canPrevious: previous !== undefined,
    canNext: next !== undefined,
    canLast: options.canReadFromEnd && !atEnd && !(single && atStart),
    first: { kind: 'first' },
    previous,
    next,
    last,
  }
}
