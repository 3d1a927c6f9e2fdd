import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { projectKeys } from './keys'

/** POST /platform/organizations/{slug}/available-versions: the Postgres versions a new project can start on, newest first. */
export const availableVersionsQuery = (organizationSlug: string | undefined) =>
  queryOptions({
    queryKey: projectKeys.availableVersions(organizationSlug ?? ''),
    queryFn: organizationSlug
      ? ({ signal }) =>
          request('POST /platform/organizations/{slug}/available-versions', {
            params: { slug: organizationSlug },
            body: { provider: 'local', region: 'local' },
            signal,
          })
      : skipToken,
    staleTime: 60 * 60_000,
  })

export const useAvailableVersions = (organizationSlug: string | undefined) => useQuery(availableVersionsQuery(organizationSlug))
