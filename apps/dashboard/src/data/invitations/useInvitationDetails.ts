import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { invitationKeys } from './keys'

export const getInvitationDetails = (token: string, signal?: AbortSignal) =>
  request('GET /platform/invitations/{token}', { params: { token }, signal })

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
