import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { Member } from '@stratum/contracts'
import { api } from '../api'
import { memberKeys } from './keys'

export const getMembers = (slug: string, signal?: AbortSignal) =>
  api<Member[]>(`/platform/organizations/${encodeURIComponent(slug)}/members`, { signal })

export const membersQuery = (slug: string | undefined) =>
  queryOptions({
    queryKey: memberKeys.list(slug ?? ''),
    queryFn: slug ? ({ signal }) => getMembers(slug, signal) : skipToken,
  })

export function useMembers(slug: string | undefined) {
  return useQuery(membersQuery(slug))
}
