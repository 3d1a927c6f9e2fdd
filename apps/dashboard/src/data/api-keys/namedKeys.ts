import type { ApiKeyResponse, CreateApiKeyBody } from '@stratum/contracts'
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { apiKeyKeys } from './keys'

const keysPath = (ref: string) => `/v1/projects/${encodeURIComponent(ref)}/api-keys`

/** The project's publishable and secret keys (the legacy pair has its own card); secret ones arrive masked. */
export const namedKeysQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: apiKeyKeys.named(ref ?? ''),
    queryFn: ref ? ({ signal }) => api<ApiKeyResponse[]>(keysPath(ref), { signal }) : skipToken,
    select: (keys) => keys.filter((key) => key.type === 'publishable' || key.type === 'secret'),
  })

export const useNamedKeys = (ref: string | undefined) => useQuery(namedKeysQuery(ref))

/** One secret key in full (needs service_api_keys.read): fetched when the member asks to see it. */
export const revealKey = (ref: string, id: string) => api<ApiKeyResponse>(`${keysPath(ref)}/${encodeURIComponent(id)}?reveal=true`)

export function useCreateNamedKey(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => api<ApiKeyResponse>(`${keysPath(ref)}?reveal=true`, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.named(ref) }),
  })
}

export function useDeleteNamedKey(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api<ApiKeyResponse>(`${keysPath(ref)}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.named(ref) }),
  })
}
