import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AuthUser } from '@stratum/contracts'
import { api } from '../api'
import { projectAuthKeys } from './keys'

export interface CreateAuthUserBody {
  email: string
  password?: string
  email_confirm: boolean
}

const base = (ref: string) => `/platform/auth/${encodeURIComponent(ref)}`

export const createAuthUser = ({ ref, body }: { ref: string; body: CreateAuthUserBody }) => api<AuthUser>(`${base(ref)}/users`, { method: 'POST', body })
export const inviteAuthUser = ({ ref, email }: { ref: string; email: string }) => api<AuthUser>(`${base(ref)}/invite`, { method: 'POST', body: { email } })
export const sendRecovery = ({ ref, email }: { ref: string; email: string }) => api<object>(`${base(ref)}/recover`, { method: 'POST', body: { email } })
export const deleteAuthUser = ({ ref, id }: { ref: string; id: string }) => api<object>(`${base(ref)}/users/${encodeURIComponent(id)}`, { method: 'DELETE' })

/** The user list and the outbox change with every one of these. */
function useAuthUserMutation<V extends { ref: string }, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSuccess: (_result, { ref }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectAuthKeys.allUsers(ref) }),
        queryClient.invalidateQueries({ queryKey: projectAuthKeys.outbox(ref) }),
      ]),
  })
}

export const useCreateAuthUser = () => useAuthUserMutation(createAuthUser)
export const useInviteAuthUser = () => useAuthUserMutation(inviteAuthUser)
export const useSendRecovery = () => useAuthUserMutation(sendRecovery)
export const useDeleteAuthUser = () => useAuthUserMutation(deleteAuthUser)
