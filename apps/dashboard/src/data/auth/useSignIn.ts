import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Profile } from '@stratum/contracts'
import { api } from '../api'
import { profileKeys } from '../profile/keys'

export interface SignInVariables {
  email: string
  password: string
}

export const signIn = (body: SignInVariables) => api<Profile>('/api/auth/login', { method: 'POST', body })

export function useSignIn() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signIn,
    onSuccess: (profile) => {
      // Anything cached belongs to whoever was signed in before.
      queryClient.clear()
      queryClient.setQueryData(profileKeys.me(), profile)
    },
  })
}
