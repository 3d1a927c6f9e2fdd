// The pages of this feature, for the router (loaded on demand through app/areas/database.ts).
export { DatabaseTablesPage } from './DatabaseTablesPage'
export { DatabaseFunctionsPage } from './DatabaseFunctionsPage'
export { DatabaseTriggersPage } from './DatabaseTriggersPage'
export { EnumeratedTypesPage } from './EnumeratedTypesPage'
