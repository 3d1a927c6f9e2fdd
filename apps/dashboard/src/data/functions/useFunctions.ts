import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { FunctionResponse } from '@stratum/contracts'
import { api } from '../api'
import { functionKeys } from './keys'

export const getFunctions = (ref: string, signal?: AbortSignal) =>
  api<FunctionResponse[]>(`/v1/projects/${encodeURIComponent(ref)}/functions`, { signal })

/** The project's edge functions (stored and versioned; run by the platform's Deno runtime), last updated first. */
export const functionsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: functionKeys.list(ref ?? ''),
    queryFn: ref ? ({ signal }) => getFunctions(ref, signal) : skipToken,
    select: (functions) => [...functions].sort((a, b) => b.updated_at - a.updated_at),
  })

export function useFunctions(ref: string | undefined) {
  return useQuery(functionsQuery(ref))
}
