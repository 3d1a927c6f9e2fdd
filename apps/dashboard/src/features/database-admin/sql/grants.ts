import { checkedName, qualified, type TableName } from './names'

export const TABLE_PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const
export type TablePrivilege = (typeof TABLE_PRIVILEGES)[number]

function checkedPrivilege(privilege: string): TablePrivilege {
  const known = TABLE_PRIVILEGES.find((name) => name === privilege)
  if (!known) throw new Error(`Unknown table privilege: ${privilege}`)
  return known
}

/** GRANT (or REVOKE) one privilege on one table to one role. */
export function buildTableGrant(role: string, table: TableName, privilege: TablePrivilege, granted: boolean): string {
  const grantee = checkedName(role, 'The role name')
  const what = `${checkedPrivilege(privilege)} ON TABLE ${qualified(table)}`
  return granted ? `GRANT ${what} TO ${grantee};` : `REVOKE ${what} FROM ${grantee};`
}

/** USAGE on a schema: needed to reach anything in it, whatever the grants on its tables. */
export function buildSchemaUsage(role: string, schema: string, granted: boolean): string {
  const grantee = checkedName(role, 'The role name')
  const what = `USAGE ON SCHEMA ${checkedName(schema, 'The schema name')}`
  return granted ? `GRANT ${what} TO ${grantee};` : `REVOKE ${what} FROM ${grantee};`
}
