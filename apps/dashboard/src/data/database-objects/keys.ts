/** The Database pages' listings (schema objects), refreshed together after any change made from them. */
export const databaseObjectKeys = {
  all: (ref: string) => ['database-objects', ref] as const,
  tables: (ref: string, schema: string) => [...databaseObjectKeys.all(ref), 'tables', schema] as const,
  functions: (ref: string, schema: string | null) => [...databaseObjectKeys.all(ref), 'functions', schema] as const,
  triggers: (ref: string, schema: string) => [...databaseObjectKeys.all(ref), 'triggers', schema] as const,
  types: (ref: string, schema: string) => [...databaseObjectKeys.all(ref), 'types', schema] as const,
  publications: (ref: string) => [...databaseObjectKeys.all(ref), 'publications'] as const,
  languages: (ref: string) => [...databaseObjectKeys.all(ref), 'languages'] as const,
}
