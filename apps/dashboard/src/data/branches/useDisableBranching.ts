import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { branchKeys } from './keys'

/** Turns branching off: every preview branch (and its project) is deleted. */
export const disableBranching = ({ projectRef }: { projectRef: string }) =>
  api<unknown>(`/v1/projects/${encodeURIComponent(projectRef)}/branches`, { method: 'DELETE' })

export function useDisableBranching() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: disableBranching,
    onSuccess: (_result, { projectRef }) => queryClient.invalidateQueries({ queryKey: branchKeys.list(projectRef) }),
  })
}
