import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { CreatedInvitation, OrgRole } from '@stratum/contracts'
import { api } from '../api'
import { memberKeys } from './keys'

export interface InviteMemberVariables {
  slug: string
  email: string
  role: OrgRole
}

/** Adding a member creates an invitation: the answer holds the one-time link, shown once. */
export const inviteMember = ({ slug, ...body }: InviteMemberVariables) =>
  api<CreatedInvitation>(`/platform/organizations/${encodeURIComponent(slug)}/members/invitations`, {
    method: 'POST',
    body,
  })

export function useInviteMember() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: inviteMember,
    onSuccess: (_created, { slug }) => queryClient.invalidateQueries({ queryKey: memberKeys.invitations(slug) }),
  })
}
