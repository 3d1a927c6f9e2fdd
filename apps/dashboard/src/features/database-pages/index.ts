export { DatabasePage, EmptyList } from './DatabasePage'
export { READ_ONLY_REASON, useDatabasePage, useSchemaParam, useUrlParam, type DatabasePageState } from './useDatabasePage'
