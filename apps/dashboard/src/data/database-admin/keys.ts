/** Every read of the Database admin pages (indexes, publications, roles, policies) sits under all(ref): a change refreshes them together. */
export const databaseAdminKeys = {
  all: (ref: string) => ['database-admin', ref] as const,
  indexes: (ref: string, schema: string) => [...databaseAdminKeys.all(ref), 'indexes', schema] as const,
  indexStats: (ref: string, schema: string) => [...databaseAdminKeys.all(ref), 'index-stats', schema] as const,
  tables: (ref: string, schema: string, columns: boolean) => [...databaseAdminKeys.all(ref), 'tables', schema, columns] as const,
  publications: (ref: string) => [...databaseAdminKeys.all(ref), 'publications'] as const,
  roles: (ref: string) => [...databaseAdminKeys.all(ref), 'roles'] as const,
  roleCatalog: (ref: string) => [...databaseAdminKeys.all(ref), 'role-catalog'] as const,
  roleGrants: (ref: string, role: string, schema: string) => [...databaseAdminKeys.all(ref), 'role-grants', role, schema] as const,
  policies: (ref: string, schema: string) => [...databaseAdminKeys.all(ref), 'policies', schema] as const,
}
