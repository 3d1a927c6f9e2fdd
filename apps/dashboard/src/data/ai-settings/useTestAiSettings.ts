import { useMutation } from '@tanstack/react-query'
import { AI_SETTINGS_TEST_PATH, type AiSettingsTestResponse } from '@stratum/contracts'
import { api } from '../api'

export const testAiSettings = () => api<AiSettingsTestResponse>(AI_SETTINGS_TEST_PATH, { method: 'POST' })

/** One tiny real call to the model in force: `ok` false carries the provider's own message. */
export function useTestAiSettings() {
  return useMutation({ mutationFn: testAiSettings })
}
