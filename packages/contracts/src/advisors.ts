import { z } from 'zod'

/** The lint names the Management API document lists (V1ProjectAdvisorsResponse); Stratum computes a subset of them. */
export const LINT_NAMES = [
  'unindexed_foreign_keys', 'auth_users_exposed', 'auth_rls_initplan', 'no_primary_key', 'unused_index', 'multiple_permissive_policies',
  'policy_exists_rls_disabled', 'rls_enabled_no_policy', 'duplicate_index', 'security_definer_view', 'function_search_path_mutable',
  'rls_disabled_in_public', 'extension_in_public', 'rls_references_user_metadata', 'materialized_view_in_api', 'foreign_table_in_api',
  'unsupported_reg_types', 'auth_otp_long_expiry', 'auth_otp_short_length', 'ssl_not_enforced', 'network_restrictions_not_set',
  'password_requirements_min_length', 'pitr_not_enabled', 'auth_leaked_password_protection', 'auth_insufficient_mfa_options',
  'auth_password_policy_missing', 'leaked_service_key', 'no_backup_admin', 'vulnerable_postgres_version',
] as const
export const LintName = z.enum(LINT_NAMES)
export type LintName = z.infer<typeof LintName>

export const LINT_LEVELS = ['ERROR', 'WARN', 'INFO'] as const
export type LintLevel = (typeof LINT_LEVELS)[number]
export const LINT_CATEGORIES = ['PERFORMANCE', 'SECURITY'] as const
export type LintCategory = (typeof LINT_CATEGORIES)[number]

export const Lint = z.object({
  name: LintName,
  title: z.string(),
  level: z.enum(LINT_LEVELS),
  facing: z.literal('EXTERNAL'),
  categories: z.array(z.enum(LINT_CATEGORIES)),
  description: z.string(),
  detail: z.string(),
  remediation: z.string(),
  /** The object the lint is about; fkey_name and fkey_columns for unindexed foreign keys, indexes for duplicates. */
  metadata: z
    .object({
      schema: z.string().optional(),
      name: z.string().optional(),
      entity: z.string().optional(),
      type: z.string().optional(),
      fkey_name: z.string().optional(),
      fkey_columns: z.array(z.number()).optional(),
    })
    .passthrough()
    .optional(),
  cache_key: z.string(),
})
export type Lint = z.infer<typeof Lint>

/** GET /v1/projects/{ref}/advisors/security and /performance. */
export const AdvisorsResponse = z.object({ lints: z.array(Lint) })
export type AdvisorsResponse = z.infer<typeof AdvisorsResponse>

export const ADVISOR_KINDS = ['security', 'performance'] as const
export type AdvisorKind = (typeof ADVISOR_KINDS)[number]

/** `lint_type=sql` is the only kind the document names; every Stratum lint is one. */
export const SecurityAdvisorsQuery = z.object({ lint_type: z.enum(['sql']).optional() })

export const advisorsPath = (ref: string, kind: AdvisorKind) => `/v1/projects/${encodeURIComponent(ref)}/advisors/${kind}`
/** The dashboard's call (Supabase Studio's): every lint of both kinds in one array. */
export const runLintsPath = (ref: string) => `/platform/projects/${encodeURIComponent(ref)}/run-lints`

/** Services GET /v1/projects/{ref}/health checks: the document's names, plus `functions` (Stratum's edge functions). */
export const HEALTH_SERVICES = ['auth', 'db', 'db_postgres_user', 'pooler', 'realtime', 'rest', 'storage', 'pg_bouncer', 'functions'] as const
export type HealthService = (typeof HEALTH_SERVICES)[number]

const serviceList = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',') : value),
  z.array(z.enum(HEALTH_SERVICES)).min(1, 'services: name at least one service'),
)
export const HealthQuery = z.object({
  services: serviceList,
  timeout_ms: z.coerce.number().int().min(0).max(10_000).optional(),
})

export const ServiceHealth = z.object({
  name: z.enum(HEALTH_SERVICES),
  /** Deprecated in the document in favour of status; kept for the clients that still read it. */
  healthy: z.boolean(),
  status: z.enum(['COMING_UP', 'ACTIVE_HEALTHY', 'UNHEALTHY']),
  info: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
})
export type ServiceHealth = z.infer<typeof ServiceHealth>
