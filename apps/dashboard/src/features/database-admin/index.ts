// The pages of this feature, for the router (loaded on demand through app/areas/database.ts).
export { DatabaseIndexesPage } from './DatabaseIndexesPage'
export { PublicationsPage } from './PublicationsPage'
export { DatabaseRolesPage } from './DatabaseRolesPage'
export { DatabasePoliciesPage } from './DatabasePoliciesPage'
