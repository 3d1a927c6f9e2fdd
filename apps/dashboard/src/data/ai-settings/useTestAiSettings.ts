import { useMutation } from '@tanstack/react-query'
import { request } from '../request'

export const testAiSettings = () => request('POST /platform/installation/ai-settings/test')

/** One tiny real call to the model in force: `ok` false carries the provider's own message. */
export function useTestAiSettings() {
  return useMutation({ mutationFn: testAiSettings })
}
