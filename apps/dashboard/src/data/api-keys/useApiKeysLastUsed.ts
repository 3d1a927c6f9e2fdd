import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { apiKeyKeys } from './keys'

export const getApiKeysLastUsed = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/api-keys/last-used', { params: { ref }, signal })

/** When the anon and service_role keys were last used (null: no request with the key is known). */
export const apiKeysLastUsedQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: apiKeyKeys.lastUsed(ref ?? ''),
    queryFn: ref ? ({ signal }) => getApiKeysLastUsed(ref, signal) : skipToken,
    retry: false,
  })

export function useApiKeysLastUsed(ref: string | undefined) {
  return useQuery(apiKeysLastUsedQuery(ref))
}
