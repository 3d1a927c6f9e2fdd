import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { OrgRole } from '@stratum/contracts'
import { request } from '../request'
import { memberKeys } from './keys'

export interface InviteMemberVariables {
  slug: string
  email: string
  role: OrgRole
}

/** Adding a member creates an invitation: the answer holds the one-time link, shown once. */
export const inviteMember = ({ slug, ...body }: InviteMemberVariables) =>
  request('POST /platform/organizations/{slug}/members/invitations', { params: { slug }, body })

export function useInviteMember() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: inviteMember,
    onSuccess: (_created, { slug }) => queryClient.invalidateQueries({ queryKey: memberKeys.invitations(slug) }),
  })
}
