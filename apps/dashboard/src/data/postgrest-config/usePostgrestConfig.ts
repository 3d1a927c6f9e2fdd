import { queryOptions, useQuery } from '@tanstack/react-query'
import type { PostgrestConfigResponse } from '@stratum/contracts'
import { api } from '../api'
import { postgrestConfigKeys } from './keys'

export const postgrestConfigQuery = (ref: string) =>
  queryOptions({
    queryKey: postgrestConfigKeys.detail(ref),
    queryFn: ({ signal }) => api<PostgrestConfigResponse>(`/platform/projects/${encodeURIComponent(ref)}/config/postgrest`, { signal }),
  })

/** The data API's settings: exposed schemas, extra search path, max rows, pool size. */
export function usePostgrestConfig(ref: string) {
  return useQuery(postgrestConfigQuery(ref))
}
