import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { accessTokenKeys } from './keys'

export const revokeAccessToken = (id: string) =>
  request('DELETE /platform/profile/access-tokens/{id}', { params: { id } })

export function useRevokeAccessToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeAccessToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessTokenKeys.all }),
  })
}
