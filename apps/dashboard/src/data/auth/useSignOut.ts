import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'

export const signOut = () => api<void>('/api/auth/logout', { method: 'POST' })

export function useSignOut() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signOut,
    onSettled: () => queryClient.clear(),
  })
}
