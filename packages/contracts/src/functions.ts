import { z } from 'zod'
import { FUNCTION_LIMITS, FUNCTION_STATUSES } from './values/functions.js'
import { ProjectRef } from './common.js'
export * from './values/functions.js'

/**
 * Edge functions as records: deployed, listed, downloaded and deleted; not executed yet.
 * Shapes: the Management API document (FunctionResponse, FunctionDeployBody); the project shell
 * spec's entities, calls and errors, and the API docs and assistant spec's states and limits.
 */

export const FunctionStatus = z.enum(FUNCTION_STATUSES)

export const FunctionSlug = z
  .string({ error: 'slug is required' })
  .min(1, 'slug is required')
  .max(128, 'slug must be at most 128 characters')
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, "slug must start with a letter and hold only letters, digits, '_' and '-'")

export const FunctionResponse = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  status: FunctionStatus,
  version: z.number().int(),
  /** Milliseconds since the epoch (int64 in the Management API document). */
  created_at: z.number().int(),
  updated_at: z.number().int(),
  verify_jwt: z.boolean(),
  import_map: z.boolean(),
  entrypoint_path: z.string(),
  import_map_path: z.string().optional(),
  ezbr_sha256: z.string().optional(),
})
export type FunctionResponse = z.infer<typeof FunctionResponse>

export const FunctionParams = z.object({ ref: ProjectRef, function_slug: FunctionSlug })
export const DeployFunctionQuery = z.object({ slug: FunctionSlug, bundleOnly: z.enum(['true', 'false']).optional() })

/** The metadata part of a deploy (FunctionDeployBody.metadata). */
export const FunctionDeployMetadata = z.object({
  entrypoint_path: z.string({ error: 'metadata.entrypoint_path must be a string' }).min(1).max(FUNCTION_LIMITS.maxPathLength).optional(),
  import_map_path: z.string().max(FUNCTION_LIMITS.maxPathLength).optional(),
  static_patterns: z.array(z.string()).max(100).optional(),
  verify_jwt: z.boolean({ error: 'metadata.verify_jwt must be true or false' }).optional(),
  name: z.string({ error: 'metadata.name must be a string' }).trim().min(1, 'metadata.name cannot be empty').max(256).optional(),
})
export type FunctionDeployMetadata = z.infer<typeof FunctionDeployMetadata>

export interface FunctionFile {
  name: string
  content: string
}

/** GET /platform/projects/{ref}/functions/{slug}/files: the deployed files, for the details page. */
export const FunctionFilesResponse = z.object({
  files: z.array(z.object({ name: z.string(), size: z.number(), content: z.string() })),
})
export type FunctionFilesResponse = z.infer<typeof FunctionFilesResponse>
