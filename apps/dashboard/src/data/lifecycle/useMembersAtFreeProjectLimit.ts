import { useQuery } from '@tanstack/react-query'
import type { MemberAtFreeProjectLimit } from '@stratum/contracts'
import { api } from '../api'
import { lifecycleKeys } from './keys'

export const getMembersAtFreeProjectLimit = (slug: string, signal?: AbortSignal) =>
  api<MemberAtFreeProjectLimit[]>(
    `/platform/organizations/${encodeURIComponent(slug)}/members/reached-free-project-limit`,
    { signal },
  )

/** Owners and administrators of a free organization who already run their free projects. */
export function useMembersAtFreeProjectLimit(slug: string | undefined, enabled = true) {
  return useQuery({
    queryKey: lifecycleKeys.freeProjectLimit(slug ?? ''),
    queryFn: ({ signal }) => getMembersAtFreeProjectLimit(slug!, signal),
    enabled: Boolean(slug) && enabled,
    staleTime: 0,
  })
}
