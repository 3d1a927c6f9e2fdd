import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { memberKeys } from './keys'

export const revokeInvitation = ({ slug, id }: { slug: string; id: string }) =>
  request('DELETE /platform/organizations/{slug}/members/invitations/{id}', { params: { slug, id } })

export function useRevokeInvitation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: (_revoked, { slug }) => queryClient.invalidateQueries({ queryKey: memberKeys.invitations(slug) }),
  })
}
