/**
 * Edge functions: statuses, the dashboard's deploy defaults and the limits of one deploy.
 * Plain values only, no zod: the dashboard imports these without the schemas (see the contracts README).
 */
export const FUNCTION_STATUSES = ['ACTIVE', 'REMOVED', 'THROTTLED'] as const

/** The API docs and assistant spec's limits: the dashboard deploys with these. */
export const DEFAULT_ENTRYPOINT = 'index.ts'
export const DEFAULT_VERIFY_JWT = true

/** Limits of one deploy (checked by the server, shown by the dashboard). */
export const FUNCTION_LIMITS = {
  maxFileBytes: 10 * 1024 * 1024,
  maxTotalBytes: 20 * 1024 * 1024,
  maxFiles: 200,
  maxPathLength: 255,
} as const
