import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { databaseAdminKeys } from './keys'

/** A schema's tables in postgres-meta's shape; with their columns when a form needs them. */
export const schemaTablesQuery = (ref: string | undefined, schema: string, includeColumns: boolean) =>
  queryOptions({
    queryKey: databaseAdminKeys.tables(ref ?? '', schema, includeColumns),
    queryFn: ref
      ? async ({ signal }) =>
          (
            await request('GET /platform/pg-meta/{ref}/tables', {
              params: { ref },
              query: { included_schemas: schema, include_columns: includeColumns },
              signal,
            })
          ).filter((table) => table.schema === schema)
      : skipToken,
  })

export const useSchemaTables = (ref: string | undefined, schema: string, includeColumns = false) => useQuery(schemaTablesQuery(ref, schema, includeColumns))
