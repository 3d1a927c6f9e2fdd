import type { CreateSigningKeyBody, UpdateSigningKeyBody } from '@stratum/contracts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { signingKeyKeys } from './keys'

export const createSigningKey = ({ ref, body }: { ref: string; body: CreateSigningKeyBody }) =>
  request('POST /v1/projects/{ref}/config/auth/signing-keys', { params: { ref }, body })

/** A status change: in_use rotates (the key in use becomes previously used), revoked stops a key verifying. */
export const updateSigningKey = ({ ref, id, status }: { ref: string; id: string } & UpdateSigningKeyBody) =>
  request('PATCH /v1/projects/{ref}/config/auth/signing-keys/{id}', { params: { ref, id }, body: { status } })

/** Only a revoked key may be removed (the server refuses any other). */
export const deleteSigningKey = ({ ref, id }: { ref: string; id: string }) =>
  request('DELETE /v1/projects/{ref}/config/auth/signing-keys/{id}', { params: { ref, id } })

/**
 * Each change reads the list again when it settles: a rotation changes two keys at once, and a refused change may
 * come from a list that someone else changed meanwhile.
 */
function useSigningKeyMutation<V extends { ref: string }, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSettled: (_result, _error, { ref }) => queryClient.invalidateQueries({ queryKey: signingKeyKeys.list(ref) }),
  })
}

export const useCreateSigningKey = () => useSigningKeyMutation(createSigningKey)
export const useUpdateSigningKey = () => useSigningKeyMutation(updateSigningKey)
export const useDeleteSigningKey = () => useSigningKeyMutation(deleteSigningKey)
