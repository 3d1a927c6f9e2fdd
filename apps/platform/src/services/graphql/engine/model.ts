import type { Catalog, ColumnInfo, FunctionArg, FunctionInfo, TableInfo, TypeInfo } from './catalog.js'
import { argName, baseTypeName, columnFieldName, functionFieldName, isGraphqlName, lowerFirst, relationFieldName } from './naming.js'

/** pg_graphql's page size when no `max_rows` directive sets one. */
export const DEFAULT_MAX_ROWS = 30

export type ScalarName = 'Int' | 'Float' | 'String' | 'Boolean' | 'BigInt' | 'BigFloat' | 'Date' | 'Datetime' | 'Time' | 'JSON' | 'UUID' | 'Opaque'

/** The GraphQL shape of a SQL type, before it becomes a graphql-js type. */
export type GqlType =
  | { kind: 'scalar'; name: ScalarName }
  | { kind: 'enum'; enum: EnumModel }
  | { kind: 'list'; of: GqlType }
  | { kind: 'table'; table: TableModel }

export interface EnumModel {
  type: TypeInfo
  name: string
  /** GraphQL value → PostgreSQL label. */
  values: Array<{ name: string; label: string }>
}

export interface ColumnModel {
  info: ColumnInfo
  field: string
  type: GqlType
  /** The column's type as a SQL cast target. */
  sqlType: string
  /** PostgreSQL's name of the (base) type: int4, text, timestamptz... */
  pgType: string
}

export interface RelationModel {
  kind: 'relation'
  field: string
  target: TableModel
  /** Join: target.foreignColumns[i] = this.localColumns[i]. */
  localColumns: string[]
  foreignColumns: string[]
  many: boolean
  nonNull: boolean
}

export interface ArgModel {
  field: string
  arg: FunctionArg
  type: GqlType
  sqlType: string
}

export interface FunctionModel {
  kind: 'function'
  field: string
  fn: FunctionInfo
  returns: GqlType
  /** The function's row-type argument when it is a computed field. */
  args: ArgModel[]
}

export type FieldModel = { kind: 'nodeId' } | { kind: 'column'; column: ColumnModel } | RelationModel | FunctionModel

export interface TableModel {
  info: TableInfo
  typeName: string
  collectionField: string
  /** Every column the role may read, with a GraphQL name. */
  columns: ColumnModel[]
  /** Columns of the insert and update inputs. */
  insertColumns: ColumnModel[]
  updateColumns: ColumnModel[]
  primaryKey: ColumnModel[]
  fields: Map<string, FieldModel>
  maxRows: number
  totalCount: boolean
  aggregate: boolean
  /** The SQL name of the table, quoted. */
  sql: string
}

export interface Model {
  schemas: Catalog['schemas']
  tables: TableModel[]
  byTypeName: Map<string, TableModel>
  bySchemaAndName: Map<string, TableModel>
  enums: EnumModel[]
  queryFunctions: FunctionModel[]
  mutationFunctions: FunctionModel[]
}

const SCALARS: Record<number, ScalarName> = {
  20: 'BigInt', 16: 'Boolean', 1082: 'Date', 1184: 'Datetime', 1114: 'Datetime', 701: 'Float', 23: 'Int', 21: 'Int', 700: 'Float',
  3802: 'JSON', 114: 'JSON', 1083: 'Time', 2950: 'UUID', 1700: 'BigFloat', 25: 'String', 18: 'String', 1042: 'String', 1043: 'String',
}

const CONNECTION_ARGS = new Set(['first', 'last', 'before', 'after', 'offset', 'filter', 'orderBy'])

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/** Builds pg_graphql's model of the reflected catalog: names, fields and relations, what the role may do. */
export function buildModel(catalog: Catalog): Model {
  const inflectOf = new Map(catalog.schemas.map((schema) => [schema.oid, schema.directives.inflect_names === true]))
  const schemaRows = new Map(catalog.schemas.map((schema) => [schema.oid, schema.directives.max_rows]))
  const enums = new Map<number, EnumModel>()
  const tablesByOid = new Map<number, TableModel>()
  const exposedSchemas = new Set(catalog.schemas.map((schema) => schema.oid))
  const schemaOidByName = new Map(catalog.schemas.map((schema) => [schema.name, schema.oid]))
  const usedTypeNames = new Set<string>()

  const enumOf = (type: TypeInfo): EnumModel | null => {
    const known = enums.get(type.oid)
    if (known) return known
    const schemaOid = schemaOidByName.get(type.schema)
    if (schemaOid === undefined) return null
    const name = baseTypeName(type.name, inflectOf.get(schemaOid) ?? false, type.directives.name)
    if (!isGraphqlName(name) || usedTypeNames.has(name)) return null
    const mappings = type.directives.mappings ?? {}
    const values = type.enumValues.map((label) => ({ name: mappings[label] ?? label, label })).filter((value) => isGraphqlName(value.name))
    if (values.length === 0) return null
    usedTypeNames.add(name)
    const model = { type, name, values }
    enums.set(type.oid, model)
    return model
  }

  /** The GraphQL shape of a type; null when pg_graphql leaves it out (pseudo types, composites, records). */
  const gqlTypeOf = (oid: number, setOf = false): GqlType | null => {
    let type = catalog.types.get(oid)
    while (type?.baseOid) type = catalog.types.get(type.baseOid)
    if (!type) return null
    if (type.kind === 'p') return null
    if (type.relationOid !== null && type.kind === 'c') {
      const table = tablesByOid.get(type.relationOid)
      return table ? { kind: 'table', table } : null
    }
    if (setOf) return null
    if (type.elementOid !== null) {
      const element = catalog.types.get(type.elementOid)
      const inner = element && element.usable ? gqlTypeOf(element.oid) : { kind: 'scalar' as const, name: 'Opaque' as const }
      return inner && inner.kind !== 'list' && inner.kind !== 'table' ? { kind: 'list', of: inner } : null
    }
    if (type.kind === 'e') {
      const model = exposedSchemas.has(schemaOidByName.get(type.schema) ?? -1) ? enumOf(type) : null
      return model ? { kind: 'enum', enum: model } : { kind: 'scalar', name: 'Opaque' }
    }
    if (type.kind === 'c') return null
    const scalar = SCALARS[type.oid] ?? (type.name === 'citext' ? 'String' : 'Opaque')
    return { kind: 'scalar', name: scalar }
  }
  const sqlTypeOf = (oid: number) => catalog.types.get(oid)?.sql ?? 'text'
  const baseTypeOf = (oid: number) => {
    let type = catalog.types.get(oid)
    while (type?.baseOid) type = catalog.types.get(type.baseOid)
    return type?.name ?? ''
  }

  // Tables first (their row types are needed by functions and relations).
  for (const info of catalog.tables) {
    const inflect = inflectOf.get(info.schemaOid) ?? false
    const typeName = baseTypeName(info.name, inflect, info.directives.name)
    if (!isGraphqlName(typeName) || !info.primaryKey || !info.canSelect || usedTypeNames.has(typeName)) continue
    usedTypeNames.add(typeName)
    const maxRows = info.directives.max_rows ?? schemaRows.get(info.schemaOid) ?? DEFAULT_MAX_ROWS
    tablesByOid.set(info.oid, {
      info,
      typeName,
      collectionField: `${lowerFirst(typeName)}Collection`,
      columns: [],
      insertColumns: [],
      updateColumns: [],
      primaryKey: [],
      fields: new Map(),
      maxRows,
      totalCount: info.directives.totalCount?.enabled === true,
      aggregate: info.directives.aggregate?.enabled === true,
      sql: `${quote(info.schema)}.${quote(info.name)}`,
    })
  }

  for (const table of tablesByOid.values()) {
    const inflect = inflectOf.get(table.info.schemaOid) ?? false
    const all: ColumnModel[] = []
    for (const info of table.info.columns) {
      const type = gqlTypeOf(info.typeOid)
      const field = columnFieldName(info.name, inflect, info.directives.name)
      if (!type || type.kind === 'table' || !isGraphqlName(field) || field === 'nodeId') continue
      all.push({ info, field, type, sqlType: sqlTypeOf(info.typeOid), pgType: baseTypeOf(info.typeOid) })
    }
    table.columns = all.filter((column) => column.info.canSelect)
    table.insertColumns = table.info.canInsert ? all.filter((column) => column.info.canInsert) : []
    table.updateColumns = table.info.canUpdate ? all.filter((column) => column.info.canUpdate) : []
    const byName = new Map(table.columns.map((column) => [column.info.name, column]))
    const primaryKey = table.info.primaryKey!.map((name) => byName.get(name))
    if (primaryKey.some((column) => column === undefined)) {
      // The role may not read the whole key: no node id, no cursor; pg_graphql leaves such a table out.
      tablesByOid.delete(table.info.oid)
      continue
    }
    table.primaryKey = primaryKey as ColumnModel[]
    table.fields.set('nodeId', { kind: 'nodeId' })
    for (const column of table.columns) table.fields.set(column.field, { kind: 'column', column })
  }

  // Relations from foreign keys and from views' `foreign_keys` directives.
  const keys = [...catalog.foreignKeys]
  for (const table of tablesByOid.values()) {
    for (const fk of table.info.directives.foreign_keys ?? []) {
      const target = [...tablesByOid.values()].find((other) => other.info.schema === fk.foreign_schema && other.info.name === fk.foreign_table)
      if (!target) continue
      keys.push({ name: '', localTable: table.info.oid, foreignTable: target.info.oid, localColumns: fk.local_columns, foreignColumns: fk.foreign_columns,
        directives: { local_name: fk.local_name, foreign_name: fk.foreign_name } })
    }
  }
  for (const key of keys) {
    const local = tablesByOid.get(key.localTable)
    const foreign = tablesByOid.get(key.foreignTable)
    if (!local || !foreign) continue
    const readable = (table: TableModel, columns: string[]) => columns.every((name) => table.columns.some((column) => column.info.name === name))
    if (!readable(local, key.localColumns) || !readable(foreign, key.foreignColumns)) continue
    const localNotNull = key.localColumns.some((name) => local.info.columns.find((column) => column.name === name)?.notNull)
    addField(local, {
      kind: 'relation',
      field: relationFieldName({ otherTypeName: foreign.typeName, columns: key.localColumns, inflect: inflectOf.get(foreign.info.schemaOid) ?? false, unique: true, override: key.directives.foreign_name }),
      target: foreign,
      localColumns: key.localColumns,
      foreignColumns: key.foreignColumns,
      many: false,
      nonNull: localNotNull && !foreign.info.rlsEnabled,
    })
    const unique = local.info.uniqueKeys.some((cols) => cols.length === key.localColumns.length && cols.every((name) => key.localColumns.includes(name)))
      || (local.info.primaryKey?.length === key.localColumns.length && local.info.primaryKey.every((name) => key.localColumns.includes(name)))
    addField(foreign, {
      kind: 'relation',
      field: relationFieldName({ otherTypeName: local.typeName, columns: key.foreignColumns, inflect: inflectOf.get(local.info.schemaOid) ?? false, unique, override: key.directives.local_name }),
      target: local,
      localColumns: key.foreignColumns,
      foreignColumns: key.localColumns,
      many: !unique,
      nonNull: !unique,
    })
  }

  for (const type of catalog.types.values()) {
    if (type.kind === 'e' && type.usable && exposedSchemas.has(schemaOidByName.get(type.schema) ?? -1)) enumOf(type)
  }

  // Functions: computed fields (a table's row as the only argument without a default), query and mutation fields.
  const queryFunctions: FunctionModel[] = []
  const mutationFunctions: FunctionModel[] = []
  const nameCount = new Map<string, number>()
  for (const fn of catalog.functions) nameCount.set(`${fn.schemaOid}.${fn.name}`, (nameCount.get(`${fn.schemaOid}.${fn.name}`) ?? 0) + 1)
  for (const fn of catalog.functions) {
    if (!fn.plainArgs || (nameCount.get(`${fn.schemaOid}.${fn.name}`) ?? 0) > 1) continue
    const inflect = inflectOf.get(fn.schemaOid) ?? false
    const field = functionFieldName(fn.name, inflect, fn.directives.name)
    if (!isGraphqlName(field)) continue
    const returns = gqlTypeOf(fn.returnTypeOid, fn.returnsSet)
    if (!returns) continue
    if (returns.kind === 'table' && !tablesByOid.has(returns.table.info.oid)) continue
    const first = fn.args[0]
    const rowOf = first ? [...tablesByOid.values()].find((table) => table.info.rowTypeOid === first.typeOid) : undefined
    if (rowOf) {
      if (fn.args.slice(1).some((arg) => !arg.hasDefault)) continue
      // A computed field may replace a column of the same name (pg_graphql answers with the function's value).
      if (rowOf.fields.get(field)?.kind === 'column') rowOf.fields.delete(field)
      addField(rowOf, { kind: 'function', field, fn, returns, args: [] })
      continue
    }
    const args: ArgModel[] = []
    let supported = true
    for (const arg of fn.args) {
      const type = arg.name ? gqlTypeOf(arg.typeOid) : null
      if (!arg.name || !type || type.kind === 'table') {
        supported = false
        break
      }
      args.push({ field: argName(arg.name, inflect), arg, type, sqlType: sqlTypeOf(arg.typeOid) })
    }
    if (!supported || args.some((arg) => !isGraphqlName(arg.field))) continue
    // A page of rows takes the connection's arguments: a function argument of the same name cannot be told apart.
    if (returns.kind === 'table' && fn.returnsSet && args.some((arg) => CONNECTION_ARGS.has(arg.field))) continue
    const model: FunctionModel = { kind: 'function', field, fn, returns, args }
    ;(fn.volatility === 'v' ? mutationFunctions : queryFunctions).push(model)
  }

  const tables = [...tablesByOid.values()]
  return {
    schemas: catalog.schemas,
    tables,
    byTypeName: new Map(tables.map((table) => [table.typeName, table])),
    bySchemaAndName: new Map(tables.map((table) => [JSON.stringify([table.info.schema, table.info.name]), table])),
    enums: [...enums.values()],
    queryFunctions,
    mutationFunctions,
  }
}

/** The first field of a name wins: a relation or function never hides a column. */
function addField(table: TableModel, field: FieldModel & { field: string }): void {
  if (!isGraphqlName(field.field) || table.fields.has(field.field)) return
  table.fields.set(field.field, field)
}
