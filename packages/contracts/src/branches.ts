import { z } from 'zod'
import { ProjectRef } from './common.js'
import { PROJECT_STATUSES } from './statuses.js'

const ProjectStatus = z.enum(PROJECT_STATUSES)

/** Branching's business constants (the enable-branching dialog's rules). */
export const BRANCH_PRICE_PER_HOUR = 0.01344
export const BRANCHING_MIN_POSTGRES_MAJOR = 15
export const DEFAULT_PRODUCTION_BRANCH_NAME = 'main'

export const BRANCH_NAME_EMPTY = 'Production branch name cannot be empty'
export const BRANCH_NAME_INVALID = 'Branch name can only contain alphanumeric characters, hyphens, and underscores.'
export const GIT_BRANCH_REQUIRED = 'GitHub branch is required when a repository is connected.'
export const BRANCH_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/

export const BranchName = z.string().trim().min(1, BRANCH_NAME_EMPTY).max(63, 'Branch name must be at most 63 characters').regex(BRANCH_NAME_PATTERN, BRANCH_NAME_INVALID)
/** A Git branch name as GitHub takes it (no spaces, no control characters, no `..`). */
const isGitBranchName = (name: string) =>
  !name.includes('..') && ![...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f || /[\s~^:?*[\\]/.test(char))
export const GitBranchName = z.string().min(1).max(255).refine(isGitBranchName, 'Git branch name is not valid')

/** The branch's own progress (the Management API's BranchResponse.status). */
export const BranchStatus = z.enum(['CREATING_PROJECT', 'RUNNING_MIGRATIONS', 'MIGRATIONS_PASSED', 'MIGRATIONS_FAILED', 'FUNCTIONS_DEPLOYED', 'FUNCTIONS_FAILED'])
export type BranchStatus = z.infer<typeof BranchStatus>

/** GET/POST /v1/projects/{ref}/branches and the Branches page. `project_ref` is the branch's own project. */
export const Branch = z.object({
  id: z.string(),
  name: z.string(),
  project_ref: z.string(),
  parent_project_ref: z.string(),
  is_default: z.boolean(),
  git_branch: z.string().optional(),
  persistent: z.boolean(),
  status: BranchStatus,
  created_at: z.string(),
  updated_at: z.string(),
  with_data: z.boolean(),
  preview_project_status: ProjectStatus.optional(),
  /** Stratum: why the branch's creation or its migrations failed, in plain words. */
  error_message: z.string().optional(),
  /** Stratum: the parent's moment the branch was copied from (a point-in-time branch), ISO time. */
  recovery_time_target: z.string().optional(),
})
export type Branch = z.infer<typeof Branch>

export const CreateBranchBody = z.object({
  branch_name: BranchName,
  git_branch: GitBranchName.optional(),
  /** true: enables branching on the project itself (its production branch), copying nothing. */
  is_default: z.boolean().optional(),
  persistent: z.boolean().optional(),
  region: z.string().max(64).optional(),
  desired_instance_size: z.string().max(64).optional(),
  release_channel: z.string().max(32).optional(),
  postgres_engine: z.string().max(16).optional(),
  secrets: z.record(z.string(), z.string()).optional(),
  /** Copy the parent's rows too (off by default: schema, roles and settings only). */
  with_data: z.boolean().optional(),
  notify_url: z.string().max(2048).optional(),
  /** Stratum: copy the parent as it was at this moment (unix seconds; needs the PITR add-on). */
  recovery_time_target_unix: z.number().int().min(0).optional(),
})
export type CreateBranchBody = z.infer<typeof CreateBranchBody>

export const UpdateBranchBody = z.object({
  branch_name: BranchName.optional(),
  git_branch: GitBranchName.optional(),
  reset_on_push: z.boolean().optional(),
  persistent: z.boolean().optional(),
  status: BranchStatus.optional(),
  request_review: z.boolean().optional(),
  notify_url: z.string().max(2048).optional(),
})

export const BranchActionBody = z.object({ migration_version: z.string().regex(/^\d{1,32}$/, 'Migration version must be digits').optional() })

export const BranchIdParams = z.object({ branch_id_or_ref: z.string().min(1).max(64) })
export const BranchNameParams = z.object({ ref: ProjectRef, name: z.string().min(1).max(63) })

/** GET /v1/branches/{id}: how to reach the branch's database (never its password or JWT secret). */
export const BranchDetail = z.object({
  ref: z.string(),
  postgres_version: z.string(),
  postgres_engine: z.string(),
  release_channel: z.string(),
  status: ProjectStatus,
  db_host: z.string(),
  db_port: z.number(),
  db_user: z.string().optional(),
})
export type BranchDetail = z.infer<typeof BranchDetail>

export const BranchUpdateResponse = z.object({ workflow_run_id: z.string(), message: z.literal('ok') })

// --- GitHub connections (organization settings) ---

/** A project linked to a GitHub repository, reached with a token the organization gave (stored sealed). */
export const GitHubConnection = z.object({
  id: z.number(),
  organization_id: z.number(),
  inserted_at: z.string(),
  updated_at: z.string(),
  repository: z.object({ id: z.number(), name: z.string() }),
  project: z.object({ id: z.number(), ref: z.string(), name: z.string() }),
  workdir: z.string(),
})
export type GitHubConnection = z.infer<typeof GitHubConnection>

export const GitHubConnectionsQuery = z.object({ organization_id: z.coerce.number().int().positive() })
export const CreateGitHubConnectionBody = z.object({
  organization_id: z.number().int().positive(),
  project_ref: ProjectRef,
  /** owner/repo */
  repository: z.string().regex(/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/, 'Repository must be written owner/repo'),
  /** A GitHub token that can read the repository's contents. */
  token: z.string().trim().min(1, 'Token is required').max(512),
  /** The folder holding supabase/migrations (default: the repository's root). */
  workdir: z.string().max(256).optional(),
})
export const GitHubConnectionIdParams = z.object({ connectionId: z.coerce.number().int().positive() })
export const GitHubBranchParams = z.object({ connectionId: z.coerce.number().int().positive(), branchName: GitBranchName })
/** GET /platform/integrations/github/branches/{connectionId}/{branchName}: the branch as GitHub describes it. */
export const GitHubBranch = z.object({ name: z.string(), commit: z.object({ sha: z.string() }), protected: z.boolean().optional() })

// --- Point-in-time recovery ---

export const PITR_VARIANTS = ['pitr_7', 'pitr_14', 'pitr_28'] as const
export const PitrVariant = z.enum(PITR_VARIANTS)
export type PitrVariant = z.infer<typeof PitrVariant>
export const PITR_RETENTION_DAYS: Record<PitrVariant, number> = { pitr_7: 7, pitr_14: 14, pitr_28: 28 }

export const ApplyAddonBody = z.object({
  addon_type: z.enum(['custom_domain', 'compute_instance', 'pitr', 'ipv4', 'auth_mfa_phone', 'auth_mfa_web_authn', 'log_drain']),
  addon_variant: z.string().max(64),
})
export const AddonVariantParams = z.object({ ref: ProjectRef, addon_variant: z.string().max(64) })

export const AddonVariant = z.object({
  id: z.string(),
  name: z.string(),
  price: z.object({ description: z.string(), type: z.enum(['fixed', 'usage']), interval: z.enum(['monthly', 'hourly']), amount: z.number() }),
  meta: z.unknown().optional(),
})
/** GET /v1/projects/{ref}/billing/addons */
export const ProjectAddons = z.object({
  selected_addons: z.array(z.object({ type: z.string(), variant: AddonVariant })),
  available_addons: z.array(z.object({ type: z.string(), name: z.string(), variants: z.array(AddonVariant) })),
})
export type ProjectAddons = z.infer<typeof ProjectAddons>

export const RestorePitrBody = z.object({ recovery_time_target_unix: z.number().int().min(0) })

/** The recoverable window of a project with the PITR add-on (GET /platform/database/{ref}/backups' physical_backup_data). */
export const PitrWindow = z.object({
  earliestPhysicalBackupDateUnix: z.number().optional(),
  latestPhysicalBackupDateUnix: z.number().optional(),
})
export type PitrWindow = z.infer<typeof PitrWindow>
