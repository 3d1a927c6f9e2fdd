import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { api } from '../api'
import { contentPath } from './contentPath'
import { contentKeys } from './keys'

/** The answer of GET /content/count (contracts: ContentCountResponse). */
export interface SnippetCounts {
  favorites: number
  private: number
  shared: number
}

/** GET /content/count?type=sql: the explorer's section counts, whatever pages are loaded. */
export const getSnippetCounts = (ref: string, signal?: AbortSignal) => api<SnippetCounts>(contentPath(ref, '/count?type=sql'), { signal })

export const snippetCountsQuery = (ref: string) =>
  queryOptions({ queryKey: contentKeys.count(ref), queryFn: ref ? ({ signal }) => getSnippetCounts(ref, signal) : skipToken })

export function useSnippetCounts(ref: string) {
  return useQuery(snippetCountsQuery(ref))
}
