import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { profileKeys } from '../profile/keys'
import { memberKeys } from './keys'

export const removeMember = ({ slug, userId }: { slug: string; userId: string }) =>
  api<void>(`/platform/organizations/${encodeURIComponent(slug)}/members/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
  })

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
