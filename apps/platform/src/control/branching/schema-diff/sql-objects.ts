import { refSql } from './catalog-objects.js'
import { ident, literal, qualified, roleName } from './quote.js'
import type { CommentDef, DomainDef, OtherObjectDef, OwnerDef } from './snapshot.js'
import { goesWithOwner, type Emitter, type Statement } from './statements.js'

/** Domains, comments, owners, and the objects the comparer does not write (reported). */

function createDomain(domain: Omit<DomainDef, 'order'>): string {
  const parts = [`CREATE DOMAIN ${qualified(domain.schema, domain.name)} AS ${domain.type}`]
  if (domain.collation) parts.push(`COLLATE ${domain.collation}`)
  if (domain.default !== null) parts.push(`DEFAULT ${domain.default}`)
  if (domain.notNull) parts.push('NOT NULL')
  for (const check of domain.checks) parts.push(`CONSTRAINT ${ident(check.name)} ${check.definition}`)
  return parts.join(' ')
}

/**
 * A domain is made whole, or changed in place (default, NOT NULL, its CHECK constraints dropped and added by
 * name). Its underlying type cannot change in place: reported.
 */
export const domainSql: Emitter<Omit<DomainDef, 'order'>> = (from, to, context) => {
  if (!to) return [{ phase: 'drop-domains', sql: `DROP DOMAIN ${qualified(from!.definition.schema, from!.definition.name)}` }]
  const next = to.definition
  if (!from) return [{ phase: 'domains', sql: createDomain(next), order: to.order }]
  const old = from.definition
  const name = qualified(next.schema, next.name)
  if (old.type !== next.type || old.collation !== next.collation) {
    context.unsupported.push(`domain ${name}: its type or collation changed (make it again in a migration)`)
    return []
  }
  const alter = (clause: string): Statement => ({ phase: 'domains', sql: `ALTER DOMAIN ${name} ${clause}`, order: to.order })
  const statements: Statement[] = []
  if (old.default !== next.default) statements.push(alter(next.default === null ? 'DROP DEFAULT' : `SET DEFAULT ${next.default}`))
  if (old.notNull !== next.notNull) statements.push(alter(next.notNull ? 'SET NOT NULL' : 'DROP NOT NULL'))
  const checks = new Map(next.checks.map((check) => [check.name, check.definition]))
  const oldChecks = new Map(old.checks.map((check) => [check.name, check.definition]))
  for (const [checkName, definition] of oldChecks) if (checks.get(checkName) !== definition) statements.push(alter(`DROP CONSTRAINT ${ident(checkName)}`))
  for (const [checkName, definition] of checks) if (oldChecks.get(checkName) !== definition) statements.push(alter(`ADD CONSTRAINT ${ident(checkName)} ${definition}`))
  return statements
}

/** COMMENT ON the object; a comment the branch removed is set to NULL (unless its object goes). */
export const commentSql: Emitter<CommentDef> = (from, to, context) => {
  if (to) return [{ phase: 'comments', sql: `COMMENT ON ${refSql(to.definition.target)} IS ${literal(to.definition.text)}` }]
  if (goesWithOwner(from, context)) return []
  return [{ phase: 'comments', sql: `COMMENT ON ${refSql(from!.definition.target)} IS NULL` }]
}

/**
 * Owners other than the role the merge runs as (which owns what it makes): ALTER ... OWNER TO. An object the
 * branch gave back to that role is given back on the parent too. Postgres refuses a role the parent lacks, or
 * one the merge's role may not become, with its own message.
 */
export const ownershipSql: Emitter<OwnerDef> = (from, to, context) => {
  if (to) return [{ phase: 'ownership', sql: `ALTER ${refSql(to.definition.target)} OWNER TO ${roleName(to.definition.role)}` }]
  if (goesWithOwner(from, context)) return []
  return [{ phase: 'ownership', sql: `ALTER ${refSql(from!.definition.target)} OWNER TO ${roleName(context.creator)}` }]
}

/** Objects of kinds the comparer cannot write: each change is named, so that nothing is lost silently. */
export const otherSql: Emitter<OtherObjectDef> = (from, to, context) => {
  const object = (to ?? from)!.definition
  const what = !from ? 'made' : !to ? 'dropped' : 'changed'
  context.notCompared.push(`${object.kind} ${object.identity} (${what} on the branch)`)
  return []
}
