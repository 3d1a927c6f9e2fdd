import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { LegacyApiKeysResponse } from '@stratum/contracts'
import { api } from '../api'
import { apiKeyKeys } from './keys'

export const getLegacyApiKeys = (ref: string, signal?: AbortSignal) =>
  api<LegacyApiKeysResponse>(`/v1/projects/${encodeURIComponent(ref)}/api-keys/legacy`, { signal })

/** Whether the JWT-based (legacy) anon and service_role keys are enabled. */
export const legacyApiKeysQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: apiKeyKeys.legacy(ref ?? ''),
    queryFn: ref ? ({ signal }) => getLegacyApiKeys(ref, signal) : skipToken,
  })

export function useLegacyApiKeys(ref: string | undefined) {
  return useQuery(legacyApiKeysQuery(ref))
}
