import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { databaseObjectKeys } from './keys'

/** One schema's user-defined types (no array or table row types): the enumerated ones carry their values. */
export const databaseTypesQuery = (ref: string | undefined, schema: string) =>
  queryOptions({
    queryKey: databaseObjectKeys.types(ref ?? '', schema),
    queryFn: ref ? ({ signal }) => request('GET /platform/pg-meta/{ref}/types', { params: { ref }, query: { included_schemas: schema }, signal }) : skipToken,
  })

export const useDatabaseTypes = (ref: string | undefined, schema: string) => useQuery(databaseTypesQuery(ref, schema))
