import { ident, qualified } from './quote.js'
import type { ConstraintDef, IndexDef } from './snapshot.js'
import { goesWithOwner, type Emitter, type Statement } from './statements.js'

/**
 * Constraints (primary key, unique, check, exclusion, then foreign keys once every key they reference
 * exists) and indexes (those that back a constraint come with it). A changed one is dropped and made again.
 */

export const constraintSql: Emitter<ConstraintDef> = (from, to, context) => {
  const statements: Statement[] = []
  if (from && !goesWithOwner(from, context)) {
    const old = from.definition
    statements.push({
      phase: old.type === 'f' ? 'drop-foreign-keys' : 'drop-constraints',
      sql: `ALTER TABLE ${qualified(old.schema, old.table)} DROP CONSTRAINT ${ident(old.name)}`,
    })
  }
  if (to) {
    const next = to.definition
    statements.push({
      phase: next.type === 'f' ? 'foreign-keys' : 'constraints',
      sql: `ALTER TABLE ${qualified(next.schema, next.table)} ADD CONSTRAINT ${ident(next.name)} ${next.definition}`,
    })
  }
  return statements
}

export const indexSql: Emitter<IndexDef> = (from, to, context) => {
  const statements: Statement[] = []
  if (from && !goesWithOwner(from, context)) statements.push({ phase: 'drop-indexes', sql: `DROP INDEX ${qualified(from.definition.schema, from.definition.name)}` })
  if (to) statements.push({ phase: to.definition.onView ? 'view-indexes' : 'indexes', sql: to.definition.definition })
  return statements
}
