// Loaded on demand: the Database pages (schema objects, access, extensions, migrations, backups) and the
// database integrations (Vault, webhooks, cron).
export { ExtensionsPage } from '../../features/extensions/ExtensionsPage'
export { ScheduledBackupsPage } from '../../features/backups/ScheduledBackupsPage'
export { MigrationsPage } from '../../features/migrations/MigrationsPage'
export { DatabaseTablesPage, DatabaseFunctionsPage, DatabaseTriggersPage, EnumeratedTypesPage } from '../../features/database-objects'
export { DatabaseIndexesPage, PublicationsPage, DatabaseRolesPage, DatabasePoliciesPage } from '../../features/database-admin'
export { VaultSecretsPage } from '../../features/vault'
export { DatabaseWebhooksPage } from '../../features/database-webhooks'
export { CronJobsPage } from '../../features/cron'
