import { z } from 'zod'
import { OrgSlug } from './common.js'
import { DatabasePassword } from './projects.js'
import { COMPUTE_SIZE_NAMES } from './statuses.js'

/**
 * The Management API shapes we serve under /v1 (docs/reference/management-api-v1.openapi.json).
 * Field names and codes follow that document so existing clients work unchanged.
 */
export const V1Organization = z.object({ id: z.string(), slug: z.string(), name: z.string() })

export const V1CreateOrganizationBody = z.strictObject({
  name: z.string({ error: 'name is required' }).trim().min(1, 'name cannot be empty').max(256),
})

/** The region codes of the reference document: labels here, every project runs on this machine. */
export const V1_REGIONS = [
  'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'ap-east-1', 'ap-southeast-1', 'ap-northeast-1',
  'ap-northeast-2', 'ap-southeast-2', 'eu-west-1', 'eu-west-2', 'eu-west-3', 'eu-north-1', 'eu-central-1',
  'eu-central-2', 'ca-central-1', 'ap-south-1', 'sa-east-1',
] as const

/** The document's instance sizes; we run the ones with real settings (statuses.ts COMPUTE_SIZES). */
const V1_INSTANCE_SIZES = [
  'pico', 'nano', 'micro', 'small', 'medium', 'large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge',
  '16xlarge', '24xlarge', '24xlarge_optimized_memory', '24xlarge_optimized_cpu', '24xlarge_high_memory',
  '48xlarge', '48xlarge_optimized_memory', '48xlarge_optimized_cpu', '48xlarge_high_memory',
] as const

export const V1CreateProjectBody = z
  .strictObject({
    db_pass: DatabasePassword,
    name: z.string({ error: 'name is required' }).trim().min(1, 'name cannot be empty').max(256),
    organization_id: z.string().optional(),
    organization_slug: OrgSlug,
    plan: z.enum(['free', 'pro']).optional(),
    region: z.enum(V1_REGIONS).optional(),
    region_selection: z
      .object({ type: z.enum(['specific', 'smartGroup']), code: z.string().min(1) })
      .optional(),
    kps_enabled: z.boolean().optional(),
    desired_instance_size: z
      .enum(V1_INSTANCE_SIZES)
      .refine((s) => (COMPUTE_SIZE_NAMES as string[]).includes(s), {
        message: `desired_instance_size must be one of ${COMPUTE_SIZE_NAMES.join(', ')} on this platform`,
      })
      .optional(),
    template_url: z.url().optional(),
    release_channel: z.enum(['internal', 'alpha', 'beta', 'ga', 'withdrawn', 'preview']).optional(),
    postgres_engine: z
      .enum(['15', '17', '17-oriole'])
      .refine((v) => v !== '17-oriole', { message: "postgres_engine '17-oriole' is not available on this platform" })
      .optional(),
  })
  .refine((b) => !(b.region && b.region_selection), {
    message: 'Only one of region or region_selection can be specified',
  })
export type V1CreateProjectBody = z.infer<typeof V1CreateProjectBody>

export const V1ProjectStatus = z.enum([
  'INACTIVE', 'ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY', 'COMING_UP', 'UNKNOWN', 'GOING_DOWN', 'INIT_FAILED', 'REMOVED',
  'RESTORING', 'UPGRADING', 'PAUSING', 'RESTORE_FAILED', 'RESTARTING', 'PAUSE_FAILED', 'RESIZING',
])

export const V1ProjectResponse = z.object({
  id: z.string(),
  ref: z.string(),
  organization_id: z.string(),
  organization_slug: z.string(),
  name: z.string(),
  region: z.string(),
  created_at: z.string(),
  status: V1ProjectStatus,
})

export const V1ProjectWithDatabaseResponse = V1ProjectResponse.extend({
  database: z.object({
    host: z.string(),
    version: z.string(),
    postgres_engine: z.string(),
    release_channel: z.string(),
    /** Not in the reference document: our instances listen on their own port. */
    port: z.number(),
  }),
})

/** GET /v1/organizations/{slug}/projects: the document's paging, search, sort and status filter. */
export const V1OrganizationProjectsQuery = z.object({
  offset: z.coerce.number({ error: 'offset must be a whole number' }).int('offset must be a whole number').min(0, 'offset cannot be negative').default(0),
  limit: z.coerce.number({ error: 'limit must be a whole number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').default(100),
  search: z.string().max(256).optional(),
  sort: z.enum(['name_asc', 'name_desc', 'created_asc', 'created_desc'], { error: 'sort must be one of name_asc, name_desc, created_asc, created_desc' }).default('name_asc'),
  statuses: z.string().max(1024).optional(),
})

/** PATCH /v1/projects/{ref} (V1UpdateProjectBody): a new display name; the ref never changes. */
export const V1UpdateProjectBody = z.strictObject({
  name: z.string({ error: 'name is required' }).trim().min(1, 'name cannot be empty').max(256, 'name must be at most 256 characters'),
})

/** GET /v1/snippets: the caller's SQL snippets and those shared with them, across their projects. */
export const V1SnippetsQuery = z.object({
  project_ref: z.string().regex(/^[a-z]{20}$/, 'project_ref must be a project reference').optional(),
  cursor: z.string().max(1000).optional(),
  limit: z.coerce.number({ error: 'limit must be a whole number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').default(100),
  sort_by: z.enum(['name', 'inserted_at'], { error: 'sort_by must be name or inserted_at' }).default('inserted_at'),
  sort_order: z.enum(['asc', 'desc'], { error: 'sort_order must be asc or desc' }).default('desc'),
})
export type V1SnippetsQuery = z.infer<typeof V1SnippetsQuery>

export const V1SnippetParams = z.object({ id: z.uuid({ error: 'The snippet id must be a UUID' }) })

/** GET /v1/projects/available-regions */
export const V1AvailableRegionsQuery = z.object({
  organization_slug: z.string({ error: 'organization_slug is required' }).min(1, 'organization_slug is required').max(100),
  continent: z.enum(['NA', 'SA', 'EU', 'AF', 'AS', 'OC', 'AN'], { error: 'continent must be one of NA, SA, EU, AF, AS, OC, AN' }).optional(),
  desired_instance_size: z.string().max(40).optional(),
})
