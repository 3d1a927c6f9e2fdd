import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { contentKeys } from './keys'

export const getSnippet = (ref: string, id: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/content/item/{id}', { params: { ref, id }, signal })

export const snippetQuery = (ref: string, id: string | undefined) =>
  queryOptions({
    queryKey: contentKeys.snippet(ref, id ?? ''),
    queryFn: ref && id ? ({ signal }) => getSnippet(ref, id, signal) : skipToken,
    retry: false,
  })

export function useSnippet(ref: string, id: string | undefined, enabled = true) {
  return useQuery({ ...snippetQuery(ref, id), enabled })
}
