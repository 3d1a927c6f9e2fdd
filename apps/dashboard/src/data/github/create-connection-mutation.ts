import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { githubKeys } from './keys'

export interface CreateGitHubConnectionVariables {
  organization_id: number
  project_ref: string
  /** owner/repo */
  repository: string
  token: string
  workdir?: string
}

/** The server checks the repository with the token first: a bad token or repository is a 400 with GitHub's reason. */
export const createGitHubConnection = (body: CreateGitHubConnectionVariables) =>
  request('POST /platform/integrations/github/connections', { body })

export function useCreateGitHubConnectionMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createGitHubConnection,
    onSuccess: (_created, { organization_id }) => queryClient.invalidateQueries({ queryKey: githubKeys.connections(organization_id) }),
  })
}
