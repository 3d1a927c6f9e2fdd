import type { CreateApiKeyBody } from '@stratum/contracts'
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { apiKeyKeys } from './keys'

/** The project's publishable and secret keys (the legacy pair has its own card); secret ones arrive masked. */
export const namedKeysQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: apiKeyKeys.named(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /v1/projects/{ref}/api-keys', { params: { ref }, signal }) : skipToken,
    select: (keys) => keys.filter((key) => key.type === 'publishable' || key.type === 'secret'),
  })

export const useNamedKeys = (ref: string | undefined) => useQuery(namedKeysQuery(ref))

/** One secret key in full (needs service_api_keys.read): fetched when the member asks to see it. */
export const revealKey = (ref: string, id: string) => request('GET /v1/projects/{ref}/api-keys/{id}', { params: { ref, id }, query: { reveal: true } })

export function useCreateNamedKey(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => request('POST /v1/projects/{ref}/api-keys', { params: { ref }, query: { reveal: true }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.named(ref) }),
  })
}

export function useDeleteNamedKey(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => request('DELETE /v1/projects/{ref}/api-keys/{id}', { params: { ref, id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.named(ref) }),
  })
}
