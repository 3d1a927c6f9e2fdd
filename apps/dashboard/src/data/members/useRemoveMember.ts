import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { profileKeys } from '../profile/keys'
import { memberKeys } from './keys'

export const removeMember = ({ slug, userId }: { slug: string; userId: string }) =>
  request('DELETE /platform/organizations/{slug}/members/{user_id}', { params: { slug, user_id: userId } })

export function useRemoveMember() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: removeMember,
    onSuccess: async (_void, { slug }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: memberKeys.list(slug) }),
        queryClient.invalidateQueries({ queryKey: profileKeys.permissions() }),
      ])
    },
  })
}
