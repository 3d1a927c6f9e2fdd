import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { memberKeys } from './keys'

export const revokeInvitation = ({ slug, id }: { slug: string; id: string }) =>
  api<{ id: string }>(
    `/platform/organizations/${encodeURIComponent(slug)}/members/invitations/${encodeURIComponent(id)}`,
    {
      method: 'DELETE',
    },
  )

export function useRevokeInvitation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: (_revoked, { slug }) => queryClient.invalidateQueries({ queryKey: memberKeys.invitations(slug) }),
  })
}
