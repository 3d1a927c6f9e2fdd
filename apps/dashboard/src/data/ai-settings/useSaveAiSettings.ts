import { useMutation, useQueryClient } from '@tanstack/react-query'
import { AI_SETTINGS_PATH, type AiSettingsView, type SaveAiSettingsBody } from '@stratum/contracts'
import { api } from '../api'
import { aiKeys } from '../ai/keys'
import { aiSettingsKeys } from './keys'

export const saveAiSettings = (body: SaveAiSettingsBody) => api<AiSettingsView>(AI_SETTINGS_PATH, { method: 'PUT', body })

/** Saves the provider; it applies at once to every AI feature, so their key check is read again. */
export function useSaveAiSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveAiSettings,
    onSuccess: (view) => {
      queryClient.setQueryData(aiSettingsKeys.detail(), view)
      void queryClient.invalidateQueries({ queryKey: aiKeys.all })
    },
  })
}
