import pg from 'pg'
import type { InstanceCredentials } from './instance-provider.js'

/** The read-only role the SQL editor runs queries with first. */
export const READONLY_ROLE = 'stratum_readonly'

/**
 * Creates the roles the docs and keys talk about (DESIGN.md): anon, authenticated and
 * service_role (the API roles), authenticator (logs in, switches to them) and a read-only role.
 * Safe to run again: every statement checks before it creates.
 */
export async function bootstrapRoles(port: number, credentials: InstanceCredentials): Promise<string> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password: credentials.superuserPassword,
    database: 'postgres',
  })
  await client.connect()
  try {
    const literal = (value: string) => client.escapeLiteral(value)
    await client.query(`
      DO $$
      BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'anon') THEN CREATE ROLE anon NOLOGIN NOINHERIT; END IF;
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'authenticated') THEN CREATE ROLE authenticated NOLOGIN NOINHERIT; END IF;
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'service_role') THEN CREATE ROLE service_role NOLOGIN NOINHERIT BYPASSRLS; END IF;
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'authenticator') THEN CREATE ROLE authenticator LOGIN NOINHERIT; END IF;
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${READONLY_ROLE}') THEN CREATE ROLE ${READONLY_ROLE} LOGIN; END IF;
      END $$`)
    await client.query(`ALTER ROLE authenticator WITH PASSWORD ${literal(credentials.authenticatorPassword)}`)
    await client.query(`ALTER ROLE ${READONLY_ROLE} WITH PASSWORD ${literal(credentials.readonlyPassword)}`)
    // Even a function that tries to write fails on this role: reads are all it can do.
    await client.query(`ALTER ROLE ${READONLY_ROLE} SET default_transaction_read_only = on`)
    await client.query(`GRANT pg_read_all_data TO ${READONLY_ROLE}`)
    // The editor reads as the owner would (the full connection is the superuser): row level
    // security must not make a table look empty on the read-only try.
    await client.query(`ALTER ROLE ${READONLY_ROLE} BYPASSRLS`)
    await client.query('GRANT anon, authenticated, service_role TO authenticator')
    await client.query('GRANT USAGE ON SCHEMA public TO anon, authenticated, service_role')
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version')
    return rows[0]!.server_version.split(' ')[0]!
  } finally {
    await client.end()
  }
}

/** True when the instance answers a query as the project's superuser. */
export async function canConnect(port: number, password: string, timeoutMs = 5_000): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres', connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs })
  try {
    await client.connect()
    await client.query('SELECT 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}
