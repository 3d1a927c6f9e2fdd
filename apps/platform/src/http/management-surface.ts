/**
 * The part of the Management API reference (docs/reference/management-api-v1.openapi.json) this platform claims: each
 * (method, path template) below is registered by a route file and answers in the reference's shape; every other
 * /v1 path answers 404 with `{ message }` naming it (dashboard-static.ts). The paths are spelt as in the document
 * (`{ref}`), so the check in test/server/management-surface.test.ts finds each one's response schema there.
 *
 * Add a pair here when a route of the document lands, with a call in that test. Routes we serve under /v1 that the
 * document does not have (GET .../analytics/endpoints/logs, POST .../api-keys/legacy) are ours, not claims.
 */
export type SurfaceMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface SurfacePair {
  method: SurfaceMethod
  path: string
}

const claim = (method: SurfaceMethod, ...paths: string[]): SurfacePair[] => paths.map((path) => ({ method, path }))

export const MANAGEMENT_SURFACE: readonly SurfacePair[] = [
  // Organizations and projects (routes/management-v1.ts, project-removal.ts, regions.ts)
  ...claim('GET', '/v1/organizations', '/v1/organizations/{slug}', '/v1/organizations/{slug}/members', '/v1/organizations/{slug}/projects'),
  ...claim('POST', '/v1/organizations', '/v1/projects'),
  ...claim('GET', '/v1/projects', '/v1/projects/{ref}', '/v1/projects/available-regions'),
  ...claim('PATCH', '/v1/projects/{ref}'),
  ...claim('DELETE', '/v1/projects/{ref}'),
  // Lifecycle (lifecycle.ts, upgrade.ts, usage.ts, health.ts)
  ...claim('POST', '/v1/projects/{ref}/pause', '/v1/projects/{ref}/restore', '/v1/projects/{ref}/upgrade', '/v1/projects/{ref}/readonly/temporary-disable'),
  ...claim(
    'GET',
    '/v1/projects/{ref}/restore',
    '/v1/projects/{ref}/database/backups',
    '/v1/projects/{ref}/upgrade/eligibility',
    '/v1/projects/{ref}/upgrade/status',
    '/v1/projects/{ref}/readonly',
    '/v1/projects/{ref}/health',
  ),
  // Database: queries, migrations, password, settings (sql.ts, migrations.ts, database-access.ts, database-config.ts)
  ...claim('POST', '/v1/projects/{ref}/database/query', '/v1/projects/{ref}/database/query/read-only'),
  ...claim('GET', '/v1/projects/{ref}/database/migrations', '/v1/projects/{ref}/database/migrations/{version}'),
  ...claim('POST', '/v1/projects/{ref}/database/migrations'),
  ...claim('PUT', '/v1/projects/{ref}/database/migrations'),
  ...claim('PATCH', '/v1/projects/{ref}/database/migrations/{version}'),
  ...claim('DELETE', '/v1/projects/{ref}/database/migrations'),
  ...claim('PATCH', '/v1/projects/{ref}/database/password'),
  ...claim('GET', '/v1/projects/{ref}/config/database/postgres', '/v1/projects/{ref}/network-restrictions', '/v1/projects/{ref}/ssl-enforcement'),
  ...claim('PUT', '/v1/projects/{ref}/config/database/postgres', '/v1/projects/{ref}/ssl-enforcement'),
  ...claim('PATCH', '/v1/projects/{ref}/network-restrictions'),
  ...claim('POST', '/v1/projects/{ref}/network-restrictions/apply'),
  // API keys (api-keys.ts): the new keys beside the legacy JWT ones
  ...claim('GET', '/v1/projects/{ref}/api-keys', '/v1/projects/{ref}/api-keys/{id}', '/v1/projects/{ref}/api-keys/legacy'),
  ...claim('POST', '/v1/projects/{ref}/api-keys'),
  ...claim('PATCH', '/v1/projects/{ref}/api-keys/{id}'),
  ...claim('DELETE', '/v1/projects/{ref}/api-keys/{id}'),
  ...claim('PUT', '/v1/projects/{ref}/api-keys/legacy'),
  // Edge functions and their secrets (functions.ts, function-secrets.ts)
  ...claim('GET', '/v1/projects/{ref}/functions', '/v1/projects/{ref}/functions/{function_slug}', '/v1/projects/{ref}/functions/{function_slug}/body'),
  ...claim('POST', '/v1/projects/{ref}/functions/deploy'),
  ...claim('DELETE', '/v1/projects/{ref}/functions/{function_slug}'),
  ...claim('GET', '/v1/projects/{ref}/secrets'),
  ...claim('POST', '/v1/projects/{ref}/secrets'),
  ...claim('DELETE', '/v1/projects/{ref}/secrets'),
  // Service settings (project-auth.ts, postgrest-config.ts, storage.ts, types-and-hostname.ts)
  ...claim('GET', '/v1/projects/{ref}/config/auth', '/v1/projects/{ref}/postgrest', '/v1/projects/{ref}/config/storage', '/v1/projects/{ref}/storage/buckets'),
  ...claim('PATCH', '/v1/projects/{ref}/config/auth', '/v1/projects/{ref}/postgrest', '/v1/projects/{ref}/config/storage'),
  // JWT signing keys (services/auth/routes.ts, keys/project-keys.ts)
  ...claim('GET', '/v1/projects/{ref}/config/auth/signing-keys', '/v1/projects/{ref}/config/auth/signing-keys/legacy', '/v1/projects/{ref}/config/auth/signing-keys/{id}'),
  ...claim('POST', '/v1/projects/{ref}/config/auth/signing-keys', '/v1/projects/{ref}/config/auth/signing-keys/legacy'),
  ...claim('PATCH', '/v1/projects/{ref}/config/auth/signing-keys/{id}'),
  ...claim('DELETE', '/v1/projects/{ref}/config/auth/signing-keys/{id}'),
  // Realtime's settings (realtime-config.ts)
  ...claim('GET', '/v1/projects/{ref}/config/realtime'),
  ...claim('PATCH', '/v1/projects/{ref}/config/realtime'),
  ...claim('POST', '/v1/projects/{ref}/config/realtime/shutdown'),
  ...claim('GET', '/v1/projects/{ref}/types/typescript', '/v1/projects/{ref}/custom-hostname'),
  // Observability (advisors.ts, logs.ts)
  ...claim('GET', '/v1/projects/{ref}/advisors/performance', '/v1/projects/{ref}/advisors/security', '/v1/projects/{ref}/analytics/endpoints/logs.all'),
  // SQL snippets (snippets-v1.ts)
  ...claim('GET', '/v1/snippets', '/v1/snippets/{id}'),
  // Branching (branches.ts)
  ...claim('GET', '/v1/projects/{ref}/branches', '/v1/projects/{ref}/branches/{name}', '/v1/branches/{branch_id_or_ref}', '/v1/branches/{branch_id_or_ref}/diff'),
  ...claim('POST', '/v1/projects/{ref}/branches', '/v1/branches/{branch_id_or_ref}/merge', '/v1/branches/{branch_id_or_ref}/push', '/v1/branches/{branch_id_or_ref}/reset'),
  ...claim('PATCH', '/v1/branches/{branch_id_or_ref}'),
  ...claim('DELETE', '/v1/projects/{ref}/branches', '/v1/branches/{branch_id_or_ref}'),
  // Point-in-time recovery as an add-on (pitr.ts)
  ...claim('GET', '/v1/projects/{ref}/billing/addons'),
  ...claim('PATCH', '/v1/projects/{ref}/billing/addons'),
  ...claim('DELETE', '/v1/projects/{ref}/billing/addons/{addon_variant}'),
  ...claim('POST', '/v1/projects/{ref}/database/backups/restore-pitr'),
]
