import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { ApiKeysLastUsed } from '@stratum/contracts'
import { api } from '../api'
import { apiKeyKeys } from './keys'

export const getApiKeysLastUsed = (ref: string, signal?: AbortSignal) =>
  api<ApiKeysLastUsed>(`/platform/projects/${encodeURIComponent(ref)}/api-keys/last-used`, { signal })

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
