import { useQuery } from '@tanstack/react-query'
import type { ApiKeysLastUsed } from '@stratum/contracts'
import { api } from '../api'
import { apiKeyKeys } from './keys'

export const getApiKeysLastUsed = (ref: string, signal?: AbortSignal) =>
  api<ApiKeysLastUsed>(`/platform/projects/${encodeURIComponent(ref)}/api-keys/last-used`, { signal })

/** When the anon and service_role keys were last used (null: no request with the key is known). */
export function useApiKeysLastUsed(ref: string | undefined) {
  return useQuery({
    queryKey: apiKeyKeys.lastUsed(ref ?? ''),
    queryFn: ({ signal }) => getApiKeysLastUsed(ref!, signal),
    enabled: Boolean(ref),
    retry: false,
  })
}
