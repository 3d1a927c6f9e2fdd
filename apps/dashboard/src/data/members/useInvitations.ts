import { useQuery } from '@tanstack/react-query'
import type { Invitation } from '@stratum/contracts'
import { api } from '../api'
import { memberKeys } from './keys'

export const getInvitations = (slug: string, signal?: AbortSignal) =>
  api<Invitation[]>(`/platform/organizations/${encodeURIComponent(slug)}/members/invitations`, { signal })

/** Open invitations of an organization; only owners and administrators may list them (`enabled`). */
export function useInvitations(slug: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: memberKeys.invitations(slug ?? ''),
    queryFn: ({ signal }) => getInvitations(slug!, signal),
    enabled: Boolean(slug) && enabled,
  })
}
