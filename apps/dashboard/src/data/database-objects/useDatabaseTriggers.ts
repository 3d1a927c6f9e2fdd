import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { databaseObjectKeys } from './keys'

/** The triggers on one schema's tables. */
export const databaseTriggersQuery = (ref: string | undefined, schema: string) =>
  queryOptions({
    queryKey: databaseObjectKeys.triggers(ref ?? '', schema),
    queryFn: ref ? ({ signal }) => request('GET /platform/pg-meta/{ref}/triggers', { params: { ref }, query: { included_schemas: schema }, signal }) : skipToken,
  })

export const useDatabaseTriggers = (ref: string | undefined, schema: string) => useQuery(databaseTriggersQuery(ref, schema))
