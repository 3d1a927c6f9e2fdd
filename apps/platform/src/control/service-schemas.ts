import { ensureAuthSchema } from '../services/auth/schema.js'
import { ensureCronSchema } from '../services/cron/schema.js'
import { ensureNetSchema } from '../services/net/schema.js'
import { ensureRealtimeSchema } from '../services/realtime/schema.js'
import { ensureStorageSchema } from '../services/storage/schema.js'
import { ensureVaultSchema } from '../services/vault/schema.js'
import { withAdminClient, type AdminConnection } from './bootstrap-roles.js'

/**
 * The schemas the platform's services keep inside every project database (auth, storage, realtime, vault, cron, and
 * net with supabase_functions), each idempotent. They exist from the start: user SQL may reference auth.users,
 * storage.objects, `supabase_realtime`, vault.create_secret() or cron.schedule() before any service is used. Run
 * into each Postgres major's template, and by a provisioning without templates.
 */
export async function ensureServiceSchemas(connection: AdminConnection, passwords: { adminPassword: string; editorPassword: string }): Promise<void> {
  await withAdminClient(connection, (client) => ensureAuthSchema(client, passwords.adminPassword))
  await withAdminClient(connection, (client) => ensureStorageSchema(client, passwords.editorPassword))
  await withAdminClient(connection, (client) => ensureRealtimeSchema(client, passwords.adminPassword))
  await withAdminClient(connection, (client) => ensureVaultSchema(client))
  await withAdminClient(connection, (client) => ensureCronSchema(client))
  await withAdminClient(connection, (client) => ensureNetSchema(client))
}

/** The sources of the statements above (part of a template's recipe: change one and templates are built again). */
export const SERVICE_SCHEMA_SOURCES = [
  ['control', 'service-schemas.ts'],
  ['services', 'auth', 'schema.ts'],
  ['services', 'storage', 'schema.ts'],
  ['services', 'realtime', 'schema.ts'],
  ['services', 'vault', 'schema.ts'],
  ['services', 'vault', 'crypto-sql.ts'],
  ['services', 'cron', 'schema.ts'],
  ['services', 'net', 'schema.ts'],
]
