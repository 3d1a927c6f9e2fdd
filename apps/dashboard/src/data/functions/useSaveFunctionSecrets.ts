import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { functionKeys } from './keys'

export interface SaveFunctionSecretsInput {
  ref: string
  secrets: { name: string; value: string }[]
}

/** POST /v1/projects/{ref}/secrets: creates or replaces; the project's functions restart with them. */
export const saveFunctionSecrets = ({ ref, secrets }: SaveFunctionSecretsInput) =>
  api<unknown>(`/v1/projects/${encodeURIComponent(ref)}/secrets`, { method: 'POST', body: secrets })

export function useSaveFunctionSecrets() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveFunctionSecrets,
    onSuccess: (_saved, { ref }) => void queryClient.invalidateQueries({ queryKey: functionKeys.secrets(ref) }),
  })
}
