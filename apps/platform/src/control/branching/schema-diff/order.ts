import { PHASES, type Statement } from './statements.js'

/**
 * The order the comparer's statements run in. By default the phases' (statements.ts), which put what others
 * are made of first; then the catalog's own dependencies (pg_depend, read with the snapshots) move a
 * statement later when its object needs one the phases make later: a function whose SQL body reads a view,
 * a table whose default calls such a function, a view reading a view replaced to read a newer one. Drops
 * go the other way: an object is dropped once what needed it on the parent is.
 *
 * As pg-schema-diff and migra do, this is a topological sort; ties (everything the catalog does not order)
 * keep the phases' order, so the script reads as before. A cycle the catalog allows (rare: a table default
 * calling a function that reads that table) is left in the phases' order, and Postgres says what failed.
 */

export interface PlannedStatement extends Statement {
  /** The key of the object the statement makes, changes or drops. */
  subject: string
  /** The key of the object holding it (a column's table), which must exist first. */
  owner: string | null
  /** Emission order: the last tie-breaker. */
  index: number
}

export interface OrderInput {
  /** Keys of what each object needs made first, on the branch. */
  needs: ReadonlyMap<string, ReadonlySet<string>>
  /** Keys of what needs each object, on the parent: dropped before it. */
  neededBy: ReadonlyMap<string, ReadonlySet<string>>
}

const isDrop = (statement: Statement) => statement.phase.startsWith('drop-')

export function orderStatements(statements: PlannedStatement[], input: OrderInput): PlannedStatement[] {
  const phase = new Map<string, number>(PHASES.map((name, index) => [name, index]))
  const sorted = [...statements].sort((a, b) => phase.get(a.phase)! - phase.get(b.phase)! || (a.order ?? 0) - (b.order ?? 0) || a.index - b.index)
  // The first statement that makes or changes each object (what others wait for), and each object's drops.
  const first = new Map<string, PlannedStatement>()
  const drops = new Map<string, PlannedStatement[]>()
  for (const statement of sorted) {
    if (isDrop(statement)) drops.set(statement.subject, [...(drops.get(statement.subject) ?? []), statement])
    else if (!first.has(statement.subject)) first.set(statement.subject, statement)
  }
  const waitsFor = new Map<PlannedStatement, PlannedStatement[]>()
  for (const statement of sorted) {
    const before: (PlannedStatement | undefined)[] = []
    if (isDrop(statement)) {
      for (const dependent of input.neededBy.get(statement.subject) ?? []) if (dependent !== statement.subject) before.push(...(drops.get(dependent) ?? []))
    } else {
      before.push(first.get(statement.subject))
      if (statement.owner) before.push(first.get(statement.owner))
      for (const needed of input.needs.get(statement.subject) ?? []) before.push(first.get(needed))
    }
    waitsFor.set(statement, before.filter((other): other is PlannedStatement => other !== undefined && other !== statement))
  }
  const done = new Set<PlannedStatement>()
  const ordered: PlannedStatement[] = []
  let start = 0
  while (ordered.length < sorted.length) {
    while (done.has(sorted[start]!)) start++
    let next: PlannedStatement | undefined
    for (let index = start; index < sorted.length && !next; index++) {
      const candidate = sorted[index]!
      if (!done.has(candidate) && waitsFor.get(candidate)!.every((other) => done.has(other))) next = candidate
    }
    // A cycle: the phases' order decides.
    next ??= sorted[start]!
    done.add(next)
    ordered.push(next)
  }
  return ordered
}
