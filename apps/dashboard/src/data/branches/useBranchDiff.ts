import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { apiText } from '../api'
import { routeUrl } from '../request'
import { branchKeys } from './keys'

/** The SQL that would bring the parent to the branch's schema (text/plain, not JSON). */
export function getBranchDiff(branchId: string, signal?: AbortSignal): Promise<string> {
  return apiText(routeUrl('GET /v1/branches/{branch_id_or_ref}/diff', { params: { branch_id_or_ref: branchId } }), { signal })
}

/** Read when the diff dialog opens (branchId set), and again each time it opens. */
export const branchDiffQuery = (branchId: string | undefined) =>
  queryOptions({
    queryKey: branchKeys.diff(branchId ?? ''),
    queryFn: branchId ? ({ signal }) => getBranchDiff(branchId, signal) : skipToken,
    staleTime: 0,
    retry: false,
  })

export function useBranchDiff(branchId: string | undefined) {
  return useQuery(branchDiffQuery(branchId))
}
