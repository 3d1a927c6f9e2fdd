import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { lifecycleKeys } from './keys'

export const getMembersAtFreeProjectLimit = (slug: string, signal?: AbortSignal) =>
  request('GET /platform/organizations/{slug}/members/reached-free-project-limit', { params: { slug }, signal })

/** Owners and administrators of a free organization who already run their free projects. */
export const membersAtFreeProjectLimitQuery = (slug: string | undefined) =>
  queryOptions({
    queryKey: lifecycleKeys.freeProjectLimit(slug ?? ''),
    queryFn: slug ? ({ signal }) => getMembersAtFreeProjectLimit(slug, signal) : skipToken,
    staleTime: 0,
  })

/** `enabled` false: fetched only by `refetch()` (the restore button asks at the moment of the click). */
export function useMembersAtFreeProjectLimit(slug: string | undefined, enabled = true) {
  return useQuery({ ...membersAtFreeProjectLimitQuery(slug), enabled })
}
