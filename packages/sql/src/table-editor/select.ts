import type { GridFilter, GridSort } from '../grid-state.js'
import { quoteIdentifier, quoteLiteral } from '../literals.js'
import { keyLiteral, qualifiedName, TableEditorInputError, type RelationName } from './names.js'

/** The table editor's page size (rows per page). */
export const TABLE_EDITOR_PAGE_SIZE = 100
/** Rows counted at most for the row count shown beside the pager: counting a huge table exactly is slow. */
export const ROW_COUNT_CAP = 10_000

/** The literal values `is` accepts, mapped to the SQL it stands for. */
const IS_VALUES: Record<string, string> = { null: 'NULL', 'not null': 'NOT NULL', true: 'TRUE', false: 'FALSE', unknown: 'UNKNOWN' }

/** `in` values: comma separated; a value holding a comma is written in double quotes ("a,b"). */
export function parseInList(value: string): string[] {
  if (value.trim() === '') return []
  const items: string[] = []
  let current = ''
  let quoted = false
  let wasQuoted = false
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index]
    if (quoted) {
      if (char === '"' && value[index + 1] === '"') {
        current += '"'
        index += 1
      } else if (char === '"') quoted = false
      else current += char
    } else if (char === '"' && current.trim() === '') {
      quoted = true
      wasQuoted = true
      current = ''
    } else if (char === ',') {
      items.push(wasQuoted ? current : current.trim())
      current = ''
      wasQuoted = false
    } else if (!wasQuoted) current += char
  }
  items.push(wasQuoted ? current : current.trim())
  return items
}

/** One filter as a condition. Values are literals; like/ilike compare the column's text. */
export function filterCondition(filter: GridFilter): string {
  const column = quoteIdentifier(filter.column)
  switch (filter.operator) {
    case '=':
    case '<>':
    case '>':
    case '<':
    case '>=':
    case '<=':
      return `${column} ${filter.operator} ${quoteLiteral(filter.value)}`
    case '~~':
    case '~~*':
      return `${column}::text ${filter.operator} ${quoteLiteral(filter.value)}`
    case 'in': {
      const items = parseInList(filter.value)
      if (items.length === 0) throw new TableEditorInputError(`The in filter on ${filter.column} needs at least one value`)
      return `${column} IN (${items.map(quoteLiteral).join(', ')})`
    }
    case 'is': {
      const wanted = IS_VALUES[filter.value.trim().toLowerCase().replace(/\s+/g, ' ')]
      if (!wanted) throw new TableEditorInputError(`The is filter takes null, not null, true, false or unknown`)
      return `${column} IS ${wanted}`
    }
    default:
      throw new TableEditorInputError(`Unknown filter operator`)
  }
}

export function whereClause(filters: readonly GridFilter[], extra: string[] = []): string {
  const conditions = [...filters.map(filterCondition), ...extra]
  return conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''
}

/**
 * Where a page starts. Keyset cursors (after/before a key) apply when the rows are ordered by the
 * primary key alone; offsets count from the start or from the end of the ordering (the last page is
 * `fromEnd 0`: the ordering reversed, so a jump to the end costs as much as the first page).
 */
export type PageCursor =
  | { kind: 'first' }
  | { kind: 'last' }
  | { kind: 'after'; key: (string | null)[] }
  | { kind: 'before'; key: (string | null)[] }
  | { kind: 'offset'; offset: number }
  | { kind: 'fromEnd'; offset: number }

export interface PageRequest {
  relation: RelationName
  /** Every column, read as text so the editor shows and edits exactly what Postgres prints. */
  columns: readonly string[]
  primaryKey: readonly string[]
  /** A plain table has a ctid to order by when it has no primary key; a view has not. */
  hasCtid: boolean
  filters: readonly GridFilter[]
  sort?: GridSort
  pageSize?: number
  cursor: PageCursor
}

export interface PageQuery {
  sql: string
  /** The rows come in reverse order (a page read from the end): the caller reverses them. */
  reversed: boolean
  /** Keyset paging: cursors are keys. Offset paging: cursors are offsets. */
  keyset: boolean
  /** Whether the ordering is total, so that the last page can be read from the end. */
  canReadFromEnd: boolean
}

/** Paging by key: the rows are ordered by the primary key only (no sort, or a sort on a one-column key). */
export function usesKeyset(request: Pick<PageRequest, 'primaryKey' | 'sort'>): boolean {
  if (request.primaryKey.length === 0) return false
  return !request.sort || (request.primaryKey.length === 1 && request.sort.column === request.primaryKey[0])
}

function orderBy(terms: Array<{ sql: string; ascending: boolean }>, reverse: boolean): string {
  if (terms.length === 0) return ''
  return ` ORDER BY ${terms.map((term) => `${term.sql} ${term.ascending !== reverse ? 'ASC' : 'DESC'}`).join(', ')}`
}

/** SELECT for one page of a table or view, with the filters, the sort and the cursor. */
export function buildPageQuery(request: PageRequest): PageQuery {
  const size = request.pageSize ?? TABLE_EDITOR_PAGE_SIZE
  if (!Number.isInteger(size) || size < 1) throw new TableEditorInputError('The page size must be a positive integer')
  const select = request.columns.map((name) => `${quoteIdentifier(name)}::text AS ${quoteIdentifier(name)}`).join(', ') || '*'
  const from = ` FROM ${qualifiedName(request.relation)}`
  const keyset = usesKeyset(request)
  const cursor = request.cursor
  // ORDER BY reads a bare name as the output column, here the text cast (which sorts 10 before 9):
  // the qualified name reaches the table's own column.
  const sortable = (name: string) => `${qualifiedName(request.relation)}.${quoteIdentifier(name)}`

  if (keyset) {
    const ascending = request.sort?.ascending ?? true
    const keyColumns = request.primaryKey.map(quoteIdentifier)
    const terms = request.primaryKey.map((name) => ({ sql: sortable(name), ascending }))
    const row = (key: (string | null)[]) => {
      if (key.length !== keyColumns.length) throw new TableEditorInputError('The cursor key does not match the primary key')
      const values = key.map(keyLiteral)
      return keyColumns.length === 1 ? [keyColumns[0], values[0]] : [`(${keyColumns.join(', ')})`, `(${values.join(', ')})`]
    }
    const extra: string[] = []
    let reversed = false
    if (cursor.kind === 'after' || cursor.kind === 'before') {
      const [left, right] = row(cursor.key)
      const forward = cursor.kind === 'after'
      extra.push(`${left} ${forward === ascending ? '>' : '<'} ${right}`)
      reversed = !forward
    } else if (cursor.kind === 'last') reversed = true
    else if (cursor.kind !== 'first') throw new TableEditorInputError('Keyset paging takes first, last, after or before')
    const sql = `SELECT ${select}${from}${whereClause(request.filters, extra)}${orderBy(terms, reversed)} LIMIT ${size}`
    return { sql, reversed, keyset: true, canReadFromEnd: true }
  }

  const terms: Array<{ sql: string; ascending: boolean }> = []
  if (request.sort) terms.push({ sql: sortable(request.sort.column), ascending: request.sort.ascending })
  // A tie-breaker makes the ordering total, so pages neither repeat nor skip rows.
  if (request.primaryKey.length) terms.push(...request.primaryKey.map((name) => ({ sql: sortable(name), ascending: true })))
  else if (request.hasCtid) terms.push({ sql: 'ctid', ascending: true })
  const total = request.primaryKey.length > 0 || request.hasCtid
  let reversed = false
  let offset = 0
  if (cursor.kind === 'offset') offset = cursor.offset
  else if (cursor.kind === 'fromEnd' || cursor.kind === 'last') {
    if (!total) throw new TableEditorInputError('Without a key to order by, pages can only be read from the start')
    reversed = true
    offset = cursor.kind === 'fromEnd' ? cursor.offset : 0
  } else if (cursor.kind !== 'first') throw new TableEditorInputError('Offset paging takes first, last, offset or fromEnd')
  if (!Number.isInteger(offset) || offset < 0) throw new TableEditorInputError('The offset must be a non-negative integer')
  const sql = `SELECT ${select}${from}${whereClause(request.filters)}${orderBy(terms, reversed)} LIMIT ${size}${offset ? ` OFFSET ${offset}` : ''}`
  return { sql, reversed, keyset: false, canReadFromEnd: total }
}

/** How many rows match the filters, counted up to ROW_COUNT_CAP + 1 (more means "over the cap"). */
export function buildCappedCount(relation: RelationName, filters: readonly GridFilter[], cap = ROW_COUNT_CAP): string {
  return `SELECT count(*)::int AS count FROM (SELECT 1${` FROM ${qualifiedName(relation)}`}${whereClause(filters)} LIMIT ${cap + 1}) AS capped`
}
