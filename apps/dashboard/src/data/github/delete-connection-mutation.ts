import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { githubKeys } from './keys'

export interface DeleteGitHubConnectionVariables {
  connectionId: number
  /** The connection's organization, whose list is refreshed afterwards. */
  organizationId: number
}

export const deleteGitHubConnection = ({ connectionId }: DeleteGitHubConnectionVariables) =>
  api<void>(`/platform/integrations/github/connections/${connectionId}`, { method: 'DELETE' })

export function useDeleteGitHubConnectionMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteGitHubConnection,
    onSuccess: (_void, { organizationId }) => queryClient.invalidateQueries({ queryKey: githubKeys.connections(organizationId) }),
  })
}
