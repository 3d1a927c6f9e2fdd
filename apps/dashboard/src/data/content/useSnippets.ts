import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { CONTENT_LIST_LIMIT } from '@stratum/contracts'
import { request } from '../request'
import { contentKeys } from './keys'

/** Every SQL snippet the user sees in the project: their private ones and the shared ones. */
export const getSnippets = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/content', {
    params: { ref },
    query: { type: 'sql', limit: CONTENT_LIST_LIMIT, sort_by: 'inserted_at', sort_order: 'desc' },
    signal,
  }).then((page) => page.data)

export const snippetsQuery = (ref: string) =>
  queryOptions({ queryKey: contentKeys.snippets(ref), queryFn: ref ? ({ signal }) => getSnippets(ref, signal) : skipToken })

export function useSnippets(ref: string) {
  return useQuery(snippetsQuery(ref))
}
