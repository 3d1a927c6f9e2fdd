// Loaded on demand: the Database pages (extensions, scheduled backups).
export { ExtensionsPage } from '../../features/extensions/ExtensionsPage'
export { ScheduledBackupsPage } from '../../features/backups/ScheduledBackupsPage'
