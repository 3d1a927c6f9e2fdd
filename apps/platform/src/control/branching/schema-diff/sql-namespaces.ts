import { ident, literal, qualified } from './quote.js'
import type { CatalogSnapshot } from './snapshot.js'
import type { Emitter, Statement } from './statements.js'

/** Schemas, extensions and enumerated types: what tables and functions are made of. */

type SchemaDef = CatalogSnapshot['schemas'][number]
type ExtensionDef = CatalogSnapshot['extensions'][number]
type EnumDef = CatalogSnapshot['enums'][number]

export const schemaSql: Emitter<SchemaDef> = (from, to) => {
  if (!to) return [{ phase: 'drop-schemas', sql: `DROP SCHEMA ${ident(from!.definition.name)}` }]
  if (!from) return [{ phase: 'schemas', sql: `CREATE SCHEMA ${ident(to.definition.name)}` }]
  return []
}

/** Extensions run as `postgres`: trusted ones install, others fail the merge with Postgres's own message. */
export const extensionSql: Emitter<ExtensionDef> = (from, to) => {
  if (!to) return [{ phase: 'drop-extensions', sql: `DROP EXTENSION ${ident(from!.definition.name)}` }]
  const next = to.definition
  if (!from) {
    return [{ phase: 'extensions', sql: `CREATE EXTENSION IF NOT EXISTS ${ident(next.name)} WITH SCHEMA ${ident(next.schema)} VERSION ${literal(next.version)}` }]
  }
  const statements: Statement[] = []
  if (from.definition.schema !== next.schema) statements.push({ phase: 'extensions', sql: `ALTER EXTENSION ${ident(next.name)} SET SCHEMA ${ident(next.schema)}` })
  if (from.definition.version !== next.version) statements.push({ phase: 'extensions', sql: `ALTER EXTENSION ${ident(next.name)} UPDATE TO ${literal(next.version)}` })
  return statements
}

/**
 * Enumerated types: made whole, or given their new values in place (ADD VALUE, before or after a
 * neighbour) or a renamed value (one label changed in place). Postgres cannot remove or reorder values:
 * such a change is reported as not supported.
 */
export const enumSql: Emitter<EnumDef> = (from, to, context) => {
  if (!to) return [{ phase: 'drop-types', sql: `DROP TYPE ${qualified(from!.definition.schema, from!.definition.name)}` }]
  const next = to.definition
  const name = qualified(next.schema, next.name)
  if (!from) return [{ phase: 'types', sql: `CREATE TYPE ${name} AS ENUM (${next.values.map(literal).join(', ')})` }]
  const old = from.definition.values
  if (old.length === next.values.length) {
    const changed = old.flatMap((value, index) => (value === next.values[index] ? [] : [index]))
    if (changed.length === 1 && !old.includes(next.values[changed[0]!]!)) {
      const index = changed[0]!
      return [{ phase: 'types', sql: `ALTER TYPE ${name} RENAME VALUE ${literal(old[index]!)} TO ${literal(next.values[index]!)}` }]
    }
  }
  const kept = next.values.filter((value) => old.includes(value))
  if (kept.length !== old.length || kept.some((value, index) => value !== old[index])) {
    context.unsupported.push(`type ${name}: values removed or reordered (Postgres cannot drop an enum value)`)
    return []
  }
  return next.values.flatMap((value, index): Statement[] => {
    if (old.includes(value)) return []
    // Left to right: the value before this one exists by now; the first goes before the first old one.
    const place = index > 0 ? ` AFTER ${literal(next.values[index - 1]!)}` : old.length ? ` BEFORE ${literal(old[0]!)}` : ''
    return [{ phase: 'types', sql: `ALTER TYPE ${name} ADD VALUE IF NOT EXISTS ${literal(value)}${place}`, order: index }]
  })
}
