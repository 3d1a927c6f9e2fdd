import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { Organization } from '@stratum/contracts'
import { api } from '../api'
import { organizationKeys } from './keys'

export const getOrganization = (slug: string, signal?: AbortSignal) =>
  api<Organization>(`/platform/organizations/${encodeURIComponent(slug)}`, { signal })

export const organizationQuery = (slug: string | undefined) =>
  queryOptions({
    queryKey: organizationKeys.detail(slug ?? ''),
    queryFn: slug ? ({ signal }) => getOrganization(slug, signal) : skipToken,
  })

export function useOrganization(slug: string | undefined) {
  return useQuery(organizationQuery(slug))
}
