import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { storageKeys } from './keys'

export const getBuckets = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/storage/{ref}/buckets', { params: { ref }, signal })

/** Spec: retried up to 3 times unless the error says the tenant config was not found. */
export function retryBuckets(failureCount: number, error: unknown): boolean {
  if (error instanceof Error && /tenant config/i.test(error.message) && /not found/i.test(error.message)) return false
  return failureCount < 3
}

/** The project's buckets, by name. */
export const bucketsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: storageKeys.buckets(ref ?? ''),
    queryFn: ref ? ({ signal }) => getBuckets(ref, signal) : skipToken,
    retry: retryBuckets,
    select: (buckets) => [...buckets].sort((a, b) => a.name.localeCompare(b.name)),
  })

export function useBuckets(ref: string | undefined) {
  return useQuery(bucketsQuery(ref))
}
