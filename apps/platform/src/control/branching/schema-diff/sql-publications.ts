import { ident, literal, qualified } from './quote.js'
import type { CatalogSnapshot, PublicationDef } from './snapshot.js'
import { goesWithOwner, type Emitter, type Statement } from './statements.js'
import { objectKey } from './catalog-objects.js'

/**
 * Publications (what realtime and logical replication stream) and the tables in them. Row filters,
 * column lists and whole schemas in a publication are not compared.
 */

const publishList = (p: PublicationDef) =>
  literal((['insert', 'update', 'delete', 'truncate'] as const).filter((action) => p[action]).join(', '))

export const publicationSql: Emitter<PublicationDef> = (from, to, context) => {
  if (!to) return [{ phase: 'drop-publications', sql: `DROP PUBLICATION ${ident(from!.definition.name)}` }]
  const next = to.definition
  const name = ident(next.name)
  if (!from) return [{ phase: 'publications', sql: `CREATE PUBLICATION ${name}${next.allTables ? ' FOR ALL TABLES' : ''} WITH (publish = ${publishList(next)})` }]
  const statements: Statement[] = []
  if (from.definition.allTables !== next.allTables) context.unsupported.push(`publication ${name}: FOR ALL TABLES changed`)
  if (publishList(from.definition) !== publishList(next)) statements.push({ phase: 'publications', sql: `ALTER PUBLICATION ${name} SET (publish = ${publishList(next)})` })
  return statements
}

type Member = CatalogSnapshot['publicationTables'][number]

export const publicationTableSql: Emitter<Member> = (from, to, context) => {
  if (to) {
    const next = to.definition
    return [{ phase: 'publications', sql: `ALTER PUBLICATION ${ident(next.publication)} ADD TABLE ${qualified(next.schema, next.table)}`, order: 1 }]
  }
  const old = from!.definition
  if (goesWithOwner(from, context) || context.dropped.has(objectKey('publication', old.publication))) return []
  return [{ phase: 'drop-publications', sql: `ALTER PUBLICATION ${ident(old.publication)} DROP TABLE ${qualified(old.schema, old.table)}`, order: -1 }]
}
