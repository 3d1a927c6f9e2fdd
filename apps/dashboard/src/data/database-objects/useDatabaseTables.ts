import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { databaseObjectKeys } from './keys'

/** One schema's tables with size, row estimate and RLS state (postgres-meta's listing, without columns). */
export const databaseTablesQuery = (ref: string | undefined, schema: string) =>
  queryOptions({
    queryKey: databaseObjectKeys.tables(ref ?? '', schema),
    queryFn: ref
      ? ({ signal }) => request('GET /platform/pg-meta/{ref}/tables', { params: { ref }, query: { included_schemas: schema, include_columns: false }, signal })
      : skipToken,
  })

export const useDatabaseTables = (ref: string | undefined, schema: string) => useQuery(databaseTablesQuery(ref, schema))
