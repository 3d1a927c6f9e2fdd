import {
  GraphQLBoolean, GraphQLEnumType, GraphQLFloat, GraphQLID, GraphQLInputObjectType, GraphQLInt, GraphQLInterfaceType, GraphQLList,
  GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString,
  type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap, type GraphQLInputFieldConfigMap, type GraphQLInputType, type GraphQLOutputType,
  type GraphQLScalarType, Kind, type ValueNode,
} from 'graphql'
import type { Maybe } from 'graphql/jsutils/Maybe'
import type { ObjMap } from 'graphql/jsutils/ObjMap'
import { AGGREGATE_OPS, aggregatable, aggregateType } from './aggregate.js'
import type { FunctionModel, GqlType, Model, ScalarName, TableModel } from './model.js'
import {
  BigFloatScalar, BigIntScalar, CursorScalar, DateScalar, DatetimeScalar, JSONScalar, OpaqueScalar, TimeScalar, UUIDScalar,
} from './scalars.js'

/** The key of a row object the engine answers with, naming its GraphQL type (for the Node interface). */
export const TYPE_KEY = '@type'

const SCALAR_TYPES: Record<ScalarName, GraphQLScalarType> = {
  Int: GraphQLInt, Float: GraphQLFloat, String: GraphQLString, Boolean: GraphQLBoolean, BigInt: BigIntScalar, BigFloat: BigFloatScalar,
  Date: DateScalar, Datetime: DatetimeScalar, Time: TimeScalar, JSON: JSONScalar, UUID: UUIDScalar, Opaque: OpaqueScalar,
}

/** Which ops each scalar's filter has (pg_graphql's lists; JSON has no filter). */
const ORDERED = ['eq', 'gt', 'gte', 'in', 'is', 'lt', 'lte', 'neq']
const FILTER_OPS: Partial<Record<ScalarName | 'ID', string[]>> = {
  Int: ORDERED, Float: ORDERED, BigInt: ORDERED, BigFloat: ORDERED, Date: ORDERED, Time: ORDERED, Datetime: ORDERED,
  String: [...ORDERED, 'ilike', 'iregex', 'like', 'regex', 'startsWith'].sort(),
  UUID: ['eq', 'in', 'is', 'neq'],
  Boolean: ['eq', 'is'],
  Opaque: ['eq', 'is'],
  ID: ['eq'],
}

/** An enum that also takes its value as a string literal (`{eq: "free"}`), as pg_graphql does. */
class LenientEnumType extends GraphQLEnumType {
  override parseLiteral(node: ValueNode, variables: Maybe<ObjMap<unknown>>): unknown {
    if (node.kind === Kind.STRING) return this.parseValue(node.value)
    return super.parseLiteral(node, variables)
  }
}

const nonNull = <T extends GraphQLOutputType | GraphQLInputType>(type: T) => new GraphQLNonNull(type)

/** graphql-js types for pg_graphql's schema of a model: built once per (project, role, catalog). */
export function buildSchema(model: Model): GraphQLSchema {
  const filterIs = new GraphQLEnumType({ name: 'FilterIs', values: { NULL: {}, NOT_NULL: {} } })
  const orderByDirection = new GraphQLEnumType({
    name: 'OrderByDirection',
    description: 'Defines a per-field sorting order',
    values: {
      AscNullsFirst: { description: 'Ascending order, nulls first' },
      AscNullsLast: { description: 'Ascending order, nulls last' },
      DescNullsFirst: { description: 'Descending order, nulls first' },
      DescNullsLast: { description: 'Descending order, nulls last' },
    },
  })
  const nodeInterface = new GraphQLInterfaceType({
    name: 'Node',
    fields: { nodeId: { type: nonNull(GraphQLID), description: 'Retrieves a record by `ID`' } },
    resolveType: (value: Record<string, unknown>) => value[TYPE_KEY] as string,
  })
  const pageInfo = new GraphQLObjectType({
    name: 'PageInfo',
    fields: {
      endCursor: { type: GraphQLString },
      hasNextPage: { type: nonNull(GraphQLBoolean) },
      hasPreviousPage: { type: nonNull(GraphQLBoolean) },
      startCursor: { type: GraphQLString },
    },
  })
  const enumTypes = new Map(
    model.enums.map((model) => [
      model,
      new LenientEnumType({
        name: model.name,
        description: model.type.directives.description,
        values: Object.fromEntries(model.values.map((value) => [value.name, { value: value.label }])),
      }),
    ]),
  )

  const objects = new Map<TableModel, GraphQLObjectType>()
  const connections = new Map<TableModel, GraphQLObjectType>()
  const filters = new Map<TableModel, GraphQLInputObjectType>()
  const orderBys = new Map<TableModel, GraphQLInputObjectType>()
  const opFilters = new Map<string, GraphQLInputObjectType>()

  const leafType = (type: GqlType): GraphQLOutputType & GraphQLInputType => {
    if (type.kind === 'scalar') return SCALAR_TYPES[type.name]
    if (type.kind === 'enum') return enumTypes.get(type.enum)!
    if (type.kind === 'list') return new GraphQLList(leafType(type.of))
    throw new Error('A table type is not a leaf')
  }
  const outputType = (type: GqlType): GraphQLOutputType => (type.kind === 'table' ? objectOf(type.table) : leafType(type))

  /** `IntFilter`, `StringFilter`, `<Enum>Filter`, `IntListFilter`, `IDFilter`: one per compared type. */
  const opFilterOf = (type: GqlType | 'ID'): GraphQLInputObjectType | null => {
    let name: string
    let ops: string[]
    let inner: GraphQLInputType
    if (type === 'ID') [name, ops, inner] = ['ID', FILTER_OPS.ID!, GraphQLID]
    else if (type.kind === 'scalar') {
      if (!FILTER_OPS[type.name]) return null
      ;[name, ops, inner] = [type.name, FILTER_OPS[type.name]!, SCALAR_TYPES[type.name]]
    } else if (type.kind === 'enum') [name, ops, inner] = [type.enum.name, ['eq', 'in', 'is', 'neq'], enumTypes.get(type.enum)!]
    else if (type.kind === 'list' && type.of.kind !== 'list' && type.of.kind !== 'table') {
      if (type.of.kind === 'scalar' && type.of.name === 'JSON') return null
      name = `${type.of.kind === 'scalar' ? type.of.name : type.of.enum.name}List`
      ops = ['containedBy', 'contains', 'eq', 'is', 'overlaps']
      inner = leafType(type.of)
    } else return null
    const known = opFilters.get(name)
    if (known) return known
    const listed = type !== 'ID' && type.kind === 'list'
    const fields: GraphQLInputFieldConfigMap = {}
    for (const op of ops) {
      if (op === 'is') fields.is = { type: filterIs }
      else if (op === 'in' || listed) fields[op] = { type: new GraphQLList(nonNull(inner)) }
      else fields[op] = { type: inner }
    }
    const filter = new GraphQLInputObjectType({ name: `${name}Filter`, description: `Boolean expression comparing fields on type "${name}"`, fields })
    opFilters.set(name, filter)
    return filter
  }

  const filterOf = (table: TableModel): GraphQLInputObjectType => {
    let filter = filters.get(table)
    if (filter) return filter
    filter = new GraphQLInputObjectType({
      name: `${table.typeName}Filter`,
      description: `Boolean expression comparing fields on type "${table.typeName}"`,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {}
        for (const column of table.columns) {
          const type = opFilterOf(column.type)
          if (type) fields[column.field] = { type }
        }
        fields.nodeId = { type: opFilterOf('ID')! }
        const self = filterOf(table)
        if (!fields.and) fields.and = { type: new GraphQLList(nonNull(self)), description: 'Returns true only if all its inner filters are true, otherwise returns false' }
        if (!fields.or) fields.or = { type: new GraphQLList(nonNull(self)), description: 'Returns true if at least one of its inner filters is true, otherwise returns false' }
        if (!fields.not) fields.not = { type: self, description: 'Negates a filter' }
        return fields
      },
    })
    filters.set(table, filter)
    return filter
  }

  const orderByOf = (table: TableModel): GraphQLInputObjectType => {
    let orderBy = orderBys.get(table)
    if (orderBy) return orderBy
    const fields: GraphQLInputFieldConfigMap = {}
    for (const column of table.columns) {
      if (column.type.kind === 'enum' || (column.type.kind === 'scalar' && column.type.name !== 'JSON')) fields[column.field] = { type: orderByDirection }
    }
    orderBy = new GraphQLInputObjectType({ name: `${table.typeName}OrderBy`, fields })
    orderBys.set(table, orderBy)
    return orderBy
  }

  const connectionArgs = (table: TableModel): GraphQLFieldConfigArgumentMap => ({
    first: { type: GraphQLInt, description: 'Query the first `n` records in the collection' },
    last: { type: GraphQLInt, description: 'Query the last `n` records in the collection' },
    before: { type: CursorScalar, description: 'Query values in the collection before the provided cursor' },
    after: { type: CursorScalar, description: 'Query values in the collection after the provided cursor' },
    offset: { type: GraphQLInt, description: 'Skip n values from the after cursor. Alternative to cursor pagination. Backward pagination not supported.' },
    filter: { type: filterOf(table), description: 'Filters to apply to the results set when querying from the collection' },
    orderBy: { type: new GraphQLList(nonNull(orderByOf(table))), description: 'Sort order to apply to the collection' },
  })

  const aggregateOf = (table: TableModel): GraphQLObjectType => {
    const fields: Record<string, GraphQLFieldConfig<unknown, unknown>> = {
      count: { type: nonNull(GraphQLInt), description: 'The number of records matching the query' },
    }
    for (const { op, typeWord, description, term } of AGGREGATE_OPS) {
      const columns = aggregatable(table, op)
      if (columns.length === 0) continue
      fields[op] = {
        description,
        type: new GraphQLObjectType({
          name: `${table.typeName}${typeWord}AggregateResult`,
          description: `Result of ${term.toLowerCase() === 'sum' ? 'summation' : term.toLowerCase()} aggregation for \`${table.typeName}\``,
          fields: Object.fromEntries(columns.map((column) => [column.field, { type: SCALAR_TYPES[aggregateType(column, op)!], description: `${term} of ${column.field} across all matching records` }])),
        }),
      }
    }
    return new GraphQLObjectType({ name: `${table.typeName}Aggregate`, description: `Aggregate results for \`${table.typeName}\``, fields })
  }

  const connectionOf = (table: TableModel): GraphQLObjectType => {
    let connection = connections.get(table)
    if (connection) return connection
    const edge = new GraphQLObjectType({
      name: `${table.typeName}Edge`,
      fields: () => ({ cursor: { type: nonNull(GraphQLString) }, node: { type: nonNull(objectOf(table)) } }),
    })
    connection = new GraphQLObjectType({
      name: `${table.typeName}Connection`,
      fields: () => ({
        edges: { type: nonNull(new GraphQLList(nonNull(edge))) },
        pageInfo: { type: nonNull(pageInfo) },
        ...(table.totalCount ? { totalCount: { type: nonNull(GraphQLInt), description: 'The total number of records matching the `filter` criteria' } } : {}),
        ...(table.aggregate ? { aggregate: { type: aggregateOf(table), description: `Aggregate functions calculated on the collection of \`${table.typeName}\`` } } : {}),
      }),
    })
    connections.set(table, connection)
    return connection
  }

  const functionField = (fn: FunctionModel): GraphQLFieldConfig<unknown, unknown> => {
    const args: GraphQLFieldConfigArgumentMap = {}
    for (const arg of fn.args) {
      const type = leafType(arg.type)
      args[arg.field] = { type: arg.arg.hasDefault ? type : nonNull(type) }
    }
    if (fn.returns.kind === 'table' && fn.fn.returnsSet) {
      return { type: nonNull(connectionOf(fn.returns.table)), args: { ...args, ...connectionArgs(fn.returns.table) }, description: fn.fn.directives.description }
    }
    return { type: outputType(fn.returns), args, description: fn.fn.directives.description }
  }

  const objectOf = (table: TableModel): GraphQLObjectType => {
    let object = objects.get(table)
    if (object) return object
    object = new GraphQLObjectType({
      name: table.typeName,
      description: table.info.directives.description,
      interfaces: [nodeInterface],
      fields: () => {
        const fields: Record<string, GraphQLFieldConfig<unknown, unknown>> = {}
        for (const [name, field] of table.fields) {
          if (field.kind === 'nodeId') fields[name] = { type: nonNull(GraphQLID), description: 'Globally Unique Record Identifier' }
          else if (field.kind === 'column') {
            const type = leafType(field.column.type)
            fields[name] = { type: field.column.info.notNull ? nonNull(type) : type, description: field.column.info.directives.description }
          } else if (field.kind === 'relation') {
            fields[name] = field.many
              ? { type: connectionOf(field.target), args: connectionArgs(field.target) }
              : { type: field.nonNull ? nonNull(objectOf(field.target)) : objectOf(field.target) }
          } else fields[name] = functionField(field)
        }
        return fields
      },
    })
    objects.set(table, object)
    return object
  }

  const mutationResponse = (table: TableModel, verb: string) =>
    new GraphQLObjectType({
      name: `${table.typeName}${verb}Response`,
      fields: () => ({
        affectedCount: { type: nonNull(GraphQLInt), description: 'Count of the records impacted by the mutation' },
        records: { type: nonNull(new GraphQLList(nonNull(objectOf(table)))), description: 'Array of records impacted by the mutation' },
      }),
    })
  const inputOf = (table: TableModel, suffix: string, columns: TableModel['insertColumns']) =>
    new GraphQLInputObjectType({
      name: `${table.typeName}${suffix}`,
      fields: Object.fromEntries(columns.map((column) => [column.field, { type: leafType(column.type) }])),
    })

  const queryFields: Record<string, GraphQLFieldConfig<unknown, unknown>> = {
    node: { type: nodeInterface, args: { nodeId: { type: nonNull(GraphQLID), description: "The record's `ID`" } }, description: 'Retrieve a record by its `ID`' },
  }
  const mutationFields: Record<string, GraphQLFieldConfig<unknown, unknown>> = {}
  for (const table of model.tables) {
    queryFields[table.collectionField] = { type: nonNull(connectionOf(table)), args: connectionArgs(table), description: `A pagable collection of type \`${table.typeName}\`` }
    const byPk: GraphQLFieldConfigArgumentMap = {}
    for (const column of table.primaryKey) {
      byPk[column.field] = { type: nonNull(leafType(column.type)), description: `The record's \`${column.info.name}\` value` }
    }
    queryFields[`${table.collectionField.slice(0, -'Collection'.length)}ByPk`] = {
      type: objectOf(table), args: byPk, description: `Retrieve a record of type \`${table.typeName}\` by its primary key`,
    }
    if (table.insertColumns.length > 0) {
      mutationFields[`insertInto${table.typeName}Collection`] = {
        type: mutationResponse(table, 'Insert'),
        args: { objects: { type: nonNull(new GraphQLList(nonNull(inputOf(table, 'InsertInput', table.insertColumns)))) } },
        description: `Adds one or more \`${table.typeName}\` records to the collection`,
      }
    }
    if (table.updateColumns.length > 0) {
      mutationFields[`update${table.typeName}Collection`] = {
        type: nonNull(mutationResponse(table, 'Update')),
        args: {
          set: { type: nonNull(inputOf(table, 'UpdateInput', table.updateColumns)), description: 'Fields that are set will be updated for all records matching the `filter`' },
          filter: { type: filterOf(table), description: "Restricts the mutation's impact to records matching the criteria" },
          atMost: { type: nonNull(GraphQLInt), defaultValue: 1, description: 'The maximum number of records in the collection permitted to be affected' },
        },
        description: `Updates zero or more records in the \`${table.typeName}\` collection`,
      }
    }
    if (table.info.canDelete) {
      mutationFields[`deleteFrom${table.typeName}Collection`] = {
        type: nonNull(mutationResponse(table, 'Delete')),
        args: {
          filter: { type: filterOf(table), description: "Restricts the mutation's impact to records matching the criteria" },
          atMost: { type: nonNull(GraphQLInt), defaultValue: 1, description: 'The maximum number of records in the collection permitted to be affected' },
        },
        description: `Deletes zero or more records from the \`${table.typeName}\` collection`,
      }
    }
  }
  for (const fn of model.queryFunctions) if (!queryFields[fn.field]) queryFields[fn.field] = functionField(fn)
  for (const fn of model.mutationFunctions) if (!mutationFields[fn.field]) mutationFields[fn.field] = functionField(fn)

  const sorted = <T>(fields: Record<string, T>) => Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  // Every scalar's filters exist, compared or not (pg_graphql lists them all).
  const filterTypes: GraphQLInputObjectType[] = []
  for (const name of Object.keys(FILTER_OPS) as Array<ScalarName | 'ID'>) {
    const single = opFilterOf(name === 'ID' ? 'ID' : { kind: 'scalar', name })
    if (single) filterTypes.push(single)
    if (name !== 'ID') {
      const list = opFilterOf({ kind: 'list', of: { kind: 'scalar', name } })
      if (list) filterTypes.push(list)
    }
  }
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', description: 'The root type for querying data', fields: sorted(queryFields) }),
    mutation: Object.keys(mutationFields).length > 0
      ? new GraphQLObjectType({ name: 'Mutation', description: 'The root type for creating and mutating data', fields: sorted(mutationFields) })
      : undefined,
    // Tables reached only through the Node interface still need their types in the schema; pg_graphql lists every scalar.
    types: [...model.tables.map(objectOf), ...enumTypes.values(), ...Object.values(SCALAR_TYPES), CursorScalar, ...filterTypes],
  })
  // Listed by name, as pg_graphql lists them: graphql-js keeps the order of `types`, which go first.
  return new GraphQLSchema({
    ...schema.toConfig(),
    types: Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__')).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  })
}
