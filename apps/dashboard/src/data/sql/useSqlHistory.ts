import { infiniteQueryOptions, skipToken, useInfiniteQuery } from '@tanstack/react-query'
import type { SqlHistoryPage } from '@stratum/contracts'
import { request } from '../request'
import { sqlKeys } from './keys'

const HISTORY_PAGE = 50

/** A page of GET /platform/projects/{ref}/sql/history: the member's own runs, newest first. */
export function getSqlHistoryPage(ref: string, search: string, cursor: string | undefined, signal?: AbortSignal): Promise<SqlHistoryPage> {
  const query = { limit: HISTORY_PAGE, search: search.trim() || undefined, cursor: cursor || undefined }
  return request('GET /platform/projects/{ref}/sql/history', { params: { ref }, query, signal })
}

export const sqlHistoryQuery = (ref: string, search: string) =>
  infiniteQueryOptions({
    queryKey: sqlKeys.historySearch(ref, search.trim()),
    queryFn: ref ? ({ pageParam, signal }) => getSqlHistoryPage(ref, search, pageParam, signal) : skipToken,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: SqlHistoryPage) => last.next_cursor ?? undefined,
  })

/** The member's query history on the project while the panel is open (`enabled`), a page at a time. */
export function useSqlHistory(ref: string, search: string, enabled: boolean) {
  return useInfiniteQuery({ ...sqlHistoryQuery(ref, search), enabled })
}
