import type pg from 'pg'

/** Who asks: the role and claims of a channel's token. */
export interface Asker {
  role: string
  claims: Record<string, unknown>
}

export type Extension = 'broadcast' | 'presence'

/** The asker's settings for the policies of realtime.messages (realtime.topic(), auth.uid(), auth.jwt()). */
export async function actAs(client: pg.PoolClient, asker: Asker, topic: string): Promise<void> {
  await client.query(
    `SELECT pg_catalog.set_config('role', $1, true), pg_catalog.set_config('realtime.topic', $2, true),
            pg_catalog.set_config('request.jwt.claims', $3, true), pg_catalog.set_config('request.jwt.claim.sub', $4, true),
            pg_catalog.set_config('request.jwt.claim.role', $1, true)`,
    [asker.role, topic, JSON.stringify(asker.claims), typeof asker.claims.sub === 'string' ? asker.claims.sub : ''],
  )
}

/** Runs fn in a transaction that is always rolled back: the probes below (and replay's read) leave nothing behind. */
export async function probe<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  let broken = false
  try {
    await client.query('BEGIN')
    return await fn(client)
  } finally {
    await client.query('ROLLBACK').catch(() => {
      broken = true
    })
    client.release(broken)
  }
}

/**
 * Which extensions a private channel's asker may read, as Supabase Realtime decides it: a row per extension is
 * written to realtime.messages (as service_role, which bypasses RLS), then read back as the asker; what its SELECT
 * policies let it see, it may receive. Rolled back, so nothing is stored or streamed.
 */
export function readPermissions(pool: pg.Pool, asker: Asker, topic: string, extensions: Extension[]): Promise<Set<Extension>> {
  return probe(pool, async (client) => {
    await client.query(`SELECT pg_catalog.set_config('role', 'service_role', true)`)
    const { rows } = await client.query<{ id: string; extension: Extension }>(
      'INSERT INTO realtime.messages (topic, extension) SELECT $1, e FROM pg_catalog.unnest($2::text[]) AS e RETURNING id, extension',
      [topic, extensions],
    )
    await actAs(client, asker, topic)
    try {
      const seen = await client.query<{ extension: Extension }>('SELECT extension FROM realtime.messages WHERE id = ANY($1::uuid[])', [rows.map((row) => row.id)])
      return new Set(seen.rows.map((row) => row.extension))
    } catch (error) {
      // No SELECT privilege at all (a role the project made without grants): nothing to read.
      if ((error as { code?: string }).code === '42501') return new Set<Extension>()
      throw error
    }
  })
}

/** Whether the asker may send on a private channel: an insert its INSERT policies accept (rolled back). */
export function writePermission(pool: pg.Pool, asker: Asker, topic: string, extension: Extension): Promise<boolean> {
  return probe(pool, async (client) => {
    await actAs(client, asker, topic)
    try {
      await client.query('INSERT INTO realtime.messages (topic, extension) VALUES ($1, $2)', [topic, extension])
      return true
    } catch (error) {
      if ((error as { code?: string }).code === '42501') return false
      throw error
    }
  })
}
