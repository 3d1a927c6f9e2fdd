import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request, type RouteResponse } from '../request'
import { contentKeys } from './keys'

/** The answer of GET /content/count (contracts: ContentCountResponse). */
export type SnippetCounts = RouteResponse<'GET /platform/projects/{ref}/content/count'>

/** GET /content/count?type=sql: the explorer's section counts, whatever pages are loaded. */
export const getSnippetCounts = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/content/count', { params: { ref }, query: { type: 'sql' }, signal })

export const snippetCountsQuery = (ref: string) =>
  queryOptions({ queryKey: contentKeys.count(ref), queryFn: ref ? ({ signal }) => getSnippetCounts(ref, signal) : skipToken })

export function useSnippetCounts(ref: string) {
  return useQuery(snippetCountsQuery(ref))
}
