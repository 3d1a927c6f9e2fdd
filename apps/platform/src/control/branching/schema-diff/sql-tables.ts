import { sameDefinition, tableKey, type CatalogObject } from './catalog-objects.js'
import { ident, qualified } from './quote.js'
import type { ColumnDef, SequenceDef, TableDef } from './snapshot.js'
import { goesWithOwner, type EmitContext, type Emitter, type Statement } from './statements.js'

/** Sequences, tables and their columns. Row security is a table's too, written with the policies (sql-access.ts). */

const sequenceOptions = (s: SequenceDef) =>
  `AS ${s.type} INCREMENT BY ${s.increment} MINVALUE ${s.min} MAXVALUE ${s.max} START WITH ${s.start} CACHE ${s.cache} ${s.cycle ? 'CYCLE' : 'NO CYCLE'}`

export const sequenceSql: Emitter<SequenceDef> = (from, to, context) => {
  // A sequence owned by a dropped column or table goes with it: IF EXISTS.
  if (!to) return goesWithOwner(from, context) ? [] : [{ phase: 'drop-sequences', sql: `DROP SEQUENCE IF EXISTS ${qualified(from!.definition.schema, from!.definition.name)}` }]
  const next = to.definition
  const name = qualified(next.schema, next.name)
  const statements: Statement[] = []
  const ownedBy = next.ownedBy
  if (!from) statements.push({ phase: 'sequences', sql: `CREATE SEQUENCE ${name} ${sequenceOptions(next)}` })
  else if (sequenceOptions(from.definition) !== sequenceOptions(next)) statements.push({ phase: 'sequences', sql: `ALTER SEQUENCE ${name} ${sequenceOptions(next)}` })
  if (!sameDefinition(from?.definition.ownedBy ?? null, ownedBy)) {
    const owner = ownedBy ? `${qualified(ownedBy.schema, ownedBy.table)}.${ident(ownedBy.column)}` : 'NONE'
    statements.push({ phase: 'sequence-ownership', sql: `ALTER SEQUENCE ${name} OWNED BY ${owner}` })
  }
  return statements
}

/** A column as CREATE TABLE and ADD COLUMN write it. */
export function columnDefinition(column: ColumnDef): string {
  const parts = [ident(column.name), column.type]
  if (column.collation) parts.push(`COLLATE ${column.collation}`)
  if (column.generated) parts.push(`GENERATED ALWAYS AS (${column.generated}) STORED`)
  if (column.identity) parts.push(`GENERATED ${column.identity === 'a' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`)
  if (column.default !== null) parts.push(`DEFAULT ${column.default}`)
  if (column.notNull) parts.push('NOT NULL')
  return parts.join(' ')
}

/** A new table is written whole, with the new columns the branch has for it (they are not added again one by one). */
export const tableSql: Emitter<TableDef> = (from, to, context) => {
  if (!to) return [{ phase: 'drop-tables', sql: `DROP TABLE ${qualified(from!.definition.schema, from!.definition.name)}`, order: from!.definition.partitionOf ? 0 : 1 }]
  const next = to.definition
  const name = qualified(next.schema, next.name)
  if (!from) return [{ phase: 'tables', sql: createTable(next, context), order: next.partitionOf ? 1 : 0 }]
  const old = from.definition
  const statements: Statement[] = []
  if (old.kind !== next.kind || old.partitionKey !== next.partitionKey || old.partitionBound !== next.partitionBound || !sameDefinition(old.partitionOf, next.partitionOf)) {
    context.unsupported.push(`table ${name}: its partitioning changed (make it again in a migration)`)
  }
  if (old.persistence !== next.persistence) statements.push({ phase: 'tables', sql: `ALTER TABLE ${name} SET ${next.persistence === 'u' ? 'UNLOGGED' : 'LOGGED'}` })
  return statements
}

function createTable(table: TableDef, context: EmitContext): string {
  const name = qualified(table.schema, table.name)
  const unlogged = table.persistence === 'u' ? 'UNLOGGED ' : ''
  const partitioned = table.partitionKey ? ` PARTITION BY ${table.partitionKey}` : ''
  if (table.partitionOf) {
    return `CREATE ${unlogged}TABLE ${name} PARTITION OF ${qualified(table.partitionOf.schema, table.partitionOf.name)} ${table.partitionBound ?? 'DEFAULT'}${partitioned}`
  }
  const key = tableKey(table.schema, table.name)
  const columns = [...context.branch.values()]
    .filter((object): object is CatalogObject<ColumnDef> => object.kind === 'column' && object.owner === key && context.created.has(object.key))
    .sort((a, b) => a.order - b.order)
    .map((column) => `  ${columnDefinition(column.definition)}`)
  return `CREATE ${unlogged}TABLE ${name} (${columns.length ? `\n${columns.join(',\n')}\n` : ''})${partitioned}`
}

/**
 * Columns: added, dropped or changed in place (type with a cast from the old one, default, NOT NULL,
 * identity). A stored generated column whose expression changed is dropped and added again (its values are
 * computed anyway).
 */
export const columnSql: Emitter<ColumnDef> = (from, to, context) => {
  if (!to) {
    if (goesWithOwner(from, context)) return []
    const old = from!.definition
    return [{ phase: 'drop-columns', sql: `ALTER TABLE ${qualified(old.schema, old.table)} DROP COLUMN ${ident(old.name)}` }]
  }
  const next = to.definition
  const table = qualified(next.schema, next.table)
  // Written inside its new table's CREATE TABLE.
  if (!from && to.owner && context.created.has(to.owner)) return []
  if (!from) return [{ phase: 'columns', sql: `ALTER TABLE ${table} ADD COLUMN ${columnDefinition(next)}` }]
  const old = from.definition
  const column = ident(next.name)
  const alter = (clause: string): Statement => ({ phase: 'columns', sql: `ALTER TABLE ${table} ALTER COLUMN ${column} ${clause}` })
  if (old.generated !== next.generated) {
    return [
      { phase: 'columns', sql: `ALTER TABLE ${table} DROP COLUMN ${column}` },
      { phase: 'columns', sql: `ALTER TABLE ${table} ADD COLUMN ${columnDefinition(next)}` },
    ]
  }
  const statements: Statement[] = []
  const retyped = old.type !== next.type || old.collation !== next.collation
  if (old.identity && old.identity !== next.identity && !next.identity) statements.push(alter('DROP IDENTITY'))
  // A default is dropped before a new type (it may not cast) and set again after.
  if (old.default !== null && (retyped || next.default === null)) statements.push(alter('DROP DEFAULT'))
  if (retyped) statements.push(alter(`TYPE ${next.type}${next.collation ? ` COLLATE ${next.collation}` : ''} USING ${column}::${next.type}`))
  if (next.notNull && !old.notNull) statements.push(alter('SET NOT NULL'))
  if (next.identity && !old.identity) statements.push(alter(`ADD GENERATED ${next.identity === 'a' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`))
  if (next.identity && old.identity && next.identity !== old.identity) statements.push(alter(`SET GENERATED ${next.identity === 'a' ? 'ALWAYS' : 'BY DEFAULT'}`))
  if (next.default !== null && (retyped || next.default !== old.default)) statements.push(alter(`SET DEFAULT ${next.default}`))
  if (!next.notNull && old.notNull) statements.push(alter('DROP NOT NULL'))
  return statements
}
