import type pg from 'pg'
import { openProjectSession } from '../project-connections.js'

/** Where a logical dump reads from or a restore writes to: one database of one server. */
export interface LogicalConnection {
  host: string
  port: number
  user: string
  password: string
  database: string
  /** Startup options (bootstrap-roles.ts PRIVILEGED_SESSION_OPTIONS for the platform's superuser). */
  options?: string
}

export function connect(conn: LogicalConnection, applicationName: string): Promise<pg.Client> {
  return openProjectSession(conn, { applicationName })
}

/**
 * A libpq connection string for the WASM pg_dump. One string rather than -h/-p/-U/-d, so a
 * database name holding '=' or spaces cannot be read as options; the password travels separately
 * (PGPASSWORD in the WASM environment), never in arguments that end up in error messages.
 */
export function libpqConnectionString(conn: LogicalConnection, applicationName: string): string {
  const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  return [
    `host=${quote(conn.host)}`,
    `port=${conn.port}`,
    `user=${quote(conn.user)}`,
    `dbname=${quote(conn.database)}`,
    `application_name=${quote(applicationName)}`,
    // The bridge is a plain TCP socket: no TLS or GSS negotiation to attempt.
    'sslmode=disable',
    'gssencmode=disable',
  ].join(' ')
}
