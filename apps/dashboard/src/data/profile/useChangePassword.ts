import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { profileKeys } from './keys'

export interface ChangePasswordVariables {
  current_password: string
  new_password: string
}

/**
 * The server ends every other session of the account and hands this browser a fresh session
 * cookie in the same answer, so the user stays where they are.
 */
export const changePassword = (body: ChangePasswordVariables) => request('PUT /platform/profile/password', { body })

export function useChangePassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: changePassword,
    onSuccess: async (profile) => {
      queryClient.setQueryData(profileKeys.me(), profile)
      // Calls refused while the one-time password was in use may now succeed.
      await queryClient.invalidateQueries()
    },
  })
}
