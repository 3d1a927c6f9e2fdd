import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { functionKeys } from './keys'

export const getFunctionSecrets = (ref: string, signal?: AbortSignal) =>
  request('GET /v1/projects/{ref}/secrets', { params: { ref }, signal })

/** The project's edge function secrets: names and SHA-256 digests (values never come back). */
export const functionSecretsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: functionKeys.secrets(ref ?? ''),
    queryFn: ref ? ({ signal }) => getFunctionSecrets(ref, signal) : skipToken,
  })

export function useFunctionSecrets(ref: string | undefined, enabled = true) {
  return useQuery({ ...functionSecretsQuery(ref), enabled })
}
