import { SQL_DEFAULT_TIMEOUT_MS } from '@stratum/contracts'
import pg from 'pg'
import { ADMIN_ROLE, EDITOR_ROLE, READONLY_ROLE, USER_ROLE } from '../control/bootstrap-roles.js'
import type { ProjectConnections } from '../control/project-connections.js'
import { int8Value } from './json-rows.js'

/** How the platform connects to a project's instance. */
export interface SqlTarget {
  ref: string
  port: number
  /** Password of the role of the mode asked for. */
  password: string
}

/**
 * read-only: the editor's first try, as the read-only role; full: as the user's own `postgres`
 * (logged in as the editor role, which acts as postgres from the start: bootstrap-roles.ts);
 * admin: the platform's own sessions (ongoing queries, cancel), hidden from the ongoing list.
 */
export type SqlMode = 'read-only' | 'full' | 'admin'

/** application_name of the sessions that run users' SQL: the ones the ongoing list shows. */
export const USER_SQL_APPLICATION = 'stratum-sql-editor'
export const ADMIN_SQL_APPLICATION = 'stratum-sql-admin'

/**
 * Every session starts with the default statement timeout (sent in the startup packet, and what
 * RESET ALL returns to), so a run with the default needs no SET of its own.
 */
export const SESSION_STATEMENT_TIMEOUT_MS = SQL_DEFAULT_TIMEOUT_MS

const POOL_SIZE: Record<SqlMode, number> = { 'read-only': 3, full: 3, admin: 1 }
const LOGIN_ROLE: Record<SqlMode, string> = { 'read-only': READONLY_ROLE, full: EDITOR_ROLE, admin: ADMIN_ROLE }
/** Startup options: the full mode acts as postgres (the admin mode's pinned search_path is added by project-connections.ts). */
const SESSION_OPTIONS: Record<SqlMode, string | undefined> = { 'read-only': undefined, full: `-c role=${USER_ROLE}`, admin: undefined }

const INT8 = 20

/** Keeps results' date and time values as Postgres writes them (no time zone shifts, no lost microseconds). */
const TEXT_TYPES = new Set([1082, 1083, 1114, 1184, 1186, 1266, 1115, 1182, 1183, 1185, 1187, 1270])
export const resultTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (TEXT_TYPES.has(oid)) return (value: string) => value
    if (oid === INT8) return int8Value
    return pg.types.getTypeParser(oid, format ?? 'text')
  },
} as pg.CustomTypesConfig

/** Types whose JSON form is kept in the editor: numbers, booleans, json (json-rows.ts encodes these from their text). */
const JSON_TYPES = new Set([16, 21, 23, 26, 700, 701, 114, 3802])

/**
 * Every other value as Postgres prints it (bytea as \x..., arrays as {1,2}, points as (1,2)): what the
 * SQL editor shows. int8 stays a number when exact.
 */
export const postgresTextTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return int8Value
    if (JSON_TYPES.has(oid)) return pg.types.getTypeParser(oid, format ?? 'text')
    return (value: string) => value
  },
} as pg.CustomTypesConfig

/**
 * A small pool per project and mode, from the platform's one registry of project connections
 * (control/project-connections.ts): a project whose instance moved (upgrade) or whose password changed gets fresh
 * connections there, and its pools close when it stops. `purpose` separates pools of one mode that must not share
 * their sessions (the table editor's imports hold one for a whole upload).
 */
export function sqlPool(connections: ProjectConnections, target: SqlTarget, mode: SqlMode, purpose = `sql:${mode}`): pg.Pool {
  return connections.pool(
    target.ref,
    // RESET ROLE (or DISCARD ALL) returns to the role set at connection start: still postgres.
    { port: target.port, user: LOGIN_ROLE[mode], password: target.password, options: SESSION_OPTIONS[mode] },
    {
      purpose,
      max: POOL_SIZE[mode],
      applicationName: mode === 'admin' ? ADMIN_SQL_APPLICATION : USER_SQL_APPLICATION,
      statementTimeoutMs: SESSION_STATEMENT_TIMEOUT_MS,
    },
  )
}
