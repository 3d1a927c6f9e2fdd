import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { branchKeys } from './keys'

export interface CreateBranchVariables {
  projectRef: string
  branchName: string
  gitBranch?: string
  /** Copy the parent's rows too (schema, roles and settings only when false). */
  withData?: boolean
  /** Copy the parent as it was at this moment (unix seconds; the PITR add-on keeps the WAL for it). */
  recoveryTimeTargetUnix?: number
}

/** A preview branch: the server answers at once and makes the copy in the background (the list polls). */
export const createBranch = ({ projectRef, branchName, gitBranch, withData, recoveryTimeTargetUnix }: CreateBranchVariables) =>
  request('POST /v1/projects/{ref}/branches', {
    params: { ref: projectRef },
    body: {
      branch_name: branchName,
      ...(gitBranch ? { git_branch: gitBranch } : {}),
      ...(withData === undefined ? {} : { with_data: withData }),
      ...(recoveryTimeTargetUnix === undefined ? {} : { recovery_time_target_unix: recoveryTimeTargetUnix }),
    },
  })

export function useCreateBranch() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createBranch,
    onSuccess: (_branch, { projectRef }) => queryClient.invalidateQueries({ queryKey: branchKeys.list(projectRef) }),
  })
}
