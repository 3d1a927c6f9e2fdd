import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { CreatedAccessToken } from '@stratum/contracts'
import { api } from '../api'
import { accessTokenKeys } from './keys'

export const createAccessToken = (body: { name: string }) =>
  api<CreatedAccessToken>('/platform/profile/access-tokens', { method: 'POST', body })

export function useCreateAccessToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createAccessToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessTokenKeys.all }),
  })
}
