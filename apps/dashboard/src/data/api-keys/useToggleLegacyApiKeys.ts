import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { LegacyApiKeysResponse } from '@stratum/contracts'
import { api } from '../api'
import { apiKeyKeys } from './keys'

export interface ToggleLegacyApiKeysVariables {
  ref: string
  enabled: boolean
}

export const toggleLegacyApiKeys = ({ ref, enabled }: ToggleLegacyApiKeysVariables) =>
  api<LegacyApiKeysResponse>(`/v1/projects/${encodeURIComponent(ref)}/api-keys/legacy?enabled=${enabled}`, { method: 'PUT' })

export function useToggleLegacyApiKeys() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: toggleLegacyApiKeys,
    onSuccess: (result, { ref }) => {
      queryClient.setQueryData(apiKeyKeys.legacy(ref), result)
      return queryClient.invalidateQueries({ queryKey: apiKeyKeys.settings(ref) })
    },
  })
}
