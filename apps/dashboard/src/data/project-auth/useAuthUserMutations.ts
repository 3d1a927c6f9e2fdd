import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { CreateAuthUserBody } from '@stratum/contracts'
import { request } from '../request'
import { projectAuthKeys } from './keys'

export type { CreateAuthUserBody } from '@stratum/contracts'

export const createAuthUser = ({ ref, body }: { ref: string; body: CreateAuthUserBody }) => request('POST /platform/auth/{ref}/users', { params: { ref }, body })
export const inviteAuthUser = ({ ref, email }: { ref: string; email: string }) => request('POST /platform/auth/{ref}/invite', { params: { ref }, body: { email } })
export const sendRecovery = ({ ref, email }: { ref: string; email: string }) => request('POST /platform/auth/{ref}/recover', { params: { ref }, body: { email } })
export const deleteAuthUser = ({ ref, id }: { ref: string; id: string }) => request('DELETE /platform/auth/{ref}/users/{id}', { params: { ref, id } })

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
