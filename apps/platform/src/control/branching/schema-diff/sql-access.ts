import { qualified, roleName, ident } from './quote.js'
import type { ColumnGrantDef, GrantDef, PolicyDef, RoutineGrantDef, TableDef } from './snapshot.js'
import { goesWithOwner, type Emitter, type Statement } from './statements.js'

/**
 * Who may read and write: row level security (enabled, forced), policies, and the privileges each role
 * holds on tables, views and sequences (the owner's own are not compared: ownership is not).
 */

export const rowSecuritySql: Emitter<TableDef> = (from, to) => {
  if (!to) return []
  const next = to.definition
  const old = from?.definition ?? { rls: false, forceRls: false }
  const name = qualified(next.schema, next.name)
  const statements: Statement[] = []
  if (old.rls !== next.rls) statements.push({ phase: 'row-security', sql: `ALTER TABLE ${name} ${next.rls ? 'ENABLE' : 'DISABLE'} ROW LEVEL SECURITY` })
  if (old.forceRls !== next.forceRls) statements.push({ phase: 'row-security', sql: `ALTER TABLE ${name} ${next.forceRls ? 'FORCE' : 'NO FORCE'} ROW LEVEL SECURITY` })
  return statements
}

const COMMANDS: Record<string, string> = { r: 'SELECT', a: 'INSERT', w: 'UPDATE', d: 'DELETE', '*': 'ALL' }

function createPolicy(policy: PolicyDef): string {
  const roles = policy.roles.length ? policy.roles.map(roleName).join(', ') : 'PUBLIC'
  return [
    `CREATE POLICY ${ident(policy.name)} ON ${qualified(policy.schema, policy.table)}`,
    `AS ${policy.permissive ? 'PERMISSIVE' : 'RESTRICTIVE'} FOR ${COMMANDS[policy.command] ?? 'ALL'} TO ${roles}`,
    ...(policy.using !== null ? [`USING (${policy.using})`] : []),
    ...(policy.check !== null ? [`WITH CHECK (${policy.check})`] : []),
  ].join('\n  ')
}

/** A changed policy is dropped and made again (ALTER POLICY cannot change its command or kind). */
export const policySql: Emitter<PolicyDef> = (from, to, context) => {
  const statements: Statement[] = []
  if (from && !goesWithOwner(from, context)) {
    statements.push({ phase: 'drop-policies', sql: `DROP POLICY ${ident(from.definition.name)} ON ${qualified(from.definition.schema, from.definition.table)}` })
  }
  if (to) statements.push({ phase: 'policies', sql: createPolicy(to.definition) })
  return statements
}

const onRelation = (grant: GrantDef) => `${grant.kind === 'S' ? 'SEQUENCE' : 'TABLE'} ${qualified(grant.schema, grant.table)}`

/**
 * A grantee's privileges on a relation: revoked whole, then granted as the branch has them (with grant
 * option where it has it). On a relation the merge creates there is nothing to revoke first.
 */
export const grantSql: Emitter<GrantDef> = (from, to, context) => {
  const statements: Statement[] = []
  const grant = (to ?? from)!.definition
  const relation = onRelation(grant)
  const grantee = roleName(grant.grantee)
  if (from && !goesWithOwner(from, context)) statements.push({ phase: 'grants', sql: `REVOKE ALL ON ${relation} FROM ${grantee}` })
  if (!to) return statements
  const plain = to.definition.privileges.filter((privilege) => !privilege.endsWith('*'))
  const grantable = to.definition.privileges.filter((privilege) => privilege.endsWith('*')).map((privilege) => privilege.slice(0, -1))
  if (plain.length) statements.push({ phase: 'grants', sql: `GRANT ${plain.map(privilegeName).join(', ')} ON ${relation} TO ${grantee}` })
  if (grantable.length) statements.push({ phase: 'grants', sql: `GRANT ${grantable.map(privilegeName).join(', ')} ON ${relation} TO ${grantee} WITH GRANT OPTION` })
  return statements
}

/** Privilege names come from the catalog (aclexplode): only the known words are written. */
const PRIVILEGES = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER', 'MAINTAIN', 'USAGE'])
function privilegeName(privilege: string): string {
  if (!PRIVILEGES.has(privilege)) throw new Error(`Unknown privilege ${JSON.stringify(privilege)}`)
  return privilege
}

/** Grant statements for a grantee's privileges (`SELECT`, `UPDATE*` when grantable), each privilege written by `write`. */
function grantStatements(phase: Statement['phase'], privileges: string[], write: (privilege: string) => string, on: string, grantee: string): Statement[] {
  const plain = privileges.filter((privilege) => !privilege.endsWith('*'))
  const grantable = privileges.filter((privilege) => privilege.endsWith('*')).map((privilege) => privilege.slice(0, -1))
  return [
    ...(plain.length ? [{ phase, sql: `GRANT ${plain.map(write).join(', ')} ON ${on} TO ${grantee}` }] : []),
    ...(grantable.length ? [{ phase, sql: `GRANT ${grantable.map(write).join(', ')} ON ${on} TO ${grantee} WITH GRANT OPTION` }] : []),
  ]
}

/**
 * Privileges on one column (GRANT SELECT (label) ON ...): revoked whole, then granted as the branch has them.
 * Written after the table's own privileges, whose REVOKE takes the column privileges of that grantee along
 * (plan.ts writes those again).
 */
export const columnGrantSql: Emitter<ColumnGrantDef> = (from, to, context) => {
  const grant = (to ?? from)!.definition
  const on = `TABLE ${qualified(grant.schema, grant.table)}`
  const column = ident(grant.column)
  const grantee = roleName(grant.grantee)
  const statements: Statement[] = []
  if (from && !goesWithOwner(from, context)) statements.push({ phase: 'column-grants', sql: `REVOKE ALL (${column}) ON ${on} FROM ${grantee}` })
  if (to) statements.push(...grantStatements('column-grants', to.definition.privileges, (privilege) => `${columnPrivilegeName(privilege)} (${column})`, on, grantee))
  return statements
}

/** EXECUTE on a function or procedure (PUBLIC's included: a new function gets it unless default privileges say otherwise). */
export const routineGrantSql: Emitter<RoutineGrantDef> = (from, to, context) => {
  const grant = (to ?? from)!.definition
  const on = `${grant.kind === 'p' ? 'PROCEDURE' : 'FUNCTION'} ${qualified(grant.schema, grant.name)}(${grant.args})`
  const grantee = roleName(grant.grantee)
  const statements: Statement[] = []
  if (from && !goesWithOwner(from, context)) statements.push({ phase: 'routine-grants', sql: `REVOKE ALL ON ${on} FROM ${grantee}` })
  if (to) statements.push(...grantStatements('routine-grants', to.definition.privileges, routinePrivilegeName, on, grantee))
  return statements
}

const COLUMN_PRIVILEGES = new Set(['SELECT', 'INSERT', 'UPDATE', 'REFERENCES'])
function columnPrivilegeName(privilege: string): string {
  if (!COLUMN_PRIVILEGES.has(privilege)) throw new Error(`Unknown column privilege ${JSON.stringify(privilege)}`)
  return privilege
}
function routinePrivilegeName(privilege: string): string {
  if (privilege !== 'EXECUTE') throw new Error(`Unknown routine privilege ${JSON.stringify(privilege)}`)
  return privilege
}
