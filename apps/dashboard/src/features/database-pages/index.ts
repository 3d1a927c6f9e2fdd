export { DatabasePage, EmptyList } from './DatabasePage'
export { READ_ONLY_REASON, useDatabasePage, useSchemaParam, useSchemaSearch, useUrlParam, type DatabasePageState, type SchemaSearch } from './useDatabasePage'
