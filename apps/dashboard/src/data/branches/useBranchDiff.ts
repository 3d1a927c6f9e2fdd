import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { ApiError } from '../api'
import { routeUrl } from '../request'
import { branchKeys } from './keys'

/** The SQL that would bring the parent to the branch's schema (text/plain, not JSON). */
export async function getBranchDiff(branchId: string, signal?: AbortSignal): Promise<string> {
  const response = await fetch(routeUrl('GET /v1/branches/{branch_id_or_ref}/diff', { params: { branch_id_or_ref: branchId } }), { credentials: 'same-origin', signal })
  const text = await response.text()
  if (response.ok) return text
  let message = `Request failed with status ${response.status}`
  try {
    const payload: unknown = JSON.parse(text)
    if (payload && typeof payload === 'object' && 'message' in payload && typeof payload.message === 'string') message = payload.message
  } catch {
    // not JSON: keep the status line
  }
  throw new ApiError(message, response.status)
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
