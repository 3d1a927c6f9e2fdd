import { z } from 'zod'

/**
 * A project's Realtime settings (the Management API's RealtimeConfigResponse / UpdateRealtimeConfigBody): the
 * limits Supabase Realtime applies per tenant, a private-only switch and a suspend switch. Bounds as the reference.
 */
const bounded = (min: number, max: number) => z.number().int().min(min).max(max)

export const REALTIME_CONFIG_BOUNDS = {
  connection_pool: [1, 100],
  max_concurrent_users: [1, 50_000],
  max_events_per_second: [1, 50_000],
  max_bytes_per_second: [1, 10_000_000],
  max_channels_per_client: [1, 10_000],
  max_joins_per_second: [1, 5_000],
  max_presence_events_per_second: [1, 5_000],
  max_payload_size_in_kb: [1, 10_000],
} as const

export type RealtimeNumericSetting = keyof typeof REALTIME_CONFIG_BOUNDS

export const RealtimeConfigUpdateBody = z
  .object({
    private_only: z.boolean().optional(),
    connection_pool: bounded(...REALTIME_CONFIG_BOUNDS.connection_pool).optional(),
    max_concurrent_users: bounded(...REALTIME_CONFIG_BOUNDS.max_concurrent_users).optional(),
    max_events_per_second: bounded(...REALTIME_CONFIG_BOUNDS.max_events_per_second).optional(),
    max_bytes_per_second: bounded(...REALTIME_CONFIG_BOUNDS.max_bytes_per_second).optional(),
    max_channels_per_client: bounded(...REALTIME_CONFIG_BOUNDS.max_channels_per_client).optional(),
    max_joins_per_second: bounded(...REALTIME_CONFIG_BOUNDS.max_joins_per_second).optional(),
    max_presence_events_per_second: bounded(...REALTIME_CONFIG_BOUNDS.max_presence_events_per_second).optional(),
    max_payload_size_in_kb: bounded(...REALTIME_CONFIG_BOUNDS.max_payload_size_in_kb).optional(),
    suspend: z.boolean().optional(),
  })
  .strict()
export type RealtimeConfigUpdateBody = z.infer<typeof RealtimeConfigUpdateBody>

/** The settings in force: the project's own where it set them, the installation's defaults elsewhere. */
export const RealtimeConfigResponse = z.object({
  private_only: z.boolean(),
  connection_pool: z.number().int(),
  max_concurrent_users: z.number().int(),
  max_events_per_second: z.number().int(),
  max_bytes_per_second: z.number().int(),
  max_channels_per_client: z.number().int(),
  max_joins_per_second: z.number().int(),
  max_presence_events_per_second: z.number().int(),
  max_payload_size_in_kb: z.number().int(),
  suspend: z.boolean(),
})
export type RealtimeConfigResponse = z.infer<typeof RealtimeConfigResponse>
