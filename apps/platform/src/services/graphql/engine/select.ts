import { getArgumentValues, type FieldNode, type GraphQLObjectType, type GraphQLSchema } from 'graphql'
import { aggregateExpression, aggregateType, AGGREGATE_OPS, type AggregateOp } from './aggregate.js'
import { GraphqlEngineError } from './errors.js'
import { subFields, type CollectContext } from './fields.js'
import { afterCursor, filterCondition, orderClause, orderElements, reversed, type OrderElement } from './filter.js'
import type { FunctionModel, GqlType, Model, TableModel } from './model.js'
import { TYPE_KEY } from './schema.js'
import { base64Json, ident, jsonObject, literal, Params } from './sql.js'

/** What compiling one operation shares: the schema, its model, the fragments and variables, the parameters. */
export class Compiler {
  readonly params = new Params()
  private blocks = 0

  constructor(
    readonly schema: GraphQLSchema,
    readonly model: Model,
    readonly collect: CollectContext,
  ) {}

  /** A fresh table alias: every nested select has its own, so correlations never capture the wrong one. */
  block(): string {
    return `b${++this.blocks}`
  }

  args(typeName: string, node: FieldNode): Record<string, unknown> {
    const type = this.schema.getType(typeName) as GraphQLObjectType
    const field = type.getFields()[node.name.value]
    if (!field) throw new GraphqlEngineError(`Unknown field "${node.name.value}" on type ${typeName}`)
    return getArgumentValues(field, node, this.collect.variables)
  }

  fields(typeNames: string[], nodes: FieldNode[]): Map<string, FieldNode[]> {
    return subFields(this.collect, typeNames, nodes)
  }
}

/** The `aggregate` selection: one pass over every row the filter keeps. */
function aggregateObject(c: Compiler, table: TableModel, nodes: FieldNode[], source: ConnectionSource, filtered: string): string {
  const pairs: Array<[string, string]> = []
  for (const [key, fieldNodes] of c.fields([`${table.typeName}Aggregate`], nodes)) {
    const name = fieldNodes[0]!.name.value
    if (name === 'count') pairs.push([key, 'count(*)'])
    else if (AGGREGATE_OPS.some((entry) => entry.op === name)) {
      const op = name as AggregateOp
      const typeWord = AGGREGATE_OPS.find((entry) => entry.op === op)!.typeWord
      const inner: Array<[string, string]> = []
      for (const [columnKey, columnNodes] of c.fields([`${table.typeName}${typeWord}AggregateResult`], fieldNodes)) {
        const columnName = columnNodes[0]!.name.value
        if (columnName === '__typename') continue
        const column = table.columns.find((candidate) => candidate.field === columnName)
        if (!column || !aggregateType(column, op)) throw new GraphqlEngineError(`Unknown or invalid field "${columnName}" selected on type "${table.typeName}${typeWord}AggregateResult"`)
        inner.push([columnKey, aggregateExpression(column, op, `${source.block}.${ident(column.info.name)}`)])
      }
      pairs.push([key, jsonObject(inner)])
    } else if (name !== '__typename') throw new GraphqlEngineError(`Unknown field "${name}" on type ${table.typeName}Aggregate`)
  }
  return `(SELECT ${jsonObject(pairs)} FROM ${source.from} WHERE ${filtered})`
}

/** A value of a SQL type as the JSON pg_graphql answers: big numbers and JSON as text. */
export function valueExpression(type: GqlType, expression: string): string {
  const asText = (inner: GqlType) => inner.kind === 'scalar' && (inner.name === 'BigInt' || inner.name === 'BigFloat' || inner.name === 'JSON')
  if (asText(type)) return `(${expression})::text`
  if (type.kind === 'list' && asText(type.of)) return `(${expression})::text[]`
  return expression
}

/** The row of a block as the table's row type (computed fields take it): a table alias is one already. */
export interface RowSource {
  block: string
  /** An expression of the table's row type for this block. */
  row: string
}

/** A row of `table` as a JSON object of the selected fields (relations and computed fields as subqueries). */
export function nodeObject(c: Compiler, table: TableModel, source: RowSource, nodes: FieldNode[], withType = false): string {
  const fields = c.fields([table.typeName, 'Node'], nodes)
  const pairs: Array<[string, string]> = withType ? [[TYPE_KEY, literal(table.typeName)]] : []
  const block = source.block
  for (const [key, fieldNodes] of fields) {
    const node = fieldNodes[0]!
    const name = node.name.value
    if (name === '__typename') continue
    const field = table.fields.get(name)
    if (!field) throw new GraphqlEngineError(`Unknown field "${name}" on type ${table.typeName}`)
    if (field.kind === 'nodeId') pairs.push([key, nodeIdExpression(table, block)])
    else if (field.kind === 'column') pairs.push([key, valueExpression(field.column.type, `${block}.${ident(field.column.info.name)}`)])
    else if (field.kind === 'relation') {
      const inner = c.block()
      const join = field.foreignColumns.map((column, index) => `${inner}.${ident(column)} = ${block}.${ident(field.localColumns[index]!)}`)
      if (field.many) {
        pairs.push([key, connection(c, field.target, c.args(table.typeName, node), fieldNodes, { from: `${field.target.sql} ${inner}`, block: inner, row: inner, join })])
      } else {
        pairs.push([key, `(SELECT ${nodeObject(c, field.target, { block: inner, row: inner }, fieldNodes)} FROM ${field.target.sql} ${inner} WHERE ${join.join(' AND ')} LIMIT 1)`])
      }
    } else if (field.kind === 'function') {
      pairs.push([key, functionResult(c, field, `${qualifiedFunction(field)}(${source.row})`, table.typeName, fieldNodes)])
    }
  }
  return jsonObject(pairs)
}

export function nodeIdExpression(table: TableModel, block: string): string {
  return base64Json([`${literal(table.info.schema)}::text`, `${literal(table.info.name)}::text`, ...table.primaryKey.map((column) => `${block}.${ident(column.info.name)}`)])
}

export const qualifiedFunction = (fn: FunctionModel) => `${ident(fn.fn.schema)}.${ident(fn.fn.name)}`

/** A function call's result: a value, one row of a table, or a page of rows (a connection). */
export function functionResult(c: Compiler, fn: FunctionModel, call: string, parentType: string, nodes: FieldNode[]): string {
  if (fn.returns.kind !== 'table') return valueExpression(fn.returns, call)
  const table = fn.returns.table
  const inner = c.block()
  if (fn.fn.returnsSet) {
    return connection(c, table, c.args(parentType, nodes[0]!), nodes, { from: `${call} ${inner}`, block: inner, row: inner, join: [] })
  }
  // A function returning a null row gives one row of nulls: the key (never null in a table) tells.
  const present = table.primaryKey.map((column) => `${inner}.${ident(column.info.name)} IS NOT NULL`).join(' AND ')
  return `(SELECT ${nodeObject(c, table, { block: inner, row: inner }, nodes)} FROM ${call} ${inner} WHERE ${present})`
}

/** The arguments of a Query or Mutation function, by name: omitted ones keep their SQL defaults. */
export function functionCall(c: Compiler, fn: FunctionModel, args: Record<string, unknown>): string {
  const given = fn.args.filter((arg) => args[arg.field] !== undefined)
  const list = given.map((arg) => `${ident(arg.arg.name!)} => ${c.params.typed(args[arg.field], arg.sqlType)}`)
  return `${qualifiedFunction(fn)}(${list.join(', ')})`
}

export interface ConnectionSource extends RowSource {
  /** The FROM item, aliased as `block`. */
  from: string
  /** Conditions joining it to the parent row. */
  join: string[]
}

/**
 * A page of a collection as one subquery: edges, pageInfo and totalCount from a single scan of the page
 * (one row beyond it tells whether there is a next page), ordered by orderBy then the primary key.
 */
export function connection(c: Compiler, table: TableModel, args: Record<string, unknown>, nodes: FieldNode[], source: ConnectionSource): string {
  const first = args.first as number | null | undefined
  const last = args.last as number | null | undefined
  const before = args.before as string | null | undefined
  const after = args.after as string | null | undefined
  const offset = (args.offset as number | null | undefined) ?? 0
  if (first != null && last != null) throw new GraphqlEngineError('only one of "first" and "last" may be provided')
  if (before != null && after != null) throw new GraphqlEngineError('only one of "before" and "after" may be provided')
  if (first != null && before != null) throw new GraphqlEngineError('"first" may only be used with "after"')
  if (last != null && after != null) throw new GraphqlEngineError('"last" may only be used with "before"')
  if (offset !== 0 && (last != null || before != null)) throw new GraphqlEngineError('"offset" may only be used with "first" and "after"')
  for (const [name, value] of [['first', first], ['last', last], ['offset', offset]] as const) {
    if (value != null && value < 0) throw new GraphqlEngineError(`\`${name}\` must be an unsigned integer`)
  }
  const reverse = last != null || before != null
  const limit = Math.min(first ?? last ?? table.maxRows, table.maxRows)

  const block = source.block
  const order = orderElements(table, args.orderBy)
  const scanOrder: OrderElement[] = reverse ? reversed(order) : order
  const where = [...source.join, filterCondition(table, block, args.filter, c.params)]
  const filtered = where.join(' AND ')
  const cursor = before ?? after
  const page = cursor != null ? `${filtered} AND ${afterCursor(block, scanOrder, cursor, c.params)}` : filtered
  // Only built when pageInfo asks: an unused parameter would have no type.
  const notPage = () => (cursor != null ? `${filtered} AND NOT ${afterCursor(block, scanOrder, cursor, c.params)}` : null)

  const fields = c.fields([`${table.typeName}Connection`], nodes)
  const inner: string[] = []
  const outer: Array<[string, string]> = []
  const limitParam = c.params.add(limit)
  const offsetParam = c.params.add(offset)
  const inPage = `x.i <= ${offsetParam}::int8 + ${limitParam}::int8`
  const shown = reverse ? 'x.i DESC' : 'x.i'
  const shownBackwards = reverse ? 'x.i' : 'x.i DESC'
  let cursorNeeded = false
  const cursorExpression = () => base64Json(order.map((element) => `to_jsonb(${block}.${ident(element.column.info.name)})`))
  let nodeCount = 0
  for (const [key, fieldNodes] of fields) {
    const name = fieldNodes[0]!.name.value
    if (name === '__typename') continue
    if (name === 'totalCount') {
      outer.push([key, `(SELECT count(*) FROM ${source.from} WHERE ${filtered})`])
    } else if (name === 'aggregate') {
      outer.push([key, aggregateObject(c, table, fieldNodes, source, filtered)])
    } else if (name === 'edges') {
      const edgeFields = c.fields([`${table.typeName}Edge`], fieldNodes)
      const edge: Array<[string, string]> = []
      for (const [edgeKey, edgeNodes] of edgeFields) {
        const edgeName = edgeNodes[0]!.name.value
        if (edgeName === 'cursor') {
          cursorNeeded = true
          edge.push([edgeKey, 'x.c'])
        } else if (edgeName === 'node') {
          const column = `n${nodeCount++}`
          inner.push(`${nodeObject(c, table, source, edgeNodes)} AS ${column}`)
          edge.push([edgeKey, `x.${column}`])
        } else if (edgeName !== '__typename') throw new GraphqlEngineError(`Unknown field "${edgeName}" on type ${table.typeName}Edge`)
      }
      outer.push([key, `coalesce(json_agg(${jsonObject(edge)} ORDER BY ${shown}) FILTER (WHERE ${inPage}), '[]'::json)`])
    } else if (name === 'pageInfo') {
      const info: Array<[string, string]> = []
      for (const [infoKey, infoNodes] of c.fields(['PageInfo'], fieldNodes)) {
        const infoName = infoNodes[0]!.name.value
        const beyond = `count(*) > ${limitParam}::int8`
        const outside = infoName === (reverse ? 'hasNextPage' : 'hasPreviousPage') ? notPage() : null
        const before = outside ? `EXISTS (SELECT 1 FROM ${source.from} WHERE ${outside})` : 'false'
        const skipped = `(${offsetParam}::int8 > 0 AND EXISTS (SELECT 1 FROM ${source.from} WHERE ${filtered}))`
        if (infoName === 'hasNextPage') info.push([infoKey, reverse ? before : beyond])
        else if (infoName === 'hasPreviousPage') info.push([infoKey, reverse ? beyond : `(${before} OR ${skipped})`])
        else if (infoName === 'startCursor' || infoName === 'endCursor') {
          cursorNeeded = true
          info.push([infoKey, `(array_agg(x.c ORDER BY ${infoName === 'startCursor' ? shown : shownBackwards}) FILTER (WHERE ${inPage}))[1]`])
        } else if (infoName !== '__typename') throw new GraphqlEngineError(`Unknown field "${infoName}" on type PageInfo`)
      }
      outer.push([key, jsonObject(info)])
    } else throw new GraphqlEngineError('unknown field in connection')
  }
  if (cursorNeeded) inner.push(`${cursorExpression()} AS c`)
  inner.push(`row_number() OVER (ORDER BY ${orderClause(block, scanOrder)}) AS i`)
  const scan = `SELECT ${inner.join(', ')} FROM ${source.from} WHERE ${page} ORDER BY ${orderClause(block, scanOrder)} LIMIT ${limitParam}::int8 + 1 OFFSET ${offsetParam}::int8`
  // GROUP BY (): one row even when only pageInfo's booleans (no aggregate) are asked.
  return `(SELECT ${jsonObject(outer)} FROM (${scan}) x GROUP BY ())`
}
