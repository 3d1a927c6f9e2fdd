import { quoteIdentifier } from '../literals.js'
import { cellSql, keyLiteral, qualifiedName, TableEditorInputError, type CellInput, type RelationName } from './names.js'

/** A row's primary key: the key columns' values, as text, in key order. */
export interface RowKey {
  columns: readonly string[]
  values: readonly (string | null)[]
}

function keyCondition(key: RowKey): string {
  if (key.columns.length === 0) throw new TableEditorInputError('Rows are edited and deleted by primary key, and this table has none')
  if (key.columns.length !== key.values.length) throw new TableEditorInputError('The key has a value for each key column')
  return key.columns.map((column, index) => `${quoteIdentifier(column)} = ${keyLiteral(key.values[index] ?? null)}`).join(' AND ')
}

/** INSERT of one row; columns left out take their defaults. */
export function buildInsertRow(relation: RelationName, values: Readonly<Record<string, CellInput>>): string {
  const entries = Object.entries(values).filter(([, input]) => input.kind !== 'default')
  const target = qualifiedName(relation)
  if (entries.length === 0) return `INSERT INTO ${target} DEFAULT VALUES`
  const columns = entries.map(([name]) => quoteIdentifier(name)).join(', ')
  return `INSERT INTO ${target} (${columns}) VALUES (${entries.map(([, input]) => cellSql(input)).join(', ')})`
}

/** UPDATE of one row found by its primary key. */
export function buildUpdateRow(relation: RelationName, key: RowKey, values: Readonly<Record<string, CellInput>>): string {
  const entries = Object.entries(values)
  if (entries.length === 0) throw new TableEditorInputError('Nothing to update')
  const assignments = entries.map(([name, input]) => `${quoteIdentifier(name)} = ${cellSql(input)}`).join(', ')
  return `UPDATE ${qualifiedName(relation)} SET ${assignments} WHERE ${keyCondition(key)}`
}

/** DELETE of the rows with these keys (one statement). */
export function buildDeleteRows(relation: RelationName, keys: readonly RowKey[]): string {
  if (keys.length === 0) throw new TableEditorInputError('No rows to delete')
  return `DELETE FROM ${qualifiedName(relation)} WHERE ${keys.map((key) => `(${keyCondition(key)})`).join(' OR ')}`
}
