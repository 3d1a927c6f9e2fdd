import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { projectKeys } from '../projects/keys'
import { branchKeys } from './keys'

/** Every action names the branch and the project whose list shows it (refreshed afterwards). */
export interface BranchActionVariables {
  branchId: string
  projectRef: string
}

export const deleteBranch = ({ branchId }: BranchActionVariables) => request('DELETE /v1/branches/{branch_id_or_ref}', { params: { branch_id_or_ref: branchId } })
/** Back to the parent's current state (schema, and data when the branch was made with data). */
export const resetBranch = ({ branchId }: BranchActionVariables) =>
  request('POST /v1/branches/{branch_id_or_ref}/reset', { params: { branch_id_or_ref: branchId }, body: {} })
/** The branch's migrations applied to its parent. */
export const mergeBranch = ({ branchId }: BranchActionVariables) =>
  request('POST /v1/branches/{branch_id_or_ref}/merge', { params: { branch_id_or_ref: branchId }, body: {} })
/** The parent's new migrations applied to the branch. */
export const pushBranch = ({ branchId }: BranchActionVariables) =>
  request('POST /v1/branches/{branch_id_or_ref}/push', { params: { branch_id_or_ref: branchId }, body: {} })

function useBranchMutation(mutationFn: (variables: BranchActionVariables) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSuccess: async (_result, { projectRef, branchId }) => {
      await queryClient.invalidateQueries({ queryKey: branchKeys.list(projectRef) })
      void queryClient.invalidateQueries({ queryKey: branchKeys.diff(branchId) })
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() })
    },
  })
}

export const useDeleteBranch = () => useBranchMutation(deleteBranch)
export const useResetBranch = () => useBranchMutation(resetBranch)
export const useMergeBranch = () => useBranchMutation(mergeBranch)
export const usePushBranch = () => useBranchMutation(pushBranch)
