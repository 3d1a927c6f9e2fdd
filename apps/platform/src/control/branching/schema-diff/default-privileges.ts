import { objectKey, type CatalogObject, type CatalogObjects } from './catalog-objects.js'
import type { CatalogSnapshot, FunctionDef, GrantDef, RoutineGrantDef, SequenceDef, TableDef, ViewDef } from './snapshot.js'
import type { ObjectChange } from './three-way.js'

/**
 * A relation the merge creates on the parent gets the parent's default privileges at once (ALTER DEFAULT
 * PRIVILEGES: every project grants its API roles all on new tables in `public`). Its grants are therefore
 * compared with those, not with nothing: a grant the defaults already give is not written again, and a
 * default grantee the branch revoked is revoked, so that a table the branch closed to `anon` does not
 * reach the parent open to it.
 *
 * Postgres's rule: a new relation of `creator` in schema S gets the creator's global default privileges
 * (or, without any, only the owner's) plus its default privileges for S. Functions alike, except that
 * without global defaults PUBLIC may execute them.
 */
export function withDefaultPrivileges(
  changes: ObjectChange[],
  branch: CatalogObjects,
  defaults: CatalogSnapshot['defaultPrivileges'],
  creator: string,
  madeNow: ReadonlySet<string>,
): ObjectChange[] {
  const implied = (schema: string, relkind: string): Map<string | null, string[]> => {
    const kind = relkind === 'S' ? 'S' : relkind === 'f' ? 'f' : 'r'
    const grants = new Map<string | null, Set<string>>()
    if (kind === 'f' && !defaults.some((entry) => entry.role === creator && entry.kind === 'f' && entry.schema === null)) grants.set(null, new Set(['EXECUTE']))
    for (const entry of defaults) {
      if (entry.role !== creator || entry.kind !== kind || entry.grantee === creator || (entry.schema !== null && entry.schema !== schema)) continue
      const privileges = grants.get(entry.grantee) ?? new Set<string>()
      for (const privilege of entry.privileges) privileges.add(privilege)
      grants.set(entry.grantee, privileges)
    }
    return new Map([...grants].map(([grantee, privileges]) => [grantee, [...privileges].sort()]))
  }
  const impliedGrant = (to: CatalogObject, privileges: string[]): CatalogObject => ({ ...to, owner: null, definition: { ...(to.definition as object), privileges } })

  const result: ObjectChange[] = []
  for (const change of changes) {
    const to = change.to
    if (change.from || !to || (to.kind !== 'grant' && to.kind !== 'routine-grant') || !to.owner || !madeNow.has(to.owner)) {
      result.push(change)
      continue
    }
    const grant = to.definition as GrantDef | RoutineGrantDef
    const given = implied(grant.schema, to.kind === 'routine-grant' ? 'f' : (grant as GrantDef).kind).get(grant.grantee)
    if (!given) result.push(change)
    else if (!sameSet(given, grant.privileges)) result.push({ from: impliedGrant(to, given), to })
  }
  // Default grantees the branch does not have on the new relation or function: revoked.
  for (const key of madeNow) {
    const routine = branch.get(key)
    if (routine?.kind === 'function') {
      const fn = routine.definition as FunctionDef
      for (const [grantee, privileges] of implied(fn.schema, 'f')) {
        const grantKey = objectKey('routine-grant', fn.schema, fn.name, fn.args, grantee)
        if (branch.has(grantKey)) continue
        const definition: RoutineGrantDef = { schema: fn.schema, name: fn.name, args: fn.args, kind: fn.kind === 'p' ? 'p' : 'f', grantee, privileges }
        result.push({ from: { key: grantKey, kind: 'routine-grant', label: '', definition, owner: null, order: 0 }, to: undefined })
      }
      continue
    }
    const relation = relationOf(branch.get(key))
    if (!relation) continue
    for (const [grantee, privileges] of implied(relation.schema, relation.kind)) {
      if (branch.has(objectKey('grant', relation.schema, relation.name, grantee))) continue
      const definition: GrantDef = { schema: relation.schema, table: relation.name, kind: relation.kind, grantee, privileges }
      result.push({ from: { key: objectKey('grant', relation.schema, relation.name, grantee), kind: 'grant', label: '', definition, owner: null, order: 0 }, to: undefined })
    }
  }
  return result
}

function relationOf(object: CatalogObject | undefined): { schema: string; name: string; kind: string } | null {
  if (object?.kind === 'table' || object?.kind === 'view') {
    const definition = object.definition as TableDef | ViewDef
    return { schema: definition.schema, name: definition.name, kind: 'r' }
  }
  if (object?.kind === 'sequence') {
    const definition = object.definition as SequenceDef
    return { schema: definition.schema, name: definition.name, kind: 'S' }
  }
  return null
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')
