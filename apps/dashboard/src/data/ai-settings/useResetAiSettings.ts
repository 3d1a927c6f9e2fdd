import { useMutation, useQueryClient } from '@tanstack/react-query'
import { AI_SETTINGS_PATH, type AiSettingsView } from '@stratum/contracts'
import { api } from '../api'
import { aiKeys } from '../ai/keys'
import { aiSettingsKeys } from './keys'

export const resetAiSettings = () => api<AiSettingsView>(AI_SETTINGS_PATH, { method: 'DELETE' })

/** "Reset to environment defaults": removes the saved provider; STRATUM_AI_* applies again. */
export function useResetAiSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: resetAiSettings,
    onSuccess: (view) => {
      queryClient.setQueryData(aiSettingsKeys.detail(), view)
      void queryClient.invalidateQueries({ queryKey: aiKeys.all })
    },
  })
}
