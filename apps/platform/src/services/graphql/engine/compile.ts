import type { FieldNode, GraphQLSchema, OperationDefinitionNode } from 'graphql'
import { GraphqlEngineError } from './errors.js'
import { collectFields, type CollectContext } from './fields.js'
import { nodeIdCondition, primaryKeyCondition } from './filter.js'
import { decodeNodeId } from './ids.js'
import type { Model, TableModel } from './model.js'
import { deleteStatement, insertStatement, updateStatement } from './mutation.js'
import { Compiler, connection, functionCall, functionResult, nodeObject } from './select.js'
import { jsonObject } from './sql.js'

/** One SQL statement and its parameters; its single row's `value` column is the JSON of its fields. */
export interface Statement {
  sql: string
  params: unknown[]
  /** The response keys its JSON holds. */
  keys: string[]
}

const INTROSPECTION = new Set(['__schema', '__type', '__typename'])

/**
 * A query operation as ONE statement: every top-level field is a subquery of a single select, nested
 * collections included (never a statement per row). Introspection fields are left to graphql-js.
 */
export function compileQuery(schema: GraphQLSchema, model: Model, collect: CollectContext, operation: OperationDefinitionNode): Statement | null {
  const c = new Compiler(schema, model, collect)
  const pairs: Array<[string, string]> = []
  for (const [key, nodes] of collectFields(collect, ['Query'], operation.selectionSet)) {
    const node = nodes[0]!
    const name = node.name.value
    if (INTROSPECTION.has(name)) continue
    pairs.push([key, queryField(c, model, name, node, nodes)])
  }
  if (pairs.length === 0) return null
  return { sql: `SELECT ${jsonObject(pairs)} AS value`, params: c.params.values, keys: pairs.map(([key]) => key) }
}

function queryField(c: Compiler, model: Model, name: string, node: FieldNode, nodes: FieldNode[]): string {
  const args = c.args('Query', node)
  if (name === 'node') {
    const decoded = decodeNodeId(args.nodeId as string)
    const table = model.bySchemaAndName.get(JSON.stringify([decoded.schema, decoded.table]))
    if (!table) return 'NULL::json'
    const block = c.block()
    return `(SELECT ${nodeObject(c, table, { block, row: block }, nodes, true)} FROM ${table.sql} ${block} WHERE ${nodeIdCondition(table, block, args.nodeId as string, c.params)})`
  }
  const collection = model.tables.find((table) => table.collectionField === name)
  if (collection) {
    const block = c.block()
    return connection(c, collection, args, nodes, { from: `${collection.sql} ${block}`, block, row: block, join: [] })
  }
  const byPk = model.tables.find((table) => `${table.collectionField.slice(0, -'Collection'.length)}ByPk` === name)
  if (byPk) {
    const block = c.block()
    const values = byPk.primaryKey.map((column) => args[column.field])
    return `(SELECT ${nodeObject(c, byPk, { block, row: block }, nodes)} FROM ${byPk.sql} ${block} WHERE ${primaryKeyCondition(byPk, block, values, c.params)})`
  }
  const fn = model.queryFunctions.find((candidate) => candidate.field === name)
  if (fn) return functionResult(c, fn, functionCall(c, fn, args), 'Query', nodes)
  throw new GraphqlEngineError(`Unknown field "${name}" on type Query`)
}

/** A mutation operation: one statement per top-level field, run in order in one transaction. */
export function compileMutation(schema: GraphQLSchema, model: Model, collect: CollectContext, operation: OperationDefinitionNode): Statement[] {
  const statements: Statement[] = []
  for (const [key, nodes] of collectFields(collect, ['Mutation'], operation.selectionSet)) {
    const node = nodes[0]!
    const name = node.name.value
    if (INTROSPECTION.has(name)) continue
    const c = new Compiler(schema, model, collect)
    const args = c.args('Mutation', node)
    const sql = mutationField(c, model, name, args, nodes)
    statements.push({ sql, params: c.params.values, keys: [key] })
  }
  return statements
}

function mutationField(c: Compiler, model: Model, name: string, args: Record<string, unknown>, nodes: FieldNode[]): string {
  const find = (prefix: string, suffix: string): TableModel | undefined =>
    name.startsWith(prefix) && name.endsWith(suffix) ? model.byTypeName.get(name.slice(prefix.length, name.length - suffix.length)) : undefined
  const insert = find('insertInto', 'Collection')
  if (insert) return insertStatement(c, insert, args, nodes)
  const update = find('update', 'Collection')
  if (update) return updateStatement(c, update, args, nodes)
  const remove = find('deleteFrom', 'Collection')
  if (remove) return deleteStatement(c, remove, args, nodes)
  const fn = model.mutationFunctions.find((candidate) => candidate.field === name)
  // to_jsonb: a date or a number answered as JSON, as every other value (the driver would make a Date of it).
  if (fn) return `SELECT to_jsonb(${functionResult(c, fn, functionCall(c, fn, args), 'Mutation', nodes)}) AS value`
  throw new GraphqlEngineError(`Unknown field "${name}" on type Mutation`)
}
