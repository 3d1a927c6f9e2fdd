import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Member, OrgRole } from '@stratum/contracts'
import { api } from '../api'
import { profileKeys } from '../profile/keys'
import { memberKeys } from './keys'

export interface UpdateMemberRoleVariables {
  slug: string
  userId: string
  role: OrgRole
}

export const updateMemberRole = ({ slug, userId, role }: UpdateMemberRoleVariables) =>
  api<Member>(`/platform/organizations/${encodeURIComponent(slug)}/members/${encodeURIComponent(userId)}`, {
    method: 'PATCH',
    body: { role },
  })

export function useUpdateMemberRole() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateMemberRole,
    onSuccess: async (_member, { slug }) => {
      // The user may have changed their own role.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: memberKeys.list(slug) }),
        queryClient.invalidateQueries({ queryKey: profileKeys.permissions() }),
      ])
    },
  })
}
