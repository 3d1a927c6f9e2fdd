import { useQuery } from '@tanstack/react-query'
import type { Project } from '@stratum/contracts'
import { api } from '../api'
import { projectKeys } from './keys'

export const getProjects = (organizationSlug?: string, signal?: AbortSignal) =>
  api<Project[]>(
    organizationSlug
      ? `/platform/projects?organization_slug=${encodeURIComponent(organizationSlug)}`
      : '/platform/projects',
    { signal },
  )

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
