import path from 'node:path'

/**
 * Every setting is an environment variable, documented in the README's table.
 * Read once at boot; nothing else in the platform reads process.env.
 */
export interface Config {
  port: number
  host: string
  dataDir: string
  /** When set, the platform data lives in this Postgres instead of the embedded one. */
  platformDatabaseUrl: string | null
  adminEmail: string
  adminPassword: string | null
  /** Host name shown to users in connection details, and where project instances listen. */
  dbHost: string
  dbListenAddresses: string
  /** Port of the embedded platform database on its first start (kept afterwards); 0 = first free from 15432. */
  platformDbPort: number
  /** First port tried for project instances (each project gets its own). */
  projectPortStart: number
  /** Public origin used for CSRF origin checks when behind a proxy (default: the request's own Host). */
  publicUrl: string | null
  loginRateLimitPerMinute: number
  logLevel: string
  /** Pause between the steps of lifecycle operations: lets tests interrupt one half-way. 0 in use. */
  operationStepDelayMs: number
  /** Where the built dashboard lives. */
  dashboardDist: string
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`)
  return value
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const repoRoot = path.resolve(import.meta.dirname, '../../..')
  return {
    port: intFrom(env, 'PORT', 8000),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.STRATUM_DATA_DIR || path.join(repoRoot, '.stratum')),
    platformDatabaseUrl: env.PLATFORM_DATABASE_URL || null,
    adminEmail: (env.STRATUM_ADMIN_EMAIL || 'admin@stratum.local').trim().toLowerCase(),
    adminPassword: env.STRATUM_ADMIN_PASSWORD || null,
    dbHost: env.STRATUM_DB_HOST || 'localhost',
    dbListenAddresses: env.STRATUM_DB_LISTEN_ADDRESSES || 'localhost',
    platformDbPort: intFrom(env, 'STRATUM_PLATFORM_DB_PORT', 0),
    projectPortStart: intFrom(env, 'STRATUM_PROJECT_PORT_START', 15500),
    publicUrl: env.STRATUM_PUBLIC_URL || null,
    loginRateLimitPerMinute: intFrom(env, 'STRATUM_LOGIN_RATE_LIMIT', 10),
    logLevel: env.LOG_LEVEL || 'info',
    operationStepDelayMs: intFrom(env, 'STRATUM_OPERATION_STEP_DELAY_MS', 0),
    dashboardDist: path.resolve(env.STRATUM_DASHBOARD_DIST || path.join(repoRoot, 'apps/dashboard/dist')),
  }
}
