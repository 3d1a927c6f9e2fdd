import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { usageKeys } from './keys'

/** The SQL editor spec's stale time of GET /platform/projects-resource-warnings. */
const STALE_MS = 60 * 60_000

/** Every project's resource-warning record the caller reads; refetched after a quota change (useDiskQuota). */
export const resourceWarningsQuery = () =>
  queryOptions({
    queryKey: usageKeys.resourceWarnings(),
    queryFn: ({ signal }) => request('GET /platform/projects-resource-warnings', { signal }),
    staleTime: STALE_MS,
  })

export function useResourceWarnings() {
  return useQuery(resourceWarningsQuery())
}
