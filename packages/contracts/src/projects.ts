import { z } from 'zod'
import { DisplayName, OrgSlug } from './common.js'
import { COMPUTE_SIZE_NAMES, POSTGRES_MAJORS, PROJECT_STATUSES } from './statuses.js'

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
})
export type Project = z.infer<typeof Project>

export const ProjectStatusBody = z.object({ status: ProjectStatusSchema })

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

/**
 * A rough strength hint for the New project form: 0 (weak) .. 4 (strong).
 * Length dominates; character variety helps. It is a hint, not a rule: the server only
 * enforces the minimum length.
 */
export function passwordStrength(password: string): { score: 0 | 1 | 2 | 3 | 4; label: string } {
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length
  let score = 0
  if (password.length >= 8) score++
  if (password.length >= 12) score++
  if (password.length >= 16) score++
  if (classes >= 3) score++
  if (password.length < 8) score = 0
  const clamped = Math.min(score, 4) as 0 | 1 | 2 | 3 | 4
  const labels = ['Too short', 'Weak', 'Fair', 'Good', 'Strong'] as const
  return { score: clamped, label: labels[clamped] }
}
