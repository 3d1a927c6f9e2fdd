import type pg from 'pg'
import { actAs, probe, type Asker } from './authorization.js'
import type { UserBroadcast } from './protocol.js'

/** Supabase's bound on `config.broadcast.replay.limit`, and its default. */
export const REPLAY_MAX_MESSAGES = 25

export interface ReplayRequest {
  /** Epoch milliseconds: messages inserted at or after it. */
  since: number
  limit: number
}

/** `config.broadcast.replay` as a client sends it; a string is the refusal's reason. */
export function readReplay(value: unknown): ReplayRequest | null | string {
  if (value === undefined || value === null) return null
  if (typeof value !== 'object' || Array.isArray(value)) return 'UnableToReplayMessages: replay must be an object with since and limit'
  const { since, limit = REPLAY_MAX_MESSAGES } = value as Record<string, unknown>
  if (typeof since !== 'number' || !Number.isSafeInteger(since) || since < 0) return 'UnableToReplayMessages: replay.since must be a timestamp in milliseconds'
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > REPLAY_MAX_MESSAGES) {
    return `UnableToReplayMessages: replay.limit must be an integer from 1 to ${REPLAY_MAX_MESSAGES}`
  }
  return { since, limit }
}

/**
 * Broadcast replay as Supabase has it: the private topic's broadcasts sent from the database (realtime.send, kept in
 * realtime.messages for 3 days) since `since`, the newest `limit` of them in the order they were sent, read as the
 * asker (its SELECT policies on realtime.messages decide, as for the join) in a transaction that is rolled back.
 * Each goes to the joining channel alone, `meta.replayed` set.
 */
export function replayMessages(pool: pg.Pool, asker: Asker, topic: string, request: ReplayRequest): Promise<UserBroadcast[]> {
  return probe(pool, async (client) => {
    await actAs(client, asker, topic)
    try {
      // inserted_at is the instance's local time (timestamp without time zone, now()): since is put in the same terms.
      const { rows } = await client.query<{ id: string; event: string | null; payload: unknown; binary_payload: Buffer | null }>(
        `SELECT id, event, payload, binary_payload FROM (
           SELECT id, event, payload, binary_payload, inserted_at FROM realtime.messages
            WHERE topic = $1 AND private AND extension = 'broadcast'
              AND inserted_at >= (pg_catalog.to_timestamp($2::float8 / 1000) AT TIME ZONE pg_catalog.current_setting('TimeZone'))
            ORDER BY inserted_at DESC LIMIT $3
         ) newest ORDER BY inserted_at`,
        [topic, request.since, request.limit],
      )
      return rows
        .filter((row) => row.event)
        .map((row): UserBroadcast => ({
          kind: 'user-broadcast',
          event: row.event!,
          encoding: row.binary_payload ? 'binary' : 'json',
          data: row.binary_payload ?? Buffer.from(JSON.stringify(row.payload ?? {})),
          meta: { replayed: true, id: row.id },
        }))
    } catch (error) {
      // No SELECT privilege at all: nothing to replay (the join itself was allowed by the policies it has).
      if ((error as { code?: string }).code === '42501') return []
      throw error
    }
  })
}
