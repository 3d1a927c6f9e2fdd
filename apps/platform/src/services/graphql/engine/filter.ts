import { GraphqlEngineError } from './errors.js'
import { asParam, decodeCursor, decodeNodeId } from './ids.js'
import type { ColumnModel, TableModel } from './model.js'
import { ident, type Params } from './sql.js'

const COMPARE: Record<string, string> = { eq: '=', neq: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' }
const ARRAY_COMPARE: Record<string, string> = { contains: '@>', containedBy: '<@', overlaps: '&&' }

/** The primary key equal to a node id's values: the id must name this table. */
export function nodeIdCondition(table: TableModel, block: string, nodeId: string, params: Params): string {
  const decoded = decodeNodeId(nodeId)
  if (decoded.schema !== table.info.schema || decoded.table !== table.info.name) throw new GraphqlEngineError('nodeId belongs to a different collection')
  return primaryKeyCondition(table, block, decoded.values, params)
}

export function primaryKeyCondition(table: TableModel, block: string, values: unknown[], params: Params): string {
  if (values.length !== table.primaryKey.length) throw new GraphqlEngineError('Invalid value passed to nodeId argument')
  return table.primaryKey.map((column, index) => `${block}.${ident(column.info.name)} = ${params.typed(asParam(values[index]), column.sqlType)}`).join(' AND ')
}

/** A `<Type>Filter` value as a SQL condition on the block: fields are ANDed; and/or/not nest. */
export function filterCondition(table: TableModel, block: string, filter: unknown, params: Params): string {
  if (filter === null || filter === undefined) return 'true'
  const parts: string[] = []
  const byField = new Map(table.columns.map((column) => [column.field, column]))
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    if (value === undefined || value === null) continue
    const column = byField.get(key)
    if (column) parts.push(columnCondition(column, `${block}.${ident(column.info.name)}`, value as Record<string, unknown>, params))
    else if (key === 'and') parts.push(`(${(value as unknown[]).map((item) => filterCondition(table, block, item, params)).join(' AND ') || 'true'})`)
    else if (key === 'or') parts.push(`(${(value as unknown[]).map((item) => filterCondition(table, block, item, params)).join(' OR ') || 'true'})`)
    else if (key === 'not') {
      // An empty `not: {}` filters nothing, as pg_graphql reads it.
      if (Object.keys(value as object).length > 0) parts.push(`NOT (${filterCondition(table, block, value, params)})`)
    }
    else if (key === 'nodeId') {
      const ops = value as Record<string, unknown>
      if (typeof ops.eq === 'string') parts.push(`(${nodeIdCondition(table, block, ops.eq, params)})`)
    } else throw new GraphqlEngineError(`Unknown field "${key}" on type ${table.typeName}Filter`)
  }
  return parts.length === 0 ? 'true' : parts.join(' AND ')
}

function columnCondition(column: ColumnModel, expression: string, ops: Record<string, unknown>, params: Params): string {
  const parts: string[] = []
  const type = column.sqlType
  for (const [op, value] of Object.entries(ops)) {
    if (value === undefined) continue
    // A null operand is compared as SQL compares it (pg_graphql: `lt: null` matches nothing); `is: null` is no filter.
    if (value === null && op === 'is') continue
    const max = column.info.maxChars
    const texts = Array.isArray(value) ? value : [value]
    if (max !== null && texts.some((text) => typeof text === 'string' && [...text].length > max)) {
      throw new GraphqlEngineError(`Invalid input for String type. Maximum character length ${max}`)
    }
    if (op in COMPARE) parts.push(`${expression} ${COMPARE[op]} ${params.typed(value, type)}`)
    else if (op === 'in') parts.push(`${expression} = ANY(${params.typed(Array.isArray(value) ? value : [value], `${type}[]`)})`)
    else if (op === 'is') {
      if (value !== 'NULL' && value !== 'NOT_NULL') throw new GraphqlEngineError('Invalid input for FilterIs type')
      parts.push(`${expression} IS ${value === 'NULL' ? '' : 'NOT '}NULL`)
    } else if (op === 'like') parts.push(`${expression}::text LIKE ${params.typed(value, 'text')}`)
    else if (op === 'ilike') parts.push(`${expression}::text ILIKE ${params.typed(value, 'text')}`)
    else if (op === 'regex') parts.push(`${expression}::text ~ ${params.typed(value, 'text')}`)
    else if (op === 'iregex') parts.push(`${expression}::text ~* ${params.typed(value, 'text')}`)
    else if (op === 'startsWith') parts.push(`starts_with(${expression}::text, ${params.typed(value, 'text')})`)
    else if (op in ARRAY_COMPARE) parts.push(`${expression} ${ARRAY_COMPARE[op]} ${params.typed(value, type)}`)
    else throw new GraphqlEngineError(`Invalid filter operation: ${op}`)
  }
  return parts.length === 0 ? 'true' : parts.join(' AND ')
}

export interface OrderElement {
  column: ColumnModel
  asc: boolean
  nullsFirst: boolean
}

/** The orderBy argument, then the primary key (ascending) so pages are stable, as pg_graphql orders. */
export function orderElements(table: TableModel, orderBy: unknown): OrderElement[] {
  const elements: OrderElement[] = []
  const byField = new Map(table.columns.map((column) => [column.field, column]))
  for (const item of (orderBy as Array<Record<string, string>> | null | undefined) ?? []) {
    for (const [field, direction] of Object.entries(item ?? {})) {
      const column = byField.get(field)
      if (!column || direction === null || direction === undefined) continue
      if (!['AscNullsFirst', 'AscNullsLast', 'DescNullsFirst', 'DescNullsLast'].includes(direction)) throw new GraphqlEngineError(`Invalid order operation ${direction}`)
      elements.push({ column, asc: direction.startsWith('Asc'), nullsFirst: direction.endsWith('NullsFirst') })
    }
  }
  // Always appended, even when orderBy names a key column: cursors then have pg_graphql's shape exactly.
  for (const column of table.primaryKey) elements.push({ column, asc: true, nullsFirst: false })
  return elements
}

export const reversed = (elements: OrderElement[]) => elements.map((element) => ({ ...element, asc: !element.asc, nullsFirst: !element.nullsFirst }))

export function orderClause(block: string, elements: OrderElement[]): string {
  return elements
    .map((element) => `${block}.${ident(element.column.info.name)} ${element.asc ? 'ASC' : 'DESC'} NULLS ${element.nullsFirst ? 'FIRST' : 'LAST'}`)
    .join(', ')
}

/**
 * Rows strictly after the cursor in this order (keyset pagination): for [a, b] it is
 * a after x, or a equal to x (nulls equal) and b after y. Nulls sort where the direction puts them.
 */
export function afterCursor(block: string, elements: OrderElement[], cursor: string, params: Params): string {
  const values = decodeCursor(cursor)
  if (values.length !== elements.length) throw new GraphqlEngineError('orderBy clause incompatible with pagination cursor')
  const clause = (index: number): string => {
    if (index >= elements.length) return 'false'
    const element = elements[index]!
    const column = `${block}.${ident(element.column.info.name)}`
    const value = params.typed(asParam(values[index]), element.column.sqlType)
    const after = `(${column} ${element.asc ? '>' : '<'} ${value} OR (${column} IS ${element.nullsFirst ? 'NOT ' : ''}NULL AND ${value} IS ${element.nullsFirst ? '' : 'NOT '}NULL))`
    return `(${after} OR (${column} IS NOT DISTINCT FROM ${value} AND ${clause(index + 1)}))`
  }
  return clause(0)
}
