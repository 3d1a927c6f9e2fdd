import { useEffect } from 'react'
import { useToast } from '../../../components/ui/Toast'
import { errorMessage } from '../../../data/api'
import { useGitHubBranchQuery } from '../../../data/github/branch-query'
import { useDebouncedValue } from '../useDebouncedValue'

/** Typing pauses this long before GitHub is asked about the branch. */
export const GIT_BRANCH_CHECK_DEBOUNCE_MS = 500

export type GitBranchCheckState = 'idle' | 'checking' | 'found' | 'not-found' | 'failed'

/**
 * The live check of the 'Link GitHub Branch' field: the debounced name is looked up in the connected repository.
 * 'checking' covers the debounce too, so the submit button never sees a stale 'found'.
 */
export function useGitBranchCheck(connectionId: number | undefined, branch: string) {
  const toast = useToast()
  const trimmed = branch.trim()
  const settled = useDebouncedValue(trimmed, GIT_BRANCH_CHECK_DEBOUNCE_MS)
  const query = useGitHubBranchQuery(connectionId, settled || undefined)
  const failure = query.isError ? errorMessage(query.error) : undefined

  useEffect(() => {
    if (failure) toast.error(`Failed to check Github branch: ${failure}`)
  }, [failure, toast])

  let state: GitBranchCheckState = 'idle'
  if (connectionId === undefined || trimmed.length === 0) state = 'idle'
  else if (settled !== trimmed || query.isFetching || query.isPending) state = 'checking'
  else if (query.isError) state = 'failed'
  else if (query.data?.found) state = 'found'
  else state = 'not-found'
  return { state, verifiedBranch: state === 'found' ? trimmed : undefined }
}
