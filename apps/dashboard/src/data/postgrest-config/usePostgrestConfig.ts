import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { postgrestConfigKeys } from './keys'

export const postgrestConfigQuery = (ref: string) =>
  queryOptions({
    queryKey: postgrestConfigKeys.detail(ref),
    queryFn: ({ signal }) => request('GET /platform/projects/{ref}/config/postgrest', { params: { ref }, signal }),
  })

/** The data API's settings: exposed schemas, extra search path, max rows, pool size. */
export function usePostgrestConfig(ref: string) {
  return useQuery(postgrestConfigQuery(ref))
}
