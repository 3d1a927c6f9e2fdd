import { ident, qualified } from './quote.js'
import type { FunctionDef, TriggerDef, ViewDef } from './snapshot.js'
import { goesWithOwner, type Emitter, type Statement } from './statements.js'

/** Views, functions and triggers: written from Postgres's own definitions (pg_get_viewdef, pg_get_functiondef, pg_get_triggerdef). */

const viewKind = (view: ViewDef) => (view.materialized ? 'MATERIALIZED VIEW' : 'VIEW')

function createView(view: ViewDef, replace: boolean): string {
  const options = view.options.length ? ` WITH (${view.options.join(', ')})` : ''
  const body = view.definition.trim().replace(/;\s*$/, '')
  return `CREATE ${replace ? 'OR REPLACE ' : ''}${viewKind(view)} ${qualified(view.schema, view.name)}${options} AS\n${body}`
}

/**
 * A changed view is replaced in place (CREATE OR REPLACE keeps what depends on it; Postgres refuses it
 * when columns are removed or retyped, and the merge then fails with its message); a materialized view, or
 * one that changes kind, is dropped and made again (plan.ts makes its indexes, triggers and grants again).
 */
export const viewSql: Emitter<Omit<ViewDef, 'order'>> = (from, to) => {
  const statements: Statement[] = []
  const recreate = from && to && (from.definition.materialized || to.definition.materialized)
  if (from && (!to || recreate)) {
    statements.push({ phase: 'drop-views', sql: `DROP ${viewKind(from.definition as ViewDef)} ${qualified(from.definition.schema, from.definition.name)}`, order: -from.order })
  }
  if (to) statements.push({ phase: 'views', sql: createView(to.definition as ViewDef, Boolean(from && !recreate)), order: to.order })
  return statements
}

/** Whether a view change is a drop and a new view (what hangs on it must be made again). */
export const viewRecreated = (from: ViewDef | undefined, to: ViewDef | undefined): boolean => Boolean(from && to && (from.materialized || to.materialized))

const routineKind = (fn: Pick<FunctionDef, 'kind'>) => (fn.kind === 'p' ? 'PROCEDURE' : 'FUNCTION')

/** Whether a function change is a drop and a new function (CREATE OR REPLACE cannot change its result type or kind). */
export const functionRecreated = (from: Pick<FunctionDef, 'returns' | 'kind'> | undefined, to: Pick<FunctionDef, 'returns' | 'kind'> | undefined): boolean =>
  Boolean(from && to && (from.returns !== to.returns || from.kind !== to.kind))

/** A function whose result type changed is dropped first: CREATE OR REPLACE cannot change it. */
export const functionSql: Emitter<Omit<FunctionDef, 'order'>> = (from, to) => {
  const statements: Statement[] = []
  const signatureChanged = functionRecreated(from?.definition, to?.definition)
  if (from && (!to || signatureChanged)) {
    const old = from.definition
    statements.push({ phase: 'drop-functions', sql: `DROP ${routineKind(old)} ${qualified(old.schema, old.name)}(${old.args})` })
  }
  if (to) statements.push({ phase: to.definition.needsRelations ? 'late-functions' : 'functions', sql: to.definition.definition.trim(), order: to.order })
  return statements
}

const TRIGGER_STATE: Record<string, string> = { D: 'DISABLE TRIGGER', R: 'ENABLE REPLICA TRIGGER', A: 'ENABLE ALWAYS TRIGGER', O: 'ENABLE TRIGGER' }

export const triggerSql: Emitter<TriggerDef> = (from, to, context) => {
  const statements: Statement[] = []
  const remade = !from || !to || from.definition.definition !== to.definition.definition
  if (from && remade && !goesWithOwner(from, context)) {
    const old = from.definition
    statements.push({ phase: 'drop-triggers', sql: `DROP TRIGGER ${ident(old.name)} ON ${qualified(old.schema, old.table)}` })
  }
  if (!to) return statements
  const next = to.definition
  if (remade) statements.push({ phase: 'triggers', sql: next.definition })
  const state = remade ? 'O' : from!.definition.enabled
  if (next.enabled !== state) {
    statements.push({ phase: 'triggers', sql: `ALTER TABLE ${qualified(next.schema, next.table)} ${TRIGGER_STATE[next.enabled] ?? 'ENABLE TRIGGER'} ${ident(next.name)}` })
  }
  return statements
}
