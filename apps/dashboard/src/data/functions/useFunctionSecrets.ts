import { useQuery } from '@tanstack/react-query'
import type { FunctionSecretResponse } from '@stratum/contracts'
import { api } from '../api'
import { functionKeys } from './keys'

export const getFunctionSecrets = (ref: string, signal?: AbortSignal) =>
  api<FunctionSecretResponse[]>(`/v1/projects/${encodeURIComponent(ref)}/secrets`, { signal })

/** The project's edge function secrets: names and SHA-256 digests (values never come back). */
export function useFunctionSecrets(ref: string | undefined, enabled = true) {
  return useQuery({
    queryKey: functionKeys.secrets(ref ?? ''),
    queryFn: ({ signal }) => getFunctionSecrets(ref!, signal),
    enabled: Boolean(ref) && enabled,
  })
}
