import { useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { projectKeys } from './keys'

export const getProjects = (organizationSlug?: string, signal?: AbortSignal) =>
  request('GET /platform/projects', { query: { organization_slug: organizationSlug || undefined }, signal })

/** Projects the user can see, optionally limited to one organization. */
export function useProjects(organizationSlug?: string) {
  return useQuery({
    queryKey: projectKeys.list(organizationSlug),
    queryFn: ({ signal }) => getProjects(organizationSlug, signal),
    // Cards show a status badge: keep it moving while any project is starting up.
    refetchInterval: (query) =>
      query.state.data?.some((project) => project.status === 'COMING_UP') ? 2000 : false,
  })
}
