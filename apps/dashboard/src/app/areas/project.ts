// Loaded on demand: the project shell (with the resizable panels) and the pages inside it.
export { ProjectLayout } from '../layouts/ProjectLayout'
export { ProjectHomePage } from '../../features/project-home/ProjectHomePage'
export { ProjectGeneralSettingsPage } from '../../features/project-settings/ProjectGeneralSettingsPage'
export { ProjectFeaturePlaceholder } from '../../features/coming-later/ProjectFeaturePlaceholder'
export { ComputeAndDiskPage } from '../../features/project-settings/ComputeAndDiskPage'
export { ScheduledBackupsPage } from '../../features/backups/ScheduledBackupsPage'
export { ApiSettingsPage } from '../../features/api-keys/ApiSettingsPage'
export { GraphiqlPage } from '../../features/api-docs/GraphiqlPage'
