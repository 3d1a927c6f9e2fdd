import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { InvitationDetails } from '@stratum/contracts'
import { api } from '../api'
import { invitationKeys } from './keys'

export const getInvitationDetails = (token: string, signal?: AbortSignal) =>
  api<InvitationDetails>(`/platform/invitations/${encodeURIComponent(token)}`, { signal })

/** An invalid, used or expired link answers 4xx with the reason: no point asking twice. */
export const invitationDetailsQuery = (token: string | undefined) =>
  queryOptions({
    queryKey: invitationKeys.details(token ?? ''),
    queryFn: token ? ({ signal }) => getInvitationDetails(token, signal) : skipToken,
    retry: false,
  })

export function useInvitationDetails(token: string | undefined) {
  return useQuery(invitationDetailsQuery(token))
}
