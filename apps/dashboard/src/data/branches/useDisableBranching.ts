import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { branchKeys } from './keys'

/** Turns branching off: every preview branch (and its project) is deleted. */
export const disableBranching = ({ projectRef }: { projectRef: string }) =>
  request('DELETE /v1/projects/{ref}/branches', { params: { ref: projectRef } })

export function useDisableBranching() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: disableBranching,
    onSuccess: (_result, { projectRef }) => queryClient.invalidateQueries({ queryKey: branchKeys.list(projectRef) }),
  })
}
