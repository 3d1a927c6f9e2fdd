import { quoteLiteral } from '@stratum/sql'
import { AdminInputError, checkedName } from './names'

/**
 * The attributes a project's own roles may hold: those the `postgres` role holds itself (bootstrap-roles.ts:
 * LOGIN, CREATEROLE, CREATEDB, BYPASSRLS; never SUPERUSER or REPLICATION), which Postgres 16+ lets a CREATEROLE
 * role give. SUPERUSER and REPLICATION are not representable here: the builders cannot write them.
 */
export interface RoleAttributes {
  canLogin: boolean
  canCreateRole: boolean
  canCreateDb: boolean
  canBypassRls: boolean
  /** Uses the privileges of the roles it is a member of without SET ROLE. */
  inherit: boolean
  /** -1: no limit. */
  connectionLimit: number
  /** A timestamp Postgres reads ('2030-01-01', '2030-01-01 12:00+00'); blank: the password never expires. */
  validUntil: string
}

export interface RoleSpec extends RoleAttributes {
  name: string
  /** Blank: no password set (or, when altering, left as it is). */
  password: string
}

export const ROLE_ATTRIBUTE_DEFAULTS: RoleAttributes = {
  canLogin: false,
  canCreateRole: false,
  canCreateDb: false,
  canBypassRls: false,
  inherit: true,
  connectionLimit: -1,
  validUntil: '',
}

function checkedLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < -1 || limit > 2147483647) throw new AdminInputError('The connection limit is a whole number, -1 for none')
  return limit
}

/** Postgres reserves the pg_ prefix for its own roles; PUBLIC and the like are keywords there, not roles. */
function checkedRoleName(name: string): string {
  if (name.startsWith('pg_')) throw new AdminInputError('Role names starting with pg_ are reserved by Postgres')
  if (['public', 'none', 'current_user', 'session_user', 'current_role'].includes(name.toLowerCase()))
    throw new AdminInputError(`${name} cannot be a role name`)
  return checkedName(name, 'The role name')
}

function attributeClauses(attributes: RoleAttributes, altering: boolean): string[] {
  const flag = (on: boolean, keyword: string) => (on ? keyword : `NO${keyword}`)
  const clauses = [
    flag(attributes.canLogin, 'LOGIN'),
    flag(attributes.inherit, 'INHERIT'),
    flag(attributes.canCreateRole, 'CREATEROLE'),
    flag(attributes.canCreateDb, 'CREATEDB'),
    flag(attributes.canBypassRls, 'BYPASSRLS'),
    `CONNECTION LIMIT ${checkedLimit(attributes.connectionLimit)}`,
  ]
  const validUntil = attributes.validUntil.trim()
  // 'infinity' clears an earlier expiry; a new role simply has none.
  if (validUntil || altering) clauses.push(`VALID UNTIL ${quoteLiteral(validUntil || 'infinity')}`)
  return clauses
}

export function buildCreateRole(spec: RoleSpec): string {
  const clauses = attributeClauses(spec, false)
  if (spec.password) clauses.push(`PASSWORD ${quoteLiteral(spec.password)}`)
  return `CREATE ROLE ${checkedRoleName(spec.name)} WITH ${clauses.join(' ')};`
}

/** A rename first (ALTER ROLE ... RENAME, which clears an MD5 password), then the attributes under the new name. */
export function buildAlterRole(current: string, spec: RoleSpec): string {
  const statements: string[] = []
  let name = checkedName(current, 'The role name')
  if (spec.name !== current) {
    const renamed = checkedRoleName(spec.name)
    statements.push(`ALTER ROLE ${name} RENAME TO ${renamed};`)
    name = renamed
  }
  const clauses = attributeClauses(spec, true)
  if (spec.password) clauses.push(`PASSWORD ${quoteLiteral(spec.password)}`)
  statements.push(`ALTER ROLE ${name} WITH ${clauses.join(' ')};`)
  return statements.join('\n')
}

export function buildDropRole(name: string): string {
  return `DROP ROLE ${checkedName(name, 'The role name')};`
}
