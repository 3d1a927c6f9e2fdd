import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'
import { withAdminClient, type AdminConnection } from './bootstrap-roles.js'

/** The role users connect as (DESIGN.md "Isolation"); the platform's own superuser is another. */
const USER_ROLE = 'postgres'
/** Postgres' default scram_iterations. */
const SCRAM_ITERATIONS = 4096

/**
 * Sets the password of the project's `postgres` role, over the platform's superuser connection
 * (so the platform's own access does not depend on it).
 *
 * The server gets a SCRAM verifier, not the password, whenever we can compute exactly the one
 * Postgres would: then the password never appears in a statement, a server log line or
 * pg_stat_activity. That is the case for printable ASCII (SASLprep leaves it unchanged); other
 * passwords go as an escaped literal so the server applies SASLprep itself.
 */
export async function setUserPassword(connection: AdminConnection, password: string): Promise<void> {
  await withAdminClient(connection, async (client) => {
    const secret = isPrintableAscii(password) ? scramSha256Verifier(password) : password
    await client.query(`ALTER ROLE ${USER_ROLE} WITH PASSWORD ${client.escapeLiteral(secret)}`)
  })
}

const isPrintableAscii = (value: string): boolean => /^[\x20-\x7e]*$/.test(value)

/** The verifier Postgres stores in pg_authid.rolpassword (RFC 5802 / RFC 7677). */
export function scramSha256Verifier(password: string, salt: Buffer = randomBytes(16), iterations = SCRAM_ITERATIONS): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256')
  const clientKey = createHmac('sha256', salted).update('Client Key').digest()
  const storedKey = createHash('sha256').update(clientKey).digest()
  const serverKey = createHmac('sha256', salted).update('Server Key').digest()
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`
}
