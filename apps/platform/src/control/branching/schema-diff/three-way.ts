import { sameDefinition, type CatalogObject, type CatalogObjects } from './catalog-objects.js'

/**
 * The three-way comparison behind diff and merge. `base` is the branch's schema when it was copied
 * (recorded at branch creation), `parentBefore` the parent's schema before the merge, `parentNow` the
 * parent's once the branch's pending migrations ran (the same as parentBefore when there are none), and
 * `branch` the branch's schema now. An object is the branch's change when the branch differs from the
 * base; it needs SQL when the parent (after the migrations) is not already the same. The parent's own
 * changes since the copy are kept: they are not the branch's to undo. An object both sides changed,
 * differently, is a conflict: reported, never guessed.
 *
 * Without a base (a branch made before bases were recorded) nothing is known of the parent's own changes:
 * everything the branch has differently is taken as the branch's change, but objects only the parent has
 * are kept (never dropped), and no conflict can be told.
 */
export interface ObjectChange {
  /** The parent's object now (absent: to be created). */
  from: CatalogObject | undefined
  /** The branch's object (absent: to be dropped). */
  to: CatalogObject | undefined
}

export interface ThreeWayInput {
  base: CatalogObjects | null
  /** Kinds the base does not record (it was taken before they were compared): those compare as without a base. */
  unknownInBase?: ReadonlySet<string>
  parentBefore: CatalogObjects
  parentNow: CatalogObjects
  branch: CatalogObjects
}

export interface ThreeWayResult {
  changes: ObjectChange[]
  conflicts: CatalogObject[]
}

export function compareThreeWay({ base: recorded, unknownInBase, parentBefore, parentNow, branch }: ThreeWayInput): ThreeWayResult {
  const keys = new Set([...(recorded?.keys() ?? []), ...parentBefore.keys(), ...parentNow.keys(), ...branch.keys()])
  const changes: ObjectChange[] = []
  const conflicts: CatalogObject[] = []
  const same = (a: CatalogObject | undefined, b: CatalogObject | undefined) =>
    a === undefined || b === undefined ? a === b : a.kind === b.kind && sameDefinition(a.definition, b.definition)
  for (const key of keys) {
    const before = parentBefore.get(key)
    const now = parentNow.get(key)
    const theirs = branch.get(key)
    const kind = (theirs ?? before ?? now ?? recorded?.get(key))!.kind
    const base = recorded && !unknownInBase?.has(kind) ? recorded : null
    const branchChanged = base ? !same(base.get(key), theirs) : theirs !== undefined && !same(before, theirs)
    if (!branchChanged || same(now, theirs)) continue
    const parentChanged = base ? !same(base.get(key), before) : false
    if (parentChanged && !same(before, theirs)) {
      conflicts.push((theirs ?? before ?? base?.get(key))!)
      continue
    }
    changes.push({ from: now, to: theirs })
  }
  return { changes, conflicts }
}
