import pg from 'pg'

/** The platform database: one pool shared by every part of the platform. */
export type Db = pg.Pool

export function openPool(connectionString: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 })
  // An idle client that loses its server (e.g. during shutdown) must not crash the process.
  pool.on('error', () => {})
  return pool
}

/** Runs fn in one transaction on one connection. */
export async function inTransaction<T>(db: Db, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.connect()
  try {
    await client.query('BEGIN')
    const result = await fn(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient
