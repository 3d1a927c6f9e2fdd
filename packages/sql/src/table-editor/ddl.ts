import { quoteIdentifier, quoteLiteral } from '../literals.js'
import { checkedExpression, checkedType, qualifiedName, TableEditorInputError, type RelationName } from './names.js'

/** Table and column DDL for the table editor: CREATE/ALTER/DROP TABLE and the columns' parts. */

export const FOREIGN_KEY_ACTIONS = ['NO ACTION', 'RESTRICT', 'CASCADE', 'SET NULL', 'SET DEFAULT'] as const
export type ForeignKeyActionName = (typeof FOREIGN_KEY_ACTIONS)[number]

/** Defaults written as expressions: only these; any other default is a value (a literal). */
export const DEFAULT_EXPRESSIONS = ['now()', 'gen_random_uuid()', 'current_date', 'current_timestamp', "timezone('utc', now())", 'auth.uid()'] as const

export type ColumnDefault = { kind: 'none' } | { kind: 'value'; text: string } | { kind: 'expression'; expression: string }

export interface ForeignKeySpec {
  schema: string
  table: string
  column: string
  onDelete: ForeignKeyActionName
  onUpdate: ForeignKeyActionName
}

export interface ColumnSpec {
  name: string
  /** A built-in type name (`int8`, `numeric(10,2)`, `text[]`) or a quoted user type (userTypeSql). */
  type: string
  default: ColumnDefault
  nullable: boolean
  unique: boolean
  primaryKey: boolean
  identity: 'none' | 'always' | 'by default'
  foreignKey?: ForeignKeySpec
}

function checkedName(name: string, what: string): string {
  if (name.length === 0) throw new TableEditorInputError(`The ${what} name is empty`)
  if (name.length > 63) throw new TableEditorInputError(`The ${what} name is longer than 63 characters`)
  return quoteIdentifier(name)
}

function action(name: string): ForeignKeyActionName {
  const found = FOREIGN_KEY_ACTIONS.find((known) => known === name)
  if (!found) throw new TableEditorInputError(`Unknown foreign key action: ${name}`)
  return found
}

export function defaultSql(value: ColumnDefault): string {
  if (value.kind === 'none') return ''
  if (value.kind === 'value') return quoteLiteral(value.text)
  if (!(DEFAULT_EXPRESSIONS as readonly string[]).includes(value.expression)) throw new TableEditorInputError(`Unsupported default expression: ${value.expression}`)
  return value.expression
}

export function referencesSql(key: ForeignKeySpec): string {
  const target = `${qualifiedName({ schema: key.schema, name: key.table })} (${quoteIdentifier(key.column)})`
  return `REFERENCES ${target} ON DELETE ${action(key.onDelete)} ON UPDATE ${action(key.onUpdate)}`
}

/** A column definition; `inlinePrimaryKey` when it is the table's only key column. */
export function columnDefinition(column: ColumnSpec, inlinePrimaryKey = column.primaryKey): string {
  const parts = [checkedName(column.name, 'column'), checkedType(column.type)]
  if (column.identity !== 'none') {
    if (column.default.kind !== 'none') throw new TableEditorInputError(`${column.name}: an identity column cannot have a default`)
    parts.push(`GENERATED ${column.identity === 'always' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`)
  }
  const fallback = defaultSql(column.default)
  if (fallback) parts.push(`DEFAULT ${fallback}`)
  if (inlinePrimaryKey) parts.push('PRIMARY KEY')
  else if (!column.nullable) parts.push('NOT NULL')
  if (column.unique && !inlinePrimaryKey) parts.push('UNIQUE')
  if (column.foreignKey) parts.push(referencesSql(column.foreignKey))
  return parts.join(' ')
}

export interface CreateTableSpec extends RelationName {
  columns: readonly ColumnSpec[]
  comment?: string
  /** Row level security on from the start (the editor's default, as the API exposes public tables). */
  enableRls: boolean
}

export function buildCreateTable(spec: CreateTableSpec): string {
  const table = `${quoteIdentifier(spec.schema)}.${checkedName(spec.name, 'table')}`
  if (spec.columns.length === 0) throw new TableEditorInputError('A table needs at least one column')
  const names = new Set<string>()
  for (const column of spec.columns) {
    if (names.has(column.name)) throw new TableEditorInputError(`Column ${column.name} appears twice`)
    names.add(column.name)
  }
  const keys = spec.columns.filter((column) => column.primaryKey)
  const lines = spec.columns.map((column) => columnDefinition(column, keys.length === 1 && column.primaryKey))
  if (keys.length > 1) lines.push(`PRIMARY KEY (${keys.map((column) => quoteIdentifier(column.name)).join(', ')})`)
  const statements = [`CREATE TABLE ${table} (\n  ${lines.join(',\n  ')}\n);`]
  if (spec.comment) statements.push(`COMMENT ON TABLE ${table} IS ${quoteLiteral(spec.comment)};`)
  if (spec.enableRls) statements.push(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;`)
  return statements.join('\n')
}

export function buildRenameTable(relation: RelationName, newName: string): string {
  return `ALTER TABLE ${qualifiedName(relation)} RENAME TO ${checkedName(newName, 'table')};`
}

/** Realtime's Postgres changes follow the tables of this publication (Supabase's name). */
export const REALTIME_PUBLICATION = 'supabase_realtime'

/** Adds the table to (or takes it out of) the publication Realtime streams: the table editor's Realtime switch. */
export function buildSetRealtime(relation: RelationName, enabled: boolean): string {
  return `ALTER PUBLICATION ${REALTIME_PUBLICATION} ${enabled ? 'ADD' : 'DROP'} TABLE ${qualifiedName(relation)};`
}

export function buildDropTable(relation: RelationName, cascade: boolean): string {
  return `DROP TABLE ${qualifiedName(relation)}${cascade ? ' CASCADE' : ''};`
}

export function buildAddColumn(relation: RelationName, column: ColumnSpec): string {
  return `ALTER TABLE ${qualifiedName(relation)} ADD COLUMN ${columnDefinition(column)};`
}

export function buildDropColumn(relation: RelationName, column: string, cascade: boolean): string {
  return `ALTER TABLE ${qualifiedName(relation)} DROP COLUMN ${quoteIdentifier(column)}${cascade ? ' CASCADE' : ''};`
}

/** What changes on an existing column; fields left out stay as they are. */
export interface ColumnChange {
  name?: string
  type?: string
  default?: ColumnDefault
  nullable?: boolean
  unique?: boolean
}

/**
 * ALTER TABLE statements for a column's changes, in an order that works: the type before the
 * default (a default must fit the new type), the rename last so the others name the old column.
 * Dropping uniqueness needs the constraint's name, which the caller reads from the catalog.
 */
export function buildAlterColumn(relation: RelationName, column: string, change: ColumnChange, uniqueConstraint?: string): string[] {
  const table = `ALTER TABLE ${qualifiedName(relation)}`
  const name = quoteIdentifier(column)
  const statements: string[] = []
  if (change.type !== undefined) {
    const type = checkedType(change.type)
    statements.push(`${table} ALTER COLUMN ${name} TYPE ${type} USING ${name}::${type};`)
  }
  if (change.default !== undefined) {
    const fallback = defaultSql(change.default)
    statements.push(fallback ? `${table} ALTER COLUMN ${name} SET DEFAULT ${fallback};` : `${table} ALTER COLUMN ${name} DROP DEFAULT;`)
  }
  if (change.nullable !== undefined) statements.push(`${table} ALTER COLUMN ${name} ${change.nullable ? 'DROP' : 'SET'} NOT NULL;`)
  if (change.unique === true) statements.push(`${table} ADD UNIQUE (${name});`)
  if (change.unique === false) {
    if (!uniqueConstraint) throw new TableEditorInputError(`No unique constraint to drop on ${column}`)
    statements.push(`${table} DROP CONSTRAINT ${quoteIdentifier(uniqueConstraint)};`)
  }
  if (change.name !== undefined && change.name !== column) statements.push(`${table} RENAME COLUMN ${name} TO ${checkedName(change.name, 'column')};`)
  return statements
}

export function buildSetRowLevelSecurity(relation: RelationName, enabled: boolean): string {
  return `ALTER TABLE ${qualifiedName(relation)} ${enabled ? 'ENABLE' : 'DISABLE'} ROW LEVEL SECURITY;`
}

export const POLICY_COMMANDS = ['ALL', 'SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const
export type PolicyCommand = (typeof POLICY_COMMANDS)[number]

export interface PolicySpec {
  name: string
  command: PolicyCommand
  permissive: boolean
  /** Role names; `public` (every role) is the PUBLIC keyword. Empty means PUBLIC. */
  roles: readonly string[]
  using?: string
  withCheck?: string
}

export function buildCreatePolicy(relation: RelationName, policy: PolicySpec): string {
  if (!(POLICY_COMMANDS as readonly string[]).includes(policy.command)) throw new TableEditorInputError(`Unknown policy command: ${policy.command}`)
  const roles = policy.roles.length ? policy.roles.map((role) => (role === 'public' ? 'PUBLIC' : quoteIdentifier(role))).join(', ') : 'PUBLIC'
  const using = policy.using?.trim() ? policy.using : undefined
  const check = policy.withCheck?.trim() ? policy.withCheck : undefined
  if (policy.command === 'INSERT' && using) throw new TableEditorInputError('An INSERT policy takes only a WITH CHECK expression')
  if ((policy.command === 'SELECT' || policy.command === 'DELETE') && check) throw new TableEditorInputError(`A ${policy.command} policy takes only a USING expression`)
  const lines = [
    `CREATE POLICY ${checkedName(policy.name, 'policy')} ON ${qualifiedName(relation)}`,
    `  AS ${policy.permissive ? 'PERMISSIVE' : 'RESTRICTIVE'}`,
    `  FOR ${policy.command}`,
    `  TO ${roles}`,
  ]
  if (using) lines.push(`  USING (${checkedExpression(using, 'USING')})`)
  if (check) lines.push(`  WITH CHECK (${checkedExpression(check, 'WITH CHECK')})`)
  return `${lines.join('\n')};`
}

export function buildDropPolicy(relation: RelationName, name: string): string {
  return `DROP POLICY ${quoteIdentifier(name)} ON ${qualifiedName(relation)};`
}
