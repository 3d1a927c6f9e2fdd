import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Profile } from '@stratum/contracts'
import { request } from '../request'
import { getProfile } from '../profile/useProfile'
import { profileKeys } from '../profile/keys'
import { invitationKeys } from './keys'

/** A person without an account sets their password on the link: the account is created, joins, and is signed in. */
export const signUpWithInvitation = ({ token, password }: { token: string; password: string }) =>
  request('POST /platform/invitations/{token}/sign-up', { params: { token }, body: { password } })

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
  request('POST /platform/invitations/{token}/accept', { params: { token } })

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
  request('DELETE /platform/profile/invitations/{id}', { params: { id } })

export function useDeclineInvitation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: declineInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
  })
}
