import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { aiSettingsKeys } from './keys'

export const getAiSettings = (signal?: AbortSignal) => request('GET /platform/installation/ai-settings', { signal })

/** The installation's AI provider in force, where it comes from, and the environment's defaults (installation owner only). */
export const aiSettingsQueryOptions = () =>
  queryOptions({
    queryKey: aiSettingsKeys.detail(),
    queryFn: ({ signal }) => getAiSettings(signal),
  })

/** `enabled`: false for anyone but the installation's owner, who would only get a 403. */
export function useAiSettings(enabled = true) {
  return useQuery({ ...aiSettingsQueryOptions(), enabled })
}
