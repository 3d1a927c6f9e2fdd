import { z } from 'zod'
import { UPGRADE_ERRORS, UPGRADE_PROGRESS } from './values/upgrade.js'
export * from './values/upgrade.js'

export const DatabaseUpgradeStatus = z.object({
  databaseUpgradeStatus: z
    .object({
      initiated_at: z.string(),
      latest_status_at: z.string(),
      target_version: z.number(),
      /** The Management API's code of where a failed upgrade stopped (its spelling, for its clients). */
      error: z.enum(UPGRADE_ERRORS).optional(),
      /** Stratum's addition: why it failed, in plain words (the recorded reason); what people read. */
      error_message: z.string().optional(),
      progress: z.enum(UPGRADE_PROGRESS).optional(),
      status: z.number(),
    })
    .nullable(),
})
export type DatabaseUpgradeStatus = z.infer<typeof DatabaseUpgradeStatus>

export const UpgradeBody = z.object({
  target_version: z.string({ error: 'target_version is required' }).regex(/^\d+(\.\d+)*$/, 'target_version must look like 17 or 17.10'),
  release_channel: z.enum(['internal', 'alpha', 'beta', 'ga', 'withdrawn', 'preview']).optional(),
})

export const UpgradeInitiated = z.object({ tracking_id: z.string() })
