import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { isApiError } from '../api'
import { request } from '../request'
import { githubKeys } from './keys'

/** The branch as GitHub describes it (the contracts' GitHubBranch). */
export interface GitHubBranchInfo {
  name: string
  commit: { sha: string }
  protected?: boolean
}

/**
 * The answer of the branch check. A branch GitHub does not know is an answer, not an error: `found: false` with the
 * server's text ('Unable to find branch "{branch}" in {owner}/{repo}'), which the dialog shows under the field.
 * Any other failure (token revoked, GitHub unreachable) is thrown, for the 'Failed to check Github branch' toast.
 */
export type GitHubBranchCheck = { found: true; branch: GitHubBranchInfo } | { found: false; message: string }

export async function checkGitHubBranch(connectionId: number, branchName: string, signal?: AbortSignal): Promise<GitHubBranchCheck> {
  try {
    const branch = await request('GET /platform/integrations/github/branches/{connectionId}/{branchName}', { params: { connectionId, branchName }, signal })
    return { found: true, branch }
  } catch (error) {
    if (isApiError(error, 404)) return { found: false, message: error.message }
    throw error
  }
}

/** Waits (skipToken) until there is a connection and a non-empty branch name. */
export const githubBranchQueryOptions = (connectionId: number | undefined, branchName: string | undefined) =>
  queryOptions({
    queryKey: githubKeys.branch(connectionId ?? 0, branchName ?? ''),
    queryFn: connectionId && branchName ? ({ signal }) => checkGitHubBranch(connectionId, branchName, signal) : skipToken,
    retry: false,
    staleTime: 10_000,
  })

export function useGitHubBranchQuery(connectionId: number | undefined, branchName: string | undefined) {
  return useQuery(githubBranchQueryOptions(connectionId, branchName))
}
