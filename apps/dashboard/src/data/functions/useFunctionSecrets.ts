import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { FunctionSecretResponse } from '@stratum/contracts'
import { api } from '../api'
import { functionKeys } from './keys'

export const getFunctionSecrets = (ref: string, signal?: AbortSignal) =>
  api<FunctionSecretResponse[]>(`/v1/projects/${encodeURIComponent(ref)}/secrets`, { signal })

/** The project's edge function secrets: names and SHA-256 digests (values never come back). */
export const functionSecretsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: functionKeys.secrets(ref ?? ''),
    queryFn: ref ? ({ signal }) => getFunctionSecrets(ref, signal) : skipToken,
  })

export function useFunctionSecrets(ref: string | undefined, enabled = true) {
  return useQuery({ ...functionSecretsQuery(ref), enabled })
}
