import { useQuery } from '@tanstack/react-query'
import type { Member } from '@stratum/contracts'
import { api } from '../api'
import { memberKeys } from './keys'

export const getMembers = (slug: string, signal?: AbortSignal) =>
  api<Member[]>(`/platform/organizations/${encodeURIComponent(slug)}/members`, { signal })

export function useMembers(slug: string | undefined) {
  return useQuery({
    queryKey: memberKeys.list(slug ?? ''),
    queryFn: ({ signal }) => getMembers(slug!, signal),
    enabled: Boolean(slug),
  })
}
