import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { functionKeys } from './keys'

export interface SaveFunctionSecretsInput {
  ref: string
  secrets: { name: string; value: string }[]
}

/** POST /v1/projects/{ref}/secrets: creates or replaces; the project's functions restart with them. */
export const saveFunctionSecrets = ({ ref, secrets }: SaveFunctionSecretsInput) =>
  request('POST /v1/projects/{ref}/secrets', { params: { ref }, body: secrets })

export function useSaveFunctionSecrets() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveFunctionSecrets,
    onSuccess: (_saved, { ref }) => void queryClient.invalidateQueries({ queryKey: functionKeys.secrets(ref) }),
  })
}
