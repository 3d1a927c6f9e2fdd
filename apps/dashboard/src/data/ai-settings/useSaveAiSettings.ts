import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { SaveAiSettingsBody } from '@stratum/contracts'
import { request } from '../request'
import { aiKeys } from '../ai/keys'
import { aiSettingsKeys } from './keys'

export const saveAiSettings = (body: SaveAiSettingsBody) => request('PUT /platform/installation/ai-settings', { body })

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
