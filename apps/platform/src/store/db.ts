import pg from 'pg'

/** The platform database: one pool shared by every part of the platform. */
export type Db = pg.Pool

export function openPool(connectionString: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 })
  // An idle client that loses its server (e.g. during shutdown) must not crash the process.
  pool.on('error', () => {})
  return pool
}

/**
 * BEGIN, fn, COMMIT on a connected client (the platform's or a project's); ROLLBACK when fn fails. A ROLLBACK that
 * fails too means the connection is unusable: `onLost` hears of it (a pool client is then released as broken).
 */
export async function inClientTransaction<T>(client: pg.ClientBase, fn: () => Promise<T>, onLost?: () => void): Promise<T> {
  await client.query('BEGIN')
  try {
    const result = await fn()
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => onLost?.())
    throw error
  }
}

/** Runs fn in one transaction on one connection. */
export async function inTransaction<T>(db: Db, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.connect()
  try {
    return await inClientTransaction(client, () => fn(client))
  } finally {
    client.release()
  }
}

export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient
