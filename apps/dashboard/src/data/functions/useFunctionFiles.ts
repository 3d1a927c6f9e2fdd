import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { isApiError } from '../api'
import { request } from '../request'
import { functionKeys } from './keys'

export const getFunctionFiles = (ref: string, slug: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/functions/{function_slug}/files', { params: { ref, function_slug: slug }, signal })

/** The deployed files of a function, as text, for the details page. */
export const functionFilesQuery = (ref: string | undefined, slug: string | undefined) =>
  queryOptions({
    queryKey: functionKeys.files(ref ?? '', slug ?? ''),
    queryFn: ref && slug ? ({ signal }) => getFunctionFiles(ref, slug, signal) : skipToken,
    retry: (count, error) => !isApiError(error, 404) && count < 2,
    select: (data) => data.files,
  })

export function useFunctionFiles(ref: string | undefined, slug: string | undefined, enabled = true) {
  return useQuery({ ...functionFilesQuery(ref, slug), enabled })
}
