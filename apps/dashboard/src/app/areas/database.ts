// Loaded on demand: the Database pages (extensions, scheduled backups).
export { ExtensionsPage } from '../../features/extensions/ExtensionsPage'
export { ScheduledBackupsPage } from '../../features/backups/ScheduledBackupsPage'
export { MigrationsPage } from '../../features/migrations/MigrationsPage'
