import { useQuery } from '@tanstack/react-query'
import type { Organization } from '@stratum/contracts'
import { api } from '../api'
import { organizationKeys } from './keys'

export const getOrganization = (slug: string, signal?: AbortSignal) =>
  api<Organization>(`/platform/organizations/${encodeURIComponent(slug)}`, { signal })

export function useOrganization(slug: string | undefined) {
  return useQuery({
    queryKey: organizationKeys.detail(slug ?? ''),
    queryFn: ({ signal }) => getOrganization(slug!, signal),
    enabled: Boolean(slug),
  })
}
