import { z } from 'zod'
import { ProjectRef } from './common.js'

/**
 * Storage buckets as records, and the storage archive (the SQL editor spec's storage archive;
 * the hosted platform's bucket fields). Objects are served later.
 */

export const BUCKET_TYPES = ['STANDARD', 'ANALYTICS'] as const
export const BucketType = z.enum(BUCKET_TYPES, { error: `type must be one of ${BUCKET_TYPES.join(', ')}` })
export type BucketType = z.infer<typeof BucketType>

/** Bucket names double as ids and directory names: a safe, bounded alphabet. */
export const BUCKET_NAME_MAX = 100
export const BucketName = z
  .string({ error: 'Bucket name is required' })
  .trim()
  .min(1, 'Bucket name cannot be empty')
  .max(BUCKET_NAME_MAX, `Bucket name must be at most ${BUCKET_NAME_MAX} characters`)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "Bucket name may only hold letters, digits, '.', '_' and '-', and must start with a letter or digit")

/** 'image/png', 'image/*', 'application/vnd.api+json'. */
export const MimeType = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][\w.+-]*\/(\*|[a-z0-9][\w.+-]*)$/, 'Each allowed MIME type must look like type/subtype or type/*')

/** null means every type is allowed; an empty list means none is. */
export const AllowedMimeTypes = z
  .array(MimeType, { error: 'allowed_mime_types must be a list of MIME types or null' })
  .max(100, 'allowed_mime_types may hold at most 100 entries')
  .transform((types) => [...new Set(types)])
  .nullable()

/** Bytes; null means no limit. */
export const FileSizeLimit = z
  .number({ error: 'file_size_limit must be a number of bytes or null' })
  .int('file_size_limit must be a whole number of bytes')
  .min(0, 'file_size_limit cannot be negative')
  .max(Number.MAX_SAFE_INTEGER, 'file_size_limit is too large')
  .nullable()

export const Bucket = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string(),
  public: z.boolean(),
  allowed_mime_types: z.array(z.string()).nullable(),
  file_size_limit: z.number().nullable(),
  type: BucketType,
  created_at: z.string(),
  updated_at: z.string(),
})
export type Bucket = z.infer<typeof Bucket>

/** POST /platform/storage/{ref}/buckets: the name may come as `id` or `name` (both are the id). */
export const CreateBucketBody = z
  .object({
    id: BucketName.optional(),
    name: BucketName.optional(),
    public: z.boolean({ error: 'public must be true or false' }).optional().default(false),
    allowed_mime_types: AllowedMimeTypes.optional().default(null),
    file_size_limit: FileSizeLimit.optional().default(null),
    type: BucketType.optional().default('STANDARD'),
  })
  .refine((body) => body.id !== undefined || body.name !== undefined, { message: 'Bucket name is required' })
  .refine((body) => body.id === undefined || body.name === undefined || body.id === body.name, {
    message: 'Bucket id and name must be the same',
  })
export type CreateBucketBody = z.input<typeof CreateBucketBody>

/** PUT /platform/storage/{ref}/buckets/{id}: only the fields given change; a bucket is not renamed. */
export const UpdateBucketBody = z
  .object({
    public: z.boolean({ error: 'public must be true or false' }).optional(),
    allowed_mime_types: AllowedMimeTypes.optional(),
    file_size_limit: FileSizeLimit.optional(),
  })
  .strict()
export type UpdateBucketBody = z.input<typeof UpdateBucketBody>

export const BucketParams = z.object({ ref: ProjectRef, id: BucketName })

/** GET /platform/storage/{ref}/archive: {} while the archive is built, fileUrl once it is ready. */
export const StorageArchive = z.object({ fileUrl: z.string().optional() })
export type StorageArchive = z.infer<typeof StorageArchive>

/** The Management API's storage features; this platform serves none of them, so each may only be off. */
const OffFeature = (name: string) =>
  z.object({ enabled: z.literal(false, { error: `${name} is not available on this platform` }) }).passthrough()

/** PATCH /v1/projects/{ref}/config/storage (UpdateStorageConfigBody). */
export const UpdateStorageConfigBody = z
  .object({
    fileSizeLimit: z
      .number({ error: 'fileSizeLimit must be a number of bytes' })
      .int('fileSizeLimit must be a whole number of bytes')
      .min(0, 'fileSizeLimit cannot be negative')
      .max(536870912000, 'fileSizeLimit may be at most 500 GB')
      .optional(),
    features: z
      .object({
        imageTransformation: z.object({ enabled: z.boolean({ error: 'imageTransformation.enabled must be true or false' }) }).passthrough().optional(),
        s3Protocol: OffFeature('The S3 protocol').optional(),
        icebergCatalog: OffFeature('The Iceberg catalog').optional(),
        vectorBuckets: OffFeature('Vector buckets').optional(),
      })
      .strict()
      .optional(),
    external: z.object({ upstreamTarget: z.enum(['main', 'canary'], { error: "upstreamTarget must be 'main' or 'canary'" }) }).optional(),
  })
  .strict()
