import { qualified, roleName, ident } from './quote.js'
import type { GrantDef, PolicyDef, TableDef } from './snapshot.js'
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
