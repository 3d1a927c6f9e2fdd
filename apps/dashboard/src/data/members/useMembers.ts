import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { memberKeys } from './keys'

export const getMembers = (slug: string, signal?: AbortSignal) =>
  request('GET /platform/organizations/{slug}/members', { params: { slug }, signal })

export const membersQuery = (slug: string | undefined) =>
  queryOptions({
    queryKey: memberKeys.list(slug ?? ''),
    queryFn: slug ? ({ signal }) => getMembers(slug, signal) : skipToken,
  })

export function useMembers(slug: string | undefined) {
  return useQuery(membersQuery(slug))
}
