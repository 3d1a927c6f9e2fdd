import { refKey, type CatalogObject, type CatalogObjects, type ObjectKind } from './catalog-objects.js'
import { constraintSql, indexSql } from './sql-constraints.js'
import { functionRecreated, functionSql, triggerSql, viewRecreated, viewSql } from './sql-code.js'
import { columnGrantSql, grantSql, policySql, routineGrantSql, rowSecuritySql } from './sql-access.js'
import { commentSql, domainSql, otherSql, ownershipSql } from './sql-objects.js'
import { orderStatements, type PlannedStatement } from './order.js'
import { enumSql, extensionSql, schemaSql } from './sql-namespaces.js'
import { publicationSql, publicationTableSql } from './sql-publications.js'
import { columnSql, sequenceSql, tableSql } from './sql-tables.js'
import type { CatalogSnapshot, ColumnGrantDef, DependencyDef, FunctionDef, GrantDef, ViewDef } from './snapshot.js'
import { withDefaultPrivileges } from './default-privileges.js'
import type { EmitContext, Emitter, ObjectChange } from './statements.js'

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
  domain: [domainSql],
  'column-grant': [columnGrantSql],
  'routine-grant': [routineGrantSql],
  comment: [commentSql],
  ownership: [ownershipSql],
  other: [otherSql],
}

export interface SchemaPlan {
  statements: string[]
  /** Changes that cannot be written as SQL, in words (a merge refuses them). */
  unsupported: string[]
  /** Branch changes to objects of kinds the comparer does not compare, in words (a merge refuses them too). */
  notCompared: string[]
}

export interface PlanOptions {
  /** The parent's default privileges, which relations the SQL creates get (default-privileges.ts). */
  defaults: CatalogSnapshot['defaultPrivileges']
  /** The role the SQL runs as: the owner of what it creates. */
  creator: string
  /** What needs what (pg_depend), on the branch (for what is made) and on the parent (for what is dropped). */
  dependencies?: { branch: DependencyDef[]; parent: DependencyDef[] }
}

export function planStatements(changes: ObjectChange[], branch: CatalogObjects, options: PlanOptions): SchemaPlan {
  const withRecreated = withRevokedColumnGrants(withDependentsOfRecreated(changes, branch), branch)
  const madeNow = new Set(withRecreated.filter((change) => change.to && (!change.from || recreated(change))).map((change) => change.to!.key))
  const all = withDefaultPrivileges(withRecreated, branch, options.defaults, options.creator, madeNow)
  const context: EmitContext = {
    created: new Set(all.filter((change) => !change.from && change.to).map((change) => change.to!.key)),
    dropped: new Set(all.filter((change) => change.from && (!change.to || recreated(change))).map((change) => change.from!.key)),
    branch,
    unsupported: [],
    notCompared: [],
    creator: options.creator,
  }
  const statements: PlannedStatement[] = []
  for (const change of all) {
    const object = (change.to ?? change.from)!
    for (const emit of EMITTERS[object.kind] as Emitter<unknown>[]) {
      for (const statement of emit(change.from, change.to, context)) {
        // A sequence's owner is the table whose column owns it, which is made after it: only OWNED BY waits for it.
        const owner = object.kind === 'sequence' && statement.phase !== 'sequence-ownership' ? null : object.owner
        statements.push({ ...statement, subject: statement.subject ?? object.key, owner, index: statements.length })
      }
    }
  }
  const ordered = orderStatements(statements, {
    needs: dependencyMap(options.dependencies?.branch ?? []),
    neededBy: dependencyMap(options.dependencies?.parent ?? [], true),
  })
  const sql = ordered.map((statement) => statement.sql)
  const hasFunctions = statements.some((statement) => statement.phase === 'functions' || statement.phase === 'late-functions')
  return { statements: hasFunctions ? ['SET LOCAL check_function_bodies = off', ...sql] : sql, unsupported: context.unsupported, notCompared: context.notCompared }
}

/** Keys each object needs made first (or, reversed, keys of what needs it). */
function dependencyMap(dependencies: DependencyDef[], reversed = false): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>()
  for (const dependency of dependencies) {
    const [from, to] = reversed ? [refKey(dependency.to), refKey(dependency.from)] : [refKey(dependency.from), refKey(dependency.to)]
    const set = map.get(from) ?? new Set<string>()
    set.add(to)
    map.set(from, set)
  }
  return map
}

/**
 * REVOKE ALL on a table takes the grantee's column privileges on it along: those the branch has are
 * written again after it, changed or not.
 */
function withRevokedColumnGrants(changes: ObjectChange[], branch: CatalogObjects): ObjectChange[] {
  const revoked = new Set(
    changes
      .filter((change) => change.from?.kind === 'grant' && change.from.owner !== null)
      .map((change) => {
        const grant = change.from!.definition as GrantDef
        return JSON.stringify([grant.schema, grant.table, grant.grantee])
      }),
  )
  if (!revoked.size) return changes
  const listed = new Set(changes.map((change) => (change.to ?? change.from)!.key))
  const extra = [...branch.values()]
    .filter((object) => object.kind === 'column-grant' && !listed.has(object.key))
    .filter((object) => {
      const grant = object.definition as ColumnGrantDef
      return revoked.has(JSON.stringify([grant.schema, grant.table, grant.grantee]))
    })
    .map((object): ObjectChange => ({ from: undefined, to: object }))
  return [...changes, ...extra]
}

/** A change that drops the object and makes it again: what hangs on it (indexes, grants, comments...) is made again too. */
const recreated = (change: ObjectChange) =>
  (change.from?.kind === 'view' && viewRecreated(change.from.definition as ViewDef, change.to?.definition as ViewDef | undefined)) ||
  (change.from?.kind === 'function' && functionRecreated(change.from.definition as FunctionDef, change.to?.definition as FunctionDef | undefined))

/**
 * A materialized view (or a function whose result type changed) dropped and made again loses its indexes,
 * triggers, grants and comments: they are made again from the branch's, whether or not they changed.
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
