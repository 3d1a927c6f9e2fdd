import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { githubKeys } from './keys'

export interface DeleteGitHubConnectionVariables {
  connectionId: number
  /** The connection's organization, whose list is refreshed afterwards. */
  organizationId: number
}

export const deleteGitHubConnection = ({ connectionId }: DeleteGitHubConnectionVariables) =>
  request('DELETE /platform/integrations/github/connections/{connectionId}', { params: { connectionId } })

export function useDeleteGitHubConnectionMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteGitHubConnection,
    onSuccess: (_void, { organizationId }) => queryClient.invalidateQueries({ queryKey: githubKeys.connections(organizationId) }),
  })
}
