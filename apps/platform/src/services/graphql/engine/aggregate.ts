import type { ColumnModel, ScalarName, TableModel } from './model.js'

/**
 * pg_graphql's aggregates (the `aggregate` directive on a table): count, and sum/avg of numbers, min/max of numbers,
 * strings, dates and times and booleans, over every row the filter keeps (not just the page).
 */
export type AggregateOp = 'sum' | 'avg' | 'min' | 'max'

export const AGGREGATE_OPS: Array<{ op: AggregateOp; typeWord: string; description: string; term: string }> = [
  { op: 'sum', typeWord: 'Sum', description: 'Summation aggregates for numeric fields', term: 'Sum' },
  { op: 'avg', typeWord: 'Avg', description: 'Average aggregates for numeric fields', term: 'Average' },
  { op: 'min', typeWord: 'Min', description: 'Minimum aggregates for comparable fields', term: 'Minimum' },
  { op: 'max', typeWord: 'Max', description: 'Maximum aggregates for comparable fields', term: 'Maximum' },
]

const NUMERIC = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'money'])
const INTEGER = new Set(['int2', 'int4', 'int8'])
const STRING = new Set(['text', 'varchar', 'bpchar', 'char', 'name', 'citext'])
const DATETIME: Record<string, ScalarName> = { date: 'Date', time: 'Time', timetz: 'Time', timestamp: 'Datetime', timestamptz: 'Datetime' }

/** The scalar an aggregate of this column answers with, or null when the column has none. */
export function aggregateType(column: ColumnModel, op: AggregateOp): ScalarName | null {
  const type = column.pgType
  if (op === 'sum') return INTEGER.has(type) ? 'BigInt' : NUMERIC.has(type) ? 'BigFloat' : null
  if (op === 'avg') return NUMERIC.has(type) ? 'BigFloat' : null
  if (NUMERIC.has(type)) return type === 'int2' || type === 'int4' ? 'Int' : type === 'int8' ? 'BigInt' : 'BigFloat'
  if (STRING.has(type)) return 'String'
  if (DATETIME[type]) return DATETIME[type]
  if (type === 'bool') return 'Boolean'
  return null
}

export const aggregatable = (table: TableModel, op: AggregateOp) => table.columns.filter((column) => aggregateType(column, op) !== null)

/** The SQL of one aggregate of a column (booleans have no min/max in PostgreSQL: bool_and/bool_or are theirs). */
export function aggregateExpression(column: ColumnModel, op: AggregateOp, expression: string): string {
  const result = aggregateType(column, op)
  let call = `${op}(${expression})`
  if (column.pgType === 'bool') call = op === 'min' ? `bool_and(${expression})` : `bool_or(${expression})`
  // Numbers stay JSON numbers here: pg_graphql answers aggregates so, though their types are BigInt and BigFloat.
  return result === null ? 'NULL' : call
}
