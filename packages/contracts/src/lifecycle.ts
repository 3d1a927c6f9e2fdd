import { z } from 'zod'
import { ComputeSizeSchema } from './projects.js'

/** A free project paused longer than this cannot be restored from the dashboard (its backup stays downloadable). */
export const MAX_DAYS_TILL_RESTORE_DISABLED = 90

export const PauseStatus = z.object({
  can_restore: z.boolean(),
  latest_downloadable_backup_id: z.number().nullable(),
  max_days_till_restore_disabled: z.number(),
  remaining_days_till_restore_disabled: z.number().nullable(),
})
export type PauseStatus = z.infer<typeof PauseStatus>

const ReleaseChannel = z.enum(['internal', 'alpha', 'beta', 'ga', 'withdrawn', 'preview'])

export const RestoreBody = z.object({
  postgres_engine: z.enum(['15', '17'], { error: "postgres_engine must be '15' or '17'" }).optional(),
  release_channel: ReleaseChannel.optional(),
})

export const RestoreVersion = z.object({
  version: z.string(),
  postgres_engine: z.string(),
  release_channel: ReleaseChannel,
})
export const RestoreVersions = z.object({ available_versions: z.array(RestoreVersion) })
export type RestoreVersions = z.infer<typeof RestoreVersions>

export const ResizeBody = z.object({ desired_instance_size: ComputeSizeSchema })

export const Backup = z.object({
  id: z.number(),
  inserted_at: z.string(),
  isPhysicalBackup: z.boolean(),
  status: z.enum(['COMPLETED', 'FAILED', 'PENDING', 'REMOVED']),
  size_bytes: z.number(),
  postgres_engine: z.string(),
})
export type Backup = z.infer<typeof Backup>

export const BackupDownloadBody = z.object({ id: z.number({ error: 'id (the backup id) is required' }).int().positive() })
export const BackupDownload = z.object({ fileUrl: z.string() })
