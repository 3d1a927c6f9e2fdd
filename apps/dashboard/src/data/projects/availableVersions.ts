import type { RestoreVersions } from '@stratum/contracts'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { api } from '../api'
import { projectKeys } from './keys'

/** POST /platform/organizations/{slug}/available-versions: the Postgres versions a new project can start on, newest first. */
export const availableVersionsQuery = (organizationSlug: string | undefined) =>
  queryOptions({
    queryKey: projectKeys.availableVersions(organizationSlug ?? ''),
    queryFn: organizationSlug
      ? ({ signal }) =>
          api<RestoreVersions>(`/platform/organizations/${encodeURIComponent(organizationSlug)}/available-versions`, {
            method: 'POST',
            body: { provider: 'local', region: 'local' },
            signal,
          })
      : skipToken,
    staleTime: 60 * 60_000,
  })

export const useAvailableVersions = (organizationSlug: string | undefined) => useQuery(availableVersionsQuery(organizationSlug))
