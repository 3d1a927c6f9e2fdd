import { z } from 'zod'
import { DisplayName, OrgSlug } from './common.js'
import { COMPUTE_SIZE_NAMES, POSTGRES_MAJORS, PROJECT_STATUSES } from './statuses.js'
export * from './values/projects.js'

export const ProjectStatusSchema = z.enum(PROJECT_STATUSES)
export const PostgresMajorSchema = z.enum(POSTGRES_MAJORS, {
  error: `Postgres version must be one of ${POSTGRES_MAJORS.join(', ')}`,
})
export const ComputeSizeSchema = z.enum(COMPUTE_SIZE_NAMES as [string, ...string[]], {
  error: `Compute size must be one of ${COMPUTE_SIZE_NAMES.join(', ')}`,
})

export const DatabasePassword = z
  .string({ error: 'Database password is required' })
  .min(8, 'Database password must be at least 8 characters')
  .max(128, 'Database password must be at most 128 characters')

/** A project as /platform answers it. */
export const Project = z.object({
  id: z.number(),
  ref: z.string(),
  name: z.string(),
  organization_id: z.number(),
  organization_slug: z.string(),
  status: ProjectStatusSchema,
  region: z.string(),
  inserted_at: z.string(),
  postgres_engine: PostgresMajorSchema,
  dbVersion: z.string(), // full server version, e.g. '17.10'
  compute_size: ComputeSizeSchema,
  /** How any Postgres client reaches the project's own instance. */
  db_host: z.string(),
  db_port: z.number(),
  db_name: z.string(),
  db_user: z.string(),
  status_reason: z.string().nullable(),
  /** Present when the project is a preview branch: the ref of the project it was branched from. */
  parent_project_ref: z.string().optional(),
})
export type Project = z.infer<typeof Project>

export const ProjectStatusBody = z.object({ status: ProjectStatusSchema })

/** Whether the project's database answers the platform (the connecting screen asks when the REST API does not). */
export const DatabaseHealthBody = z.object({ healthy: z.boolean() })

export const CreateProjectBody = z.object({
  name: DisplayName('Project name', 64),
  organization_slug: OrgSlug,
  db_pass: DatabasePassword,
  postgres_engine: PostgresMajorSchema.optional(),
  desired_instance_size: ComputeSizeSchema.optional(),
})
export type CreateProjectBody = z.infer<typeof CreateProjectBody>

/** Read only by roles holding service_api_keys.read. */
export const DatabasePasswordBody = z.object({ db_pass: z.string() })


/** POST /platform/organizations/{slug}/available-versions: the Postgres versions a new project can start on (provider and region are labels here). */
export const AvailableVersionsBody = z.object({
  provider: z.string({ error: 'provider must be text' }).max(40, 'provider must be at most 40 characters').optional(),
  region: z.string({ error: 'region must be text' }).max(60, 'region must be at most 60 characters').optional(),
})
