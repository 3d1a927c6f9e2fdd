import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AcceptedInvitation, Profile } from '@stratum/contracts'
import { api } from '../api'
import { getProfile } from '../profile/useProfile'
import { profileKeys } from '../profile/keys'
import { invitationKeys } from './keys'

/** A person without an account sets their password on the link: the account is created, joins, and is signed in. */
export const signUpWithInvitation = ({ token, password }: { token: string; password: string }) =>
  api<AcceptedInvitation>(`/platform/invitations/${encodeURIComponent(token)}/sign-up`, {
    method: 'POST',
    body: { password },
  })

export function useSignUpWithInvitation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signUpWithInvitation,
    onSuccess: async () => {
      // A new session: whatever was cached belonged to nobody (or to someone else).
      queryClient.clear()
      queryClient.setQueryData<Profile>(profileKeys.me(), await getProfile())
    },
  })
}

/** A signed-in account accepts with the link (it must be the address the invitation was sent to). */
export const acceptInvitation = ({ token }: { token: string }) =>
  api<AcceptedInvitation>(`/platform/invitations/${encodeURIComponent(token)}/accept`, { method: 'POST' })

export function useAcceptInvitation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: acceptInvitation,
    // A new organization, new permissions, one invitation fewer.
    onSuccess: () => queryClient.invalidateQueries(),
  })
}

/** Declining deletes the invitation: its link stops working. */
export const declineInvitation = ({ id }: { id: string }) =>
  api<{ id: string }>(`/platform/profile/invitations/${encodeURIComponent(id)}`, { method: 'DELETE' })

export function useDeclineInvitation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: declineInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
  })
}
