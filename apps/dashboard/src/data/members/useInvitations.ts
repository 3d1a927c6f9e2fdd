import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { Invitation } from '@stratum/contracts'
import { api } from '../api'
import { memberKeys } from './keys'

export const getInvitations = (slug: string, signal?: AbortSignal) =>
  api<Invitation[]>(`/platform/organizations/${encodeURIComponent(slug)}/members/invitations`, { signal })

export const invitationsQuery = (slug: string | undefined) =>
  queryOptions({
    queryKey: memberKeys.invitations(slug ?? ''),
    queryFn: slug ? ({ signal }) => getInvitations(slug, signal) : skipToken,
  })

/** Open invitations of an organization; only owners and administrators may list them (`enabled`). */
export function useInvitations(slug: string | undefined, enabled: boolean) {
  return useQuery({ ...invitationsQuery(slug), enabled })
}
