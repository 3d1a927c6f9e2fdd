import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { databaseObjectKeys } from './keys'

/** The functions of one schema, or (schema null) of every user schema, as postgres-meta lists them. */
export const databaseFunctionsQuery = (ref: string | undefined, schema: string | null) =>
  queryOptions({
    queryKey: databaseObjectKeys.functions(ref ?? '', schema),
    queryFn: ref
      ? ({ signal }) => request('GET /platform/pg-meta/{ref}/functions', { params: { ref }, query: schema === null ? {} : { included_schemas: schema }, signal })
      : skipToken,
  })

export const useDatabaseFunctions = (ref: string | undefined, schema: string | null) => useQuery(databaseFunctionsQuery(ref, schema))
