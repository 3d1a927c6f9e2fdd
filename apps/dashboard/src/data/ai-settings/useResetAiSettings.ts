import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { aiKeys } from '../ai/keys'
import { aiSettingsKeys } from './keys'

export const resetAiSettings = () => request('DELETE /platform/installation/ai-settings')

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
