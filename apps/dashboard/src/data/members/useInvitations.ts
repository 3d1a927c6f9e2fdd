import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { memberKeys } from './keys'

export const getInvitations = (slug: string, signal?: AbortSignal) =>
  request('GET /platform/organizations/{slug}/members/invitations', { params: { slug }, signal })

export const invitationsQuery = (slug: string | undefined) =>
  queryOptions({
    queryKey: memberKeys.invitations(slug ?? ''),
    queryFn: slug ? ({ signal }) => getInvitations(slug, signal) : skipToken,
  })

/** Open invitations of an organization; only owners and administrators may list them (`enabled`). */
export function useInvitations(slug: string | undefined, enabled: boolean) {
  return useQuery({ ...invitationsQuery(slug), enabled })
}
