import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { functionKeys } from './keys'

/** DELETE /v1/projects/{ref}/secrets with the names as the body. */
export const deleteFunctionSecrets = ({ ref, names }: { ref: string; names: string[] }) =>
  request('DELETE /v1/projects/{ref}/secrets', { params: { ref }, body: names })

export function useDeleteFunctionSecrets() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteFunctionSecrets,
    onSuccess: (_deleted, { ref }) => void queryClient.invalidateQueries({ queryKey: functionKeys.secrets(ref) }),
  })
}
