import { z } from 'zod'
import { ComputeSizeSchema, PostgresMajorSchema } from './projects.js'

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
  /** A major the platform ships: what POST .../restore takes back as its postgres_engine. */
  postgres_engine: PostgresMajorSchema,
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

/** GET /platform/organizations/{slug}/members/reached-free-project-limit */
export const FREE_PROJECT_LIMIT = 2
export const MemberAtFreeProjectLimit = z.object({
  username: z.string(),
  primary_email: z.string(),
  free_project_limit: z.number(),
})
export type MemberAtFreeProjectLimit = z.infer<typeof MemberAtFreeProjectLimit>

/** POST /platform/feedback/downgrade: the exit survey of the delete flow. */
export const ExitSurveyBody = z.object({
  projectRef: z.string().regex(/^[a-z]{20}$/, 'Project ref must be 20 lowercase letters'),
  orgSlug: z.string().min(1, 'slug is required'),
  reasons: z.array(z.string().max(200)).max(20).default([]),
  additionalFeedback: z.string().max(5000).default(''),
  exitAction: z.string().max(50).default('delete'),
})

/** DELETE /platform/projects/{ref} -> the removed project's identity. */
export const DeletedProject = z.object({ id: z.number(), name: z.string(), ref: z.string() })
