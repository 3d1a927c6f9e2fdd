import { checkedExpression, TableEditorInputError } from '@stratum/sql'
import { AdminInputError, checkedName, qualified, type TableName } from './names'

/** The access methods a stock Postgres ships that the form offers (spgist and extensions' methods are SQL-only). */
export const INDEX_METHODS = ['btree', 'hash', 'gin', 'gist', 'brin'] as const
export type IndexMethod = (typeof INDEX_METHODS)[number]

export interface IndexSpec {
  table: TableName
  /** Blank: Postgres names it (`<table>_<columns>_idx`). */
  name: string
  method: IndexMethod
  columns: readonly string[]
  unique: boolean
  /** A partial index's WHERE condition; blank for none. */
  where: string
}

/** CREATE [UNIQUE] INDEX [name] ON schema.table USING method (columns) [WHERE condition]. */
export function buildCreateIndex(spec: IndexSpec): string {
  if (!(INDEX_METHODS as readonly string[]).includes(spec.method)) throw new AdminInputError(`Unknown index method: ${spec.method}`)
  if (spec.columns.length === 0) throw new AdminInputError('Choose at least one column')
  if (new Set(spec.columns).size !== spec.columns.length) throw new AdminInputError('A column is chosen twice')
  // Only btree enforces uniqueness in stock Postgres; it would refuse the others anyway, with a vaguer message.
  if (spec.unique && spec.method !== 'btree') throw new AdminInputError('Only a btree index can be unique')
  const name = spec.name.trim() ? ` ${checkedName(spec.name.trim(), 'The index name')}` : ''
  const columns = spec.columns.map((column) => checkedName(column, 'A column name')).join(', ')
  const lines = [`CREATE ${spec.unique ? 'UNIQUE ' : ''}INDEX${name} ON ${qualified(spec.table)} USING ${spec.method} (${columns})`]
  if (spec.where.trim()) lines.push(`  WHERE (${userExpression(spec.where, 'The WHERE condition')})`)
  return `${lines.join('\n')};`
}

export function buildDropIndex(index: TableName): string {
  return `DROP INDEX ${qualified(index)};`
}

/** The table editor's check of a typed expression (one expression, balanced, no ; or -- comment), with this page's error. */
function userExpression(expression: string, what: string): string {
  try {
    return checkedExpression(expression, what)
  } catch (error) {
    if (error instanceof TableEditorInputError) throw new AdminInputError(error.message)
    throw error
  }
}
