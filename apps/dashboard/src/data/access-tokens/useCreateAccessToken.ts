import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { accessTokenKeys } from './keys'

export const createAccessToken = (body: { name: string }) =>
  request('POST /platform/profile/access-tokens', { body })

export function useCreateAccessToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createAccessToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessTokenKeys.all }),
  })
}
