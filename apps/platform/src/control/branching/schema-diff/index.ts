import { catalogObjects, type ObjectKind } from './catalog-objects.js'
import { planStatements } from './plan.js'
import type { CatalogSnapshot } from './snapshot.js'
import { compareThreeWay } from './three-way.js'

/**
 * Branch diff by schema comparison: pure functions from catalog snapshots to the SQL that makes the
 * parent like the branch (read-snapshot.ts reads snapshots; control/branching/schema-merge.ts runs it).
 */
export { readCatalogSnapshot, PLATFORM_SCHEMAS, type CatalogReader } from './read-snapshot.js'
export { emptySnapshot, SNAPSHOT_FORMAT, type CatalogSnapshot } from './snapshot.js'

export interface SchemaDiffInput {
  /** The branch's schema when it was copied; null when it was not recorded (see three-way.ts). */
  base: CatalogSnapshot | null
  /** The parent's schema before the merge. */
  parentBefore: CatalogSnapshot
  /** The parent's schema once the branch's pending migrations ran; parentBefore when there are none. */
  parentNow?: CatalogSnapshot
  branch: CatalogSnapshot
  /** The role the SQL will run as (the merge's: `postgres`); what it creates gets that role's default privileges. */
  creator?: string
}

export interface SchemaDiff {
  /** Statements in the order they run, without the final semicolons. */
  statements: string[]
  /** Objects both sides changed differently, as a person reads them (`column public.items.size`). */
  conflicts: string[]
  /** Branch changes the comparer cannot write as SQL, in words. */
  unsupported: string[]
  /** Branch changes to objects of kinds the comparer does not compare (operators, aggregates...), in words. */
  notCompared: string[]
}

/** Parts of a snapshot a base recorded before them may lack, and the kinds of object each holds. */
const LATER_PARTS: Partial<Record<keyof CatalogSnapshot, ObjectKind[]>> = {
  domains: ['domain'],
  columnGrants: ['column-grant'],
  routineGrants: ['routine-grant'],
  comments: ['comment'],
  owners: ['ownership'],
  others: ['other'],
}

export function diffSchemas(input: SchemaDiffInput): SchemaDiff {
  const parentBefore = catalogObjects(input.parentBefore)
  const branch = catalogObjects(input.branch)
  const unknownInBase = new Set(
    Object.entries(LATER_PARTS).flatMap(([part, kinds]) => (input.base && input.base[part as keyof CatalogSnapshot] === undefined ? kinds : [])),
  )
  const { changes, conflicts } = compareThreeWay({
    base: input.base ? catalogObjects(input.base) : null,
    unknownInBase,
    parentBefore,
    parentNow: input.parentNow ? catalogObjects(input.parentNow) : parentBefore,
    branch,
  })
  const defaults = (input.parentNow ?? input.parentBefore).defaultPrivileges ?? []
  const dependencies = { branch: input.branch.dependencies ?? [], parent: (input.parentNow ?? input.parentBefore).dependencies ?? [] }
  const plan = planStatements(changes, branch, { defaults, creator: input.creator ?? 'postgres', dependencies })
  return { statements: plan.statements, conflicts: conflicts.map((object) => object.label).sort(), unsupported: plan.unsupported, notCompared: plan.notCompared.sort() }
}

/** Statements as one script. */
export const schemaScript = (statements: string[]): string => statements.map((statement) => `${statement};\n`).join('')
