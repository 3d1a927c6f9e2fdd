import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'

export const signOut = () => request('POST /api/auth/logout')

export function useSignOut() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signOut,
    onSettled: () => queryClient.clear(),
  })
}
