import { createHash } from 'node:crypto'
import { SQL_DEFAULT_TIMEOUT_MS } from '@stratum/contracts'
import pg from 'pg'
import { ADMIN_ROLE, EDITOR_ROLE, PRIVILEGED_SESSION_OPTIONS, READONLY_ROLE, USER_ROLE } from '../control/bootstrap-roles.js'
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
/** Startup options: the full mode acts as postgres; the platform's own sessions never resolve a tenant's names. */
const SESSION_OPTIONS: Record<SqlMode, string | undefined> = { 'read-only': undefined, full: `-c role=${USER_ROLE}`, admin: PRIVILEGED_SESSION_OPTIONS }

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
 * A small pool per project and mode. A pool is keyed by port and password too, so a project whose
 * instance moved (upgrade) or whose password changed gets fresh connections; the old pool is closed.
 */
export class SqlPools {
  private pools = new Map<string, { key: string; pool: pg.Pool }>()

  get(target: SqlTarget, mode: SqlMode): pg.Pool {
    const slot = `${target.ref}:${mode}`
    const key = createHash('sha256').update(`${target.port}\0${target.password}`).digest('hex')
    const existing = this.pools.get(slot)
    if (existing?.key === key) return existing.pool
    if (existing) void existing.pool.end().catch(() => {})
    const pool = new pg.Pool({
      host: '127.0.0.1',
      port: target.port,
      user: LOGIN_ROLE[mode],
      // RESET ROLE (or DISCARD ALL) returns to the role set at connection start: still postgres.
      options: SESSION_OPTIONS[mode],
      password: target.password,
      database: 'postgres',
      max: POOL_SIZE[mode],
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
      application_name: mode === 'admin' ? ADMIN_SQL_APPLICATION : USER_SQL_APPLICATION,
      statement_timeout: SESSION_STATEMENT_TIMEOUT_MS,
    })
    // An idle client losing its server (instance stopped) must not crash the platform.
    pool.on('error', () => {})
    this.pools.set(slot, { key, pool })
    return pool
  }

  /** Closes a project's pools (e.g. when it is paused or removed). */
  async forget(ref: string): Promise<void> {
    const ending: Promise<void>[] = []
    for (const [slot, { pool }] of this.pools) {
      if (slot.startsWith(`${ref}:`)) {
        this.pools.delete(slot)
        ending.push(pool.end().catch(() => {}))
      }
    }
    await Promise.all(ending)
  }

  async close(): Promise<void> {
    const all = [...this.pools.values()]
    this.pools.clear()
    await Promise.all(all.map(({ pool }) => pool.end().catch(() => {})))
  }
}
