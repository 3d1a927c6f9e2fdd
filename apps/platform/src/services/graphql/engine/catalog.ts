import type { Directives } from './directives.js'

/** What the engine reads from the database, as the request's role: only what that role may use. */
export interface Catalog {
  schemas: SchemaInfo[]
  tables: TableInfo[]
  foreignKeys: ForeignKeyInfo[]
  functions: FunctionInfo[]
  /** Every type a column, argument or result uses, by oid. */
  types: Map<number, TypeInfo>
}

export interface SchemaInfo {
  oid: number
  name: string
  directives: Directives
}

export interface ColumnInfo {
  name: string
  typeOid: number
  notNull: boolean
  hasDefault: boolean
  /** Generated or identity ALWAYS: never written. */
  readOnly: boolean
  maxChars: number | null
  directives: Directives
  canSelect: boolean
  canInsert: boolean
  canUpdate: boolean
}

export interface TableInfo {
  oid: number
  schema: string
  schemaOid: number
  name: string
  /** r table, p partitioned, v view, m materialized view, f foreign table. */
  kind: string
  /** The row type's oid: functions taking it are computed fields. */
  rowTypeOid: number
  directives: Directives
  columns: ColumnInfo[]
  /** The primary key's columns, or the `primary_key_columns` directive's for views; null when none. */
  primaryKey: string[] | null
  /** Column sets of unique indexes without a predicate (a to-one reverse relation). */
  uniqueKeys: string[][]
  rlsEnabled: boolean
  canSelect: boolean
  canInsert: boolean
  canUpdate: boolean
  canDelete: boolean
}

export interface ForeignKeyInfo {
  name: string
  localTable: number
  localColumns: string[]
  foreignTable: number
  foreignColumns: string[]
  directives: Directives
}

export interface FunctionArg {
  name: string | null
  typeOid: number
  hasDefault: boolean
}

export interface FunctionInfo {
  oid: number
  schema: string
  schemaOid: number
  name: string
  /** i immutable, s stable, v volatile. */
  volatility: string
  returnsSet: boolean
  returnTypeOid: number
  args: FunctionArg[]
  /** Only IN arguments, not variadic: anything else is not exposed. */
  plainArgs: boolean
  directives: Directives
}

export interface TypeInfo {
  oid: number
  schema: string
  name: string
  /** b base, c composite, d domain, e enum, p pseudo, r range, m multirange. */
  kind: string
  category: string
  /** For arrays: the element type. */
  elementOid: number | null
  /** For domains: the base type. */
  baseOid: number | null
  /** For composites: the relation (a table's row type). */
  relationOid: number | null
  /** A SQL expression naming the type, safe to put after `::`. */
  sql: string
  enumValues: string[]
  directives: Directives
  usable: boolean
}
