import type { RealtimeConfigResponse, RealtimeConfigUpdateBody } from '@stratum/contracts'
import type { Queryable } from '../../store/db.js'

/** What a project stored: null where it keeps the installation's default. */
export type StoredRealtimeConfig = { [K in keyof RealtimeConfigResponse]: RealtimeConfigResponse[K] | null }

const COLUMNS = [
  'private_only',
  'suspend',
  'connection_pool',
  'max_concurrent_users',
  'max_events_per_second',
  'max_bytes_per_second',
  'max_channels_per_client',
  'max_joins_per_second',
  'max_presence_events_per_second',
  'max_payload_size_in_kb',
] as const satisfies ReadonlyArray<keyof RealtimeConfigResponse>

const NOTHING_STORED = Object.fromEntries(COLUMNS.map((column) => [column, null])) as StoredRealtimeConfig

export async function getStoredRealtimeConfig(db: Queryable, ref: string): Promise<StoredRealtimeConfig> {
  const { rows } = await db.query<StoredRealtimeConfig>(`SELECT ${COLUMNS.join(', ')} FROM project_realtime_config WHERE project_ref = $1`, [ref])
  return rows[0] ?? NOTHING_STORED
}

/** The settings in force: the project's own over the installation's defaults. */
export function realtimeConfigInForce(stored: StoredRealtimeConfig, defaults: RealtimeConfigResponse): RealtimeConfigResponse {
  const result = { ...defaults }
  for (const column of COLUMNS) if (stored[column] !== null) (result as Record<string, unknown>)[column] = stored[column]
  return result
}

/** Stores a change over what the project stored (fields left out keep their value). */
export async function updateRealtimeConfig(db: Queryable, ref: string, change: RealtimeConfigUpdateBody): Promise<void> {
  const next = { ...(await getStoredRealtimeConfig(db, ref)), ...change }
  const values = COLUMNS.map((column) => next[column] ?? null)
  await db.query(
    `INSERT INTO project_realtime_config (project_ref, ${COLUMNS.join(', ')})
     VALUES ($1, ${COLUMNS.map((_, index) => `$${index + 2}`).join(', ')})
     ON CONFLICT (project_ref) DO UPDATE SET ${COLUMNS.map((column, index) => `${column} = $${index + 2}`).join(', ')}, updated_at = now()`,
    [ref, ...values],
  )
}
