import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { organizationKeys } from './keys'

export const getOrganization = (slug: string, signal?: AbortSignal) =>
  request('GET /platform/organizations/{slug}', { params: { slug }, signal })

export const organizationQuery = (slug: string | undefined) =>
  queryOptions({
    queryKey: organizationKeys.detail(slug ?? ''),
    queryFn: slug ? ({ signal }) => getOrganization(slug, signal) : skipToken,
  })

export function useOrganization(slug: string | undefined) {
  return useQuery(organizationQuery(slug))
}
