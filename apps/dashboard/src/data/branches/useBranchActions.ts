import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { projectKeys } from '../projects/keys'
import { branchKeys } from './keys'

/** Every action names the branch and the project whose list shows it (refreshed afterwards). */
export interface BranchActionVariables {
  branchId: string
  projectRef: string
}

const branchPath = (branchId: string, action = '') => `/v1/branches/${encodeURIComponent(branchId)}${action}`

export const deleteBranch = ({ branchId }: BranchActionVariables) => api<{ message: string }>(branchPath(branchId), { method: 'DELETE' })
/** Back to the parent's current state (schema, and data when the branch was made with data). */
export const resetBranch = ({ branchId }: BranchActionVariables) => api<unknown>(branchPath(branchId, '/reset'), { method: 'POST', body: {} })
/** The branch's migrations applied to its parent. */
export const mergeBranch = ({ branchId }: BranchActionVariables) => api<unknown>(branchPath(branchId, '/merge'), { method: 'POST', body: {} })
/** The parent's new migrations applied to the branch. */
export const pushBranch = ({ branchId }: BranchActionVariables) => api<unknown>(branchPath(branchId, '/push'), { method: 'POST', body: {} })

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
