import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { functionKeys } from './keys'

export const getFunctions = (ref: string, signal?: AbortSignal) =>
  request('GET /v1/projects/{ref}/functions', { params: { ref }, signal })

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
