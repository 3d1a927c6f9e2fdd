import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { apiKeyKeys } from './keys'

export const getLegacyApiKeys = (ref: string, signal?: AbortSignal) =>
  request('GET /v1/projects/{ref}/api-keys/legacy', { params: { ref }, signal })

/** Whether the JWT-based (legacy) anon and service_role keys are enabled. */
export const legacyApiKeysQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: apiKeyKeys.legacy(ref ?? ''),
    queryFn: ref ? ({ signal }) => getLegacyApiKeys(ref, signal) : skipToken,
  })

export function useLegacyApiKeys(ref: string | undefined) {
  return useQuery(legacyApiKeysQuery(ref))
}
