import type { CatalogObject, CatalogObjects, ObjectKind } from './catalog-objects.js'
import { constraintSql, indexSql } from './sql-constraints.js'
import { functionSql, triggerSql, viewRecreated, viewSql } from './sql-code.js'
import { grantSql, policySql, rowSecuritySql } from './sql-access.js'
import { enumSql, extensionSql, schemaSql } from './sql-namespaces.js'
import { publicationSql, publicationTableSql } from './sql-publications.js'
import { columnSql, sequenceSql, tableSql } from './sql-tables.js'
import type { CatalogSnapshot, ViewDef } from './snapshot.js'
import { withDefaultPrivileges } from './default-privileges.js'
import { PHASES, type EmitContext, type Emitter, type ObjectChange, type Statement } from './statements.js'

/**
 * Turns the objects to change (three-way.ts) into SQL statements that run in order (statements.ts's
 * phases). Functions are created with `check_function_bodies` off for the transaction, as pg_dump does:
 * a function body may name a table made later in the same script.
 */
const EMITTERS: Record<ObjectKind, Emitter<never>[]> = {
  schema: [schemaSql],
  extension: [extensionSql],
  enum: [enumSql],
  sequence: [sequenceSql],
  table: [tableSql, rowSecuritySql],
  column: [columnSql],
  constraint: [constraintSql],
  index: [indexSql],
  view: [viewSql],
  function: [functionSql],
  trigger: [triggerSql],
  policy: [policySql],
  grant: [grantSql],
  publication: [publicationSql],
  'publication-table': [publicationTableSql],
}

export interface SchemaPlan {
  statements: string[]
  /** Changes that cannot be written as SQL, in words (a merge refuses them). */
  unsupported: string[]
}

export interface PlanOptions {
  /** The parent's default privileges, which relations the SQL creates get (default-privileges.ts). */
  defaults: CatalogSnapshot['defaultPrivileges']
  /** The role the SQL runs as: the owner of what it creates. */
  creator: string
}

export function planStatements(changes: ObjectChange[], branch: CatalogObjects, options: PlanOptions): SchemaPlan {
  const withRecreated = withDependentsOfRecreated(changes, branch)
  const madeNow = new Set(withRecreated.filter((change) => change.to && (!change.from || recreated(change))).map((change) => change.to!.key))
  const all = withDefaultPrivileges(withRecreated, branch, options.defaults, options.creator, madeNow)
  const context: EmitContext = {
    created: new Set(all.filter((change) => !change.from && change.to).map((change) => change.to!.key)),
    dropped: new Set(all.filter((change) => change.from && (!change.to || recreated(change))).map((change) => change.from!.key)),
    branch,
    unsupported: [],
  }
  const statements: (Statement & { index: number })[] = []
  for (const change of all) {
    const kind = (change.to ?? change.from)!.kind
    for (const emit of EMITTERS[kind] as Emitter<unknown>[]) {
      for (const statement of emit(change.from, change.to, context)) statements.push({ ...statement, index: statements.length })
    }
  }
  statements.sort((a, b) => PHASES.indexOf(a.phase) - PHASES.indexOf(b.phase) || (a.order ?? 0) - (b.order ?? 0) || a.index - b.index)
  const sql = statements.map((statement) => statement.sql)
  const hasFunctions = statements.some((statement) => statement.phase === 'functions' || statement.phase === 'late-functions')
  return { statements: hasFunctions ? ['SET LOCAL check_function_bodies = off', ...sql] : sql, unsupported: context.unsupported }
}

const recreated = (change: ObjectChange) =>
  change.from?.kind === 'view' && viewRecreated(change.from.definition as ViewDef, change.to?.definition as ViewDef | undefined)

/**
 * A materialized view dropped and made again loses its indexes, triggers and grants: they are made again
 * from the branch's, whether or not they changed.
 */
function withDependentsOfRecreated(changes: ObjectChange[], branch: CatalogObjects): ObjectChange[] {
  const remade = new Set(changes.filter(recreated).map((change) => change.from!.key))
  if (!remade.size) return changes
  const listed = new Set(changes.map((change) => (change.to ?? change.from)!.key))
  const extra = [...branch.values()]
    .filter((object: CatalogObject) => object.owner !== null && remade.has(object.owner) && !listed.has(object.key))
    .map((object): ObjectChange => ({ from: undefined, to: object }))
  // Those already listed are made as new too: their old selves went with the view.
  const rewritten = changes.map((change) => (change.from?.owner && remade.has(change.from.owner) ? { from: undefined, to: change.to } : change))
  return [...rewritten.filter((change) => change.to || change.from), ...extra].filter((change) => change.to || !change.from?.owner || !remade.has(change.from.owner))
}
