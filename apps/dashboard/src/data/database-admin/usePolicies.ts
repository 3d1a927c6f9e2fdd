import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { databaseAdminKeys } from './keys'

export const policiesQuery = (ref: string | undefined, schema: string) =>
  queryOptions({
    queryKey: databaseAdminKeys.policies(ref ?? '', schema),
    queryFn: ref
      ? async ({ signal }) =>
          (await request('GET /platform/pg-meta/{ref}/policies', { params: { ref }, query: { included_schemas: schema }, signal })).filter(
            (policy) => policy.schema === schema,
          )
      : skipToken,
  })

/** A schema's row level security policies in postgres-meta's shape. */
export const usePolicies = (ref: string | undefined, schema: string) => useQuery(policiesQuery(ref, schema))
