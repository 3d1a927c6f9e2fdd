import { quoteIdentifier } from '@stratum/sql'

/**
 * What the Database admin pages' SQL builders share. Every name a user or the database gives is hostile: it is
 * quoted as an identifier, never pasted, and the builders refuse what Postgres would only half understand.
 */

/** Thrown for input a builder refuses; the forms show its message. */
export class AdminInputError extends Error {
  override name = 'AdminInputError'
}

export interface TableName {
  schema: string
  name: string
}

/** A name Postgres keeps whole: not empty, at most 63 bytes (NAMEDATALEN - 1), which it would cut silently. */
export function checkedName(name: string, what: string): string {
  if (name.length === 0) throw new AdminInputError(`${what} is empty`)
  if (new TextEncoder().encode(name).length > 63) throw new AdminInputError(`${what} is longer than 63 bytes`)
  return quoteIdentifier(name)
}

export function qualified(table: TableName): string {
  return `${checkedName(table.schema, 'The schema name')}.${checkedName(table.name, 'The name')}`
}
