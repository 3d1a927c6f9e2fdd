import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { OrgRole } from '@stratum/contracts'
import { request } from '../request'
import { profileKeys } from '../profile/keys'
import { memberKeys } from './keys'

export interface UpdateMemberRoleVariables {
  slug: string
  userId: string
  role: OrgRole
}

export const updateMemberRole = ({ slug, userId, role }: UpdateMemberRoleVariables) =>
  request('PATCH /platform/organizations/{slug}/members/{user_id}', { params: { slug, user_id: userId }, body: { role } })

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
