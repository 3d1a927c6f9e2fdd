import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { accessTokenKeys } from './keys'

export const revokeAccessToken = (id: string) =>
  api<void>(`/platform/profile/access-tokens/${encodeURIComponent(id)}`, { method: 'DELETE' })

export function useRevokeAccessToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeAccessToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessTokenKeys.all }),
  })
}
