import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { apiKeyKeys } from './keys'

export interface ToggleLegacyApiKeysVariables {
  ref: string
  enabled: boolean
}

export const toggleLegacyApiKeys = ({ ref, enabled }: ToggleLegacyApiKeysVariables) =>
  request('PUT /v1/projects/{ref}/api-keys/legacy', { params: { ref }, query: { enabled } })

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
