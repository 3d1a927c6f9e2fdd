import { useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { aiKeys } from './keys'

export const checkAiKey = (signal?: AbortSignal) => request('GET /api/ai/sql/check-api-key', { signal })

/**
 * GET /api/ai/sql/check-api-key: whether an AI provider is configured on the platform. It only
 * changes when the platform restarts with other settings, so it is read once an hour at most.
 */
export function useAiKeyCheck(enabled = true) {
  return useQuery({
    queryKey: aiKeys.keyCheck(),
    queryFn: ({ signal }) => checkAiKey(signal),
    staleTime: 60 * 60_000,
    enabled,
  })
}
