import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { profileKeys } from '../profile/keys'

export interface SignInVariables {
  email: string
  password: string
}

export const signIn = (body: SignInVariables) => request('POST /api/auth/login', { body })

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
