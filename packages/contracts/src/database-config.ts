import { z } from 'zod'

/**
 * The database server settings a project's owners change through the Management API
 * (the reference's PostgresConfigResponse / UpdatePostgresConfigBody, NetworkRestrictions*,
 * SslEnforcement*), and the Database settings page.
 */

const DURATION = /^(-?[0-9]+(?:\.[0-9]+)?)(us|ms|s|min|h|d)?$/
const SIZE = /^[0-9]+(kB|MB|GB|TB)?$/
const size = (name: string) => z.string({ error: `${name} must be text such as 64MB` }).regex(SIZE, `${name} must be a size such as 64MB (units kB, MB, GB, TB)`)
const duration = (name: string) => z.string({ error: `${name} must be text such as 30s` }).regex(DURATION, `${name} must be a duration such as 500ms or 30s (units us, ms, s, min, h, d)`)
const int = (name: string, min: number, max: number) =>
  z.number({ error: `${name} must be a whole number` }).int(`${name} must be a whole number`).min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`)

export const PostgresConfig = z.object({
  effective_cache_size: size('effective_cache_size'),
  logical_decoding_work_mem: size('logical_decoding_work_mem'),
  maintenance_work_mem: size('maintenance_work_mem'),
  track_activity_query_size: size('track_activity_query_size'),
  max_connections: int('max_connections', 1, 262143),
  max_locks_per_transaction: int('max_locks_per_transaction', 10, 2147483640),
  max_parallel_maintenance_workers: int('max_parallel_maintenance_workers', 0, 1024),
  max_parallel_workers: int('max_parallel_workers', 0, 1024),
  max_parallel_workers_per_gather: int('max_parallel_workers_per_gather', 0, 1024),
  max_replication_slots: int('max_replication_slots', 0, 262143),
  max_slot_wal_keep_size: size('max_slot_wal_keep_size').or(z.literal('-1')),
  max_standby_archive_delay: duration('max_standby_archive_delay'),
  max_standby_streaming_delay: duration('max_standby_streaming_delay'),
  max_wal_size: size('max_wal_size'),
  max_wal_senders: int('max_wal_senders', 0, 262143),
  max_worker_processes: int('max_worker_processes', 0, 262143),
  session_replication_role: z.enum(['origin', 'replica', 'local'], { error: 'session_replication_role must be origin, replica or local' }),
  shared_buffers: size('shared_buffers'),
  statement_timeout: duration('statement_timeout'),
  track_commit_timestamp: z.boolean({ error: 'track_commit_timestamp must be true or false' }),
  wal_keep_size: size('wal_keep_size'),
  wal_sender_timeout: duration('wal_sender_timeout'),
  work_mem: size('work_mem'),
  checkpoint_timeout: duration('checkpoint_timeout'),
  hot_standby_feedback: z.boolean({ error: 'hot_standby_feedback must be true or false' }),
})
export type PostgresConfig = z.infer<typeof PostgresConfig>
export type PostgresConfigName = keyof PostgresConfig
export const POSTGRES_CONFIG_NAMES = Object.keys(PostgresConfig.shape) as PostgresConfigName[]

/** PUT /v1/projects/{ref}/config/database/postgres: the settings to change; restart_database restarts when one needs it. */
export const UpdatePostgresConfigBody = PostgresConfig.partial()
  .extend({ restart_database: z.boolean({ error: 'restart_database must be true or false' }).optional() })
  .strict()
export type UpdatePostgresConfigBody = z.infer<typeof UpdatePostgresConfigBody>

const cidr = (version: 4 | 6) =>
  z
    .string({ error: 'Each CIDR must be text' })
    .max(64)
    .refine((text) => (version === 4 ? isCidrV4(text) : isCidrV6(text)), `Each entry must be an IPv${version} network in CIDR form, such as ${version === 4 ? '203.0.113.0/24' : '2001:db8::/32'}`)

function isCidrV4(text: string): boolean {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(text)
  return Boolean(match) && match!.slice(1, 5).every((part) => Number(part) <= 255) && Number(match![5]) <= 32
}

function isCidrV6(text: string): boolean {
  const [address, bits, extra] = text.split('/')
  if (extra !== undefined || !address || !bits || !/^\d{1,3}$/.test(bits) || Number(bits) > 128) return false
  if (!/^[0-9a-fA-F:]+$/.test(address) || address.split('::').length > 2) return false
  const groups = address.split(':').filter((group) => group !== '')
  return groups.every((group) => group.length <= 4) && (address.includes('::') ? groups.length < 8 : groups.length === 8)
}

const CidrLists = z.object({
  dbAllowedCidrs: z.array(cidr(4)).max(100, 'At most 100 IPv4 networks').optional(),
  dbAllowedCidrsV6: z.array(cidr(6)).max(100, 'At most 100 IPv6 networks').optional(),
})

/** POST /v1/projects/{ref}/network-restrictions/apply: the whole allow-list (a missing list stays as it is). */
export const NetworkRestrictionsRequest = CidrLists.strict()
/** PATCH /v1/projects/{ref}/network-restrictions: networks to add and remove. */
export const NetworkRestrictionsPatchRequest = z.strictObject({ add: CidrLists.strict().optional(), remove: CidrLists.strict().optional() })

/** PUT /v1/projects/{ref}/ssl-enforcement */
export const SslEnforcementRequest = z.strictObject({
  requestedConfig: z.strictObject({ database: z.boolean({ error: 'requestedConfig.database must be true or false' }) }),
})
