import { ident, qualified, roleName } from './quote.js'
import type { CatalogSnapshot, ObjectRef } from './snapshot.js'

/**
 * A snapshot flattened into named objects, each compared on its own: two sides that each add a different
 * column to one table changed different objects (no conflict); the same column changed both ways is one
 * object changed differently (a conflict). `definition` is what is compared; `order` is not (creation order
 * differs between copies); `owner` names the object it goes with (a column its table, a grant its relation),
 * so dropping the owner drops it too.
 */
export type ObjectKind =
  | 'schema'
  | 'extension'
  | 'enum'
  | 'sequence'
  | 'table'
  | 'column'
  | 'constraint'
  | 'index'
  | 'view'
  | 'function'
  | 'trigger'
  | 'policy'
  | 'grant'
  | 'publication'
  | 'publication-table'
  | 'domain'
  | 'column-grant'
  | 'routine-grant'
  | 'comment'
  | 'ownership'
  | 'other'

export interface CatalogObject<D = unknown> {
  key: string
  kind: ObjectKind
  /** How a person reads it: `table public.tags`, `column public.tags.label`. */
  label: string
  definition: D
  owner: string | null
  order: number
}

export type CatalogObjects = Map<string, CatalogObject>

/** A unique key from the kind and the raw names (JSON: no separator inside a name can make two keys equal). */
export const objectKey = (kind: ObjectKind, ...names: (string | null)[]): string => `${kind}:${JSON.stringify(names)}`
export const tableKey = (schema: string, table: string) => objectKey('table', schema, table)
export const viewKey = (schema: string, name: string) => objectKey('view', schema, name)
export const sequenceKey = (schema: string, name: string) => objectKey('sequence', schema, name)
export const functionKey = (schema: string, name: string, args: string) => objectKey('function', schema, name, args)

/** The key of the object a reference names (a materialized view is a view, a procedure a function). */
export const refKey = (ref: ObjectRef): string =>
  objectKey(ref.kind === 'matview' ? 'view' : ref.kind === 'procedure' ? 'function' : ref.kind, ...ref.names)

/** How SQL names a referenced object after COMMENT ON or ALTER ... OWNER TO: `TABLE public.tags`, `COLUMN public.tags.label`. */
export function refSql(ref: ObjectRef): string {
  const [a = '', b = '', c = ''] = ref.names
  switch (ref.kind) {
    case 'schema':
      return `SCHEMA ${ident(a)}`
    case 'enum':
      return `TYPE ${qualified(a, b)}`
    case 'domain':
      return `DOMAIN ${qualified(a, b)}`
    case 'sequence':
      return `SEQUENCE ${qualified(a, b)}`
    case 'table':
      return `TABLE ${qualified(a, b)}`
    case 'view':
      return `VIEW ${qualified(a, b)}`
    case 'matview':
      return `MATERIALIZED VIEW ${qualified(a, b)}`
    case 'function':
      return `FUNCTION ${qualified(a, b)}(${c})`
    case 'procedure':
      return `PROCEDURE ${qualified(a, b)}(${c})`
    case 'index':
      return `INDEX ${qualified(a, b)}`
    case 'column':
      return `COLUMN ${qualified(a, b)}.${ident(c)}`
    case 'constraint':
      return `CONSTRAINT ${ident(c)} ON ${qualified(a, b)}`
    case 'trigger':
      return `TRIGGER ${ident(c)} ON ${qualified(a, b)}`
    case 'policy':
      return `POLICY ${ident(c)} ON ${qualified(a, b)}`
  }
}

/** Keys of a relation by its names, whichever kind it is in this snapshot. */
function relationKeyIn(snapshot: CatalogSnapshot): (schema: string, name: string, kind?: string) => string {
  const views = new Set(snapshot.views.map((view) => viewKey(view.schema, view.name)))
  return (schema, name, kind) => {
    if (kind === 'S') return sequenceKey(schema, name)
    return views.has(viewKey(schema, name)) ? viewKey(schema, name) : tableKey(schema, name)
  }
}

const withoutOrder = <T extends { order: number }>({ order: _order, ...rest }: T) => rest

export function catalogObjects(snapshot: CatalogSnapshot): CatalogObjects {
  const objects: CatalogObjects = new Map()
  const relationKey = relationKeyIn(snapshot)
  const add = (kind: ObjectKind, names: (string | null)[], label: string, definition: unknown, owner: string | null = null, order = 0) => {
    const key = objectKey(kind, ...names)
    objects.set(key, { key, kind, label, definition, owner, order })
  }
  for (const schema of snapshot.schemas) add('schema', [schema.name], `schema ${ident(schema.name)}`, schema)
  for (const extension of snapshot.extensions) add('extension', [extension.name], `extension ${ident(extension.name)}`, extension)
  for (const type of snapshot.enums) add('enum', [type.schema, type.name], `type ${qualified(type.schema, type.name)}`, type)
  for (const sequence of snapshot.sequences) {
    const owner = sequence.ownedBy ? tableKey(sequence.ownedBy.schema, sequence.ownedBy.table) : null
    add('sequence', [sequence.schema, sequence.name], `sequence ${qualified(sequence.schema, sequence.name)}`, sequence, owner)
  }
  for (const table of snapshot.tables) add('table', [table.schema, table.name], `table ${qualified(table.schema, table.name)}`, table)
  for (const column of snapshot.columns) {
    const { position, ...definition } = column
    add('column', [column.schema, column.table, column.name], `column ${qualified(column.schema, column.table)}.${ident(column.name)}`, definition, tableKey(column.schema, column.table), position)
  }
  for (const constraint of snapshot.constraints) {
    add('constraint', [constraint.schema, constraint.table, constraint.name], `constraint ${ident(constraint.name)} on ${qualified(constraint.schema, constraint.table)}`, constraint, tableKey(constraint.schema, constraint.table))
  }
  for (const index of snapshot.indexes) {
    add('index', [index.schema, index.name], `index ${qualified(index.schema, index.name)}`, index, relationKey(index.schema, index.table))
  }
  for (const view of snapshot.views) {
    add('view', [view.schema, view.name], `${view.materialized ? 'materialized view' : 'view'} ${qualified(view.schema, view.name)}`, withoutOrder(view), null, view.order)
  }
  for (const fn of snapshot.functions) {
    add('function', [fn.schema, fn.name, fn.args], `${fn.kind === 'p' ? 'procedure' : 'function'} ${qualified(fn.schema, fn.name)}(${fn.args})`, withoutOrder(fn), null, fn.order)
  }
  for (const trigger of snapshot.triggers) {
    add('trigger', [trigger.schema, trigger.table, trigger.name], `trigger ${ident(trigger.name)} on ${qualified(trigger.schema, trigger.table)}`, trigger, relationKey(trigger.schema, trigger.table))
  }
  for (const policy of snapshot.policies) {
    add('policy', [policy.schema, policy.table, policy.name], `policy ${ident(policy.name)} on ${qualified(policy.schema, policy.table)}`, policy, tableKey(policy.schema, policy.table))
  }
  for (const grant of snapshot.grants) {
    add('grant', [grant.schema, grant.table, grant.grantee], `privileges of ${roleName(grant.grantee)} on ${qualified(grant.schema, grant.table)}`, grant, relationKey(grant.schema, grant.table, grant.kind))
  }
  for (const domain of snapshot.domains ?? []) {
    add('domain', [domain.schema, domain.name], `domain ${qualified(domain.schema, domain.name)}`, withoutOrder(domain), null, domain.order)
  }
  for (const grant of snapshot.columnGrants ?? []) {
    add('column-grant', [grant.schema, grant.table, grant.column, grant.grantee], `privileges of ${roleName(grant.grantee)} on column ${qualified(grant.schema, grant.table)}.${ident(grant.column)}`, grant, objectKey('column', grant.schema, grant.table, grant.column))
  }
  for (const grant of snapshot.routineGrants ?? []) {
    add('routine-grant', [grant.schema, grant.name, grant.args, grant.grantee], `privileges of ${roleName(grant.grantee)} on ${grant.kind === 'p' ? 'procedure' : 'function'} ${qualified(grant.schema, grant.name)}(${grant.args})`, grant, functionKey(grant.schema, grant.name, grant.args))
  }
  for (const comment of snapshot.comments ?? []) {
    add('comment', [refKey(comment.target)], `comment on ${refSql(comment.target)}`, comment, refKey(comment.target))
  }
  for (const owner of snapshot.owners ?? []) {
    add('ownership', [refKey(owner.target)], `owner of ${refSql(owner.target)}`, owner, refKey(owner.target))
  }
  for (const other of snapshot.others ?? []) add('other', [other.kind, other.identity], `${other.kind} ${other.identity}`, other)
  for (const publication of snapshot.publications) add('publication', [publication.name], `publication ${ident(publication.name)}`, publication)
  for (const member of snapshot.publicationTables) {
    add('publication-table', [member.publication, member.schema, member.table], `table ${qualified(member.schema, member.table)} in publication ${ident(member.publication)}`, member, tableKey(member.schema, member.table))
  }
  return objects
}

/** Equality of definitions whatever their keys' order (a snapshot stored as JSONB comes back with its keys reordered). */
export function sameDefinition(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b)
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>
    return `{${Object.keys(record).sort().filter((key) => record[key] !== undefined).map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(',')}}`
  }
  return JSON.stringify(value ?? null)
}
