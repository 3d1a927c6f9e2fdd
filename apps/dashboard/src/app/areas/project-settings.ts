// Loaded on demand: a project's settings (general, compute and disk, API keys, JWT signing keys) and its GraphiQL page.
export { ProjectGeneralSettingsPage } from '../../features/project-settings/ProjectGeneralSettingsPage'
export { ComputeAndDiskPage } from '../../features/project-settings/ComputeAndDiskPage'
export { ApiSettingsPage } from '../../features/api-keys/ApiSettingsPage'
export { JwtKeysPage } from '../../features/jwt-keys'
export { GraphiqlPage } from '../../features/api-docs/GraphiqlPage'
export { InfrastructurePage } from '../../features/infrastructure'
export { DatabaseSettingsPage } from '../../features/database-settings/DatabaseSettingsPage'
