import { useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { invitationKeys } from './keys'

export const getReceivedInvitations = (signal?: AbortSignal) =>
  request('GET /platform/profile/invitations', { signal })

/** Open invitations addressed to the signed-in account's email: told about, never applied by themselves. */
export function useReceivedInvitations() {
  return useQuery({ queryKey: invitationKeys.received(), queryFn: ({ signal }) => getReceivedInvitations(signal) })
}
