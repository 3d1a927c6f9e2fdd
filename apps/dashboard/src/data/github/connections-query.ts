import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { githubKeys } from './keys'

export const getGitHubConnections = (organizationId: number, signal?: AbortSignal) =>
  request('GET /platform/integrations/github/connections', { query: { organization_id: organizationId }, signal })

/** The organization's projects linked to a GitHub repository (any member may list them). */
export const githubConnectionsQueryOptions = (organizationId: number | undefined) =>
  queryOptions({
    queryKey: githubKeys.connections(organizationId ?? 0),
    queryFn: organizationId ? ({ signal }) => getGitHubConnections(organizationId, signal) : skipToken,
    select: (data) => data.connections,
  })

export function useGitHubConnectionsQuery(organizationId: number | undefined) {
  return useQuery(githubConnectionsQueryOptions(organizationId))
}
