import type { FieldNode } from 'graphql'
import { GraphqlEngineError } from './errors.js'
import { filterCondition } from './filter.js'
import type { TableModel } from './model.js'
import { Compiler, nodeObject, type RowSource } from './select.js'
import { ident, jsonObject, literal } from './sql.js'

/**
 * Mutations as one statement each: a data-modifying CTE and a select of what it returned. For update and
 * delete, atMost is checked in the same statement: past it, the statement fails and the transaction rolls back.
 */
export function insertStatement(c: Compiler, table: TableModel, args: Record<string, unknown>, nodes: FieldNode[]): string {
  const objects = args.objects as Array<Record<string, unknown>>
  if (!Array.isArray(objects) || objects.length === 0) throw new GraphqlEngineError('At least one record must be provided to objects')
  const columns = table.insertColumns.filter((column) => objects.some((object) => object[column.field] !== undefined))
  for (const object of objects) {
    const extra = Object.keys(object).filter((key) => !table.insertColumns.some((column) => column.field === key))
    if (extra.length > 0) throw new GraphqlEngineError(`Input for type ${table.typeName}InsertInput contains extra keys ${JSON.stringify(extra)}`)
  }
  const target = columns.length === 0 ? 'DEFAULT VALUES' : `(${columns.map((column) => ident(column.info.name)).join(', ')}) VALUES ${objects
    .map((object) => `(${columns.map((column) => (object[column.field] === undefined ? 'DEFAULT' : c.params.typed(object[column.field], column.sqlType))).join(', ')})`)
    .join(', ')}`
  if (columns.length === 0 && objects.length > 1) throw new GraphqlEngineError('At least one field must be provided for each record')
  return response(c, table, `INSERT INTO ${table.sql} ${target} RETURNING *`, nodes, 'Insert', null)
}

export function updateStatement(c: Compiler, table: TableModel, args: Record<string, unknown>, nodes: FieldNode[]): string {
  const set = (args.set ?? {}) as Record<string, unknown>
  const columns = table.updateColumns.filter((column) => set[column.field] !== undefined)
  if (columns.length === 0) throw new GraphqlEngineError('At least one mapping must be provided to set argument')
  const block = c.block()
  const assignments = columns.map((column) => `${ident(column.info.name)} = ${c.params.typed(set[column.field], column.sqlType)}`)
  const where = filterCondition(table, block, args.filter, c.params)
  return response(c, table, `UPDATE ${table.sql} ${block} SET ${assignments.join(', ')} WHERE ${where} RETURNING ${block}.*`, nodes, 'Update', atMost(args))
}

export function deleteStatement(c: Compiler, table: TableModel, args: Record<string, unknown>, nodes: FieldNode[]): string {
  const block = c.block()
  const where = filterCondition(table, block, args.filter, c.params)
  return response(c, table, `DELETE FROM ${table.sql} ${block} WHERE ${where} RETURNING ${block}.*`, nodes, 'Delete', atMost(args))
}

function atMost(args: Record<string, unknown>): number {
  const value = args.atMost
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new GraphqlEngineError('atMost must be a non-negative integer')
  return value
}

function response(c: Compiler, table: TableModel, modify: string, nodes: FieldNode[], verb: 'Insert' | 'Update' | 'Delete', limit: number | null): string {
  const fields = c.fields([`${table.typeName}${verb}Response`], nodes)
  const pairs: Array<[string, string]> = []
  for (const [key, fieldNodes] of fields) {
    const name = fieldNodes[0]!.name.value
    if (name === 'affectedCount') pairs.push([key, 'total.n'])
    else if (name === 'records') {
      const block = c.block()
      // Returned rows are not the table's rows (they come from the CTE): computed fields get them cast back.
      const source: RowSource = { block, row: `(ROW(${block}.*)::${table.sql})` }
      pairs.push([key, `coalesce((SELECT json_agg(${nodeObject(c, table, source, fieldNodes)}) FROM affected ${block}), '[]'::json)`])
    } else if (name !== '__typename') throw new GraphqlEngineError(`Unknown field "${name}" on type ${table.typeName}${verb}Response`)
  }
  const body = jsonObject(pairs)
  const value = limit === null
    ? body
    : `CASE WHEN total.n > ${c.params.add(limit)}::int8 THEN (${literal(`${verb.toLowerCase()} impacts too many records`)} || ' ' || total.n)::int::text::json ELSE ${body} END`
  return `WITH affected AS (${modify}) SELECT ${value} AS value FROM (SELECT count(*) AS n FROM affected) total`
}
