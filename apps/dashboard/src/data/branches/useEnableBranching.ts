import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { branchKeys } from './keys'

/** The spec's branch enable payload: the production branch's name and, when verified, its Git branch. */
export interface EnableBranchingVariables {
  projectRef: string
  branchName: string
  gitBranch?: string
}

/** Makes the project itself the production branch (nothing is copied); the free plan is refused with a 400. */
export const enableBranching = ({ projectRef, branchName, gitBranch }: EnableBranchingVariables) =>
  request('POST /v1/projects/{ref}/branches', {
    params: { ref: projectRef },
    body: { branch_name: branchName, ...(gitBranch ? { git_branch: gitBranch } : {}), is_default: true },
  })

export function useEnableBranching() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: enableBranching,
    onSuccess: (_branch, { projectRef }) => queryClient.invalidateQueries({ queryKey: branchKeys.list(projectRef) }),
  })
}
