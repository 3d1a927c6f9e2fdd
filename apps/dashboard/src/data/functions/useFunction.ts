import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { isApiError } from '../api'
import { request } from '../request'
import { functionKeys } from './keys'

export const getFunction = (ref: string, slug: string, signal?: AbortSignal) =>
  request('GET /v1/projects/{ref}/functions/{function_slug}', { params: { ref, function_slug: slug }, signal })

/** One edge function by slug; a 404 is not retried. */
export const functionQuery = (ref: string | undefined, slug: string | undefined) =>
  queryOptions({
    queryKey: functionKeys.detail(ref ?? '', slug ?? ''),
    queryFn: ref && slug ? ({ signal }) => getFunction(ref, slug, signal) : skipToken,
    retry: (count, error) => !isApiError(error, 404) && count < 2,
  })

export function useFunction(ref: string | undefined, slug: string | undefined) {
  return useQuery(functionQuery(ref, slug))
}
