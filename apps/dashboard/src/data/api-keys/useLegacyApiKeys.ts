import { useQuery } from '@tanstack/react-query'
import type { LegacyApiKeysResponse } from '@stratum/contracts'
import { api } from '../api'
import { apiKeyKeys } from './keys'

export const getLegacyApiKeys = (ref: string, signal?: AbortSignal) =>
  api<LegacyApiKeysResponse>(`/v1/projects/${encodeURIComponent(ref)}/api-keys/legacy`, { signal })

/** Whether the JWT-based (legacy) anon and service_role keys are enabled. */
export function useLegacyApiKeys(ref: string | undefined) {
  return useQuery({
    queryKey: apiKeyKeys.legacy(ref ?? ''),
    queryFn: ({ signal }) => getLegacyApiKeys(ref!, signal),
    enabled: Boolean(ref),
  })
}
