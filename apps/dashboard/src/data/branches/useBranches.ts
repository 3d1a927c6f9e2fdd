import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { Branch } from '@stratum/contracts'
import { request } from '../request'
import { statusPollInterval } from '../projects/useProjectStatus'
import { branchKeys } from './keys'

/** How often the list is read again while a branch is still being made or its project changes status. */
export const BRANCHES_POLL_MS = 3000

const BRANCH_IN_PROGRESS: ReadonlySet<Branch['status']> = new Set(['CREATING_PROJECT', 'RUNNING_MIGRATIONS'])

/** A branch whose copy or migrations are still running, or whose own project is between two statuses. */
export function branchInProgress(branch: Branch): boolean {
  if (BRANCH_IN_PROGRESS.has(branch.status)) return true
  return branch.preview_project_status !== undefined && statusPollInterval(branch.preview_project_status) !== false
}

export const getBranches = (ref: string, signal?: AbortSignal) => request('GET /v1/projects/{ref}/branches', { params: { ref }, signal })

/** The project's branches: empty while branching is off; the production branch is the one with is_default. */
export const branchesQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: branchKeys.list(ref ?? ''),
    queryFn: ref ? ({ signal }) => getBranches(ref, signal) : skipToken,
    refetchInterval: (query) => (query.state.data?.some(branchInProgress) ? BRANCHES_POLL_MS : false),
  })

export function useBranches(ref: string | undefined) {
  return useQuery(branchesQuery(ref))
}
