import { infiniteQueryOptions, skipToken, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query'
import { CONTENT_LIST_LIMIT, type ContentListItem } from '@stratum/contracts'
import { request } from '../request'
import { contentKeys } from './keys'
import type { SnippetSection } from './snippetSection'

/** One page of a section; `cursor` is the server's position of the next page (absent on the last). */
export interface SnippetPage {
  cursor?: string
  /** Newest first (inserted_at, then id, descending). Folder listings leave out `content`. */
  data: ContentListItem[]
}
export type SnippetPages = InfiniteData<SnippetPage>

const ORDER = { limit: CONTENT_LIST_LIMIT, sort_by: 'inserted_at', sort_order: 'desc' } as const

/**
 * A page of a section: favorites, shared and search results from GET /content; a folder's private snippets (null:
 * outside any folder) from GET /content/folders[/{id}], whose `folder_id` filter /content lacks.
 */
export async function getSnippetPage(ref: string, section: SnippetSection, cursor: string | undefined, signal?: AbortSignal): Promise<SnippetPage> {
  const after = cursor ? { cursor } : {}
  if (section.kind !== 'folder') {
    const filter = section.kind === 'favorites' ? { favorite: true } : section.kind === 'search' ? { search: section.text } : { visibility: 'shared' as const }
    return request('GET /platform/projects/{ref}/content', { params: { ref }, query: { type: 'sql', ...filter, ...ORDER, ...after }, signal })
  }
  const query = { type: 'sql', visibility: 'private', ...ORDER, ...after } as const
  const page = section.folderId
    ? await request('GET /platform/projects/{ref}/content/folders/{id}', { params: { ref, id: section.folderId }, query, signal })
    : await request('GET /platform/projects/{ref}/content/folders', { params: { ref }, query, signal })
  return { ...(page.cursor ? { cursor: page.cursor } : {}), data: page.data.contents }
}

export const snippetListQuery = (ref: string, section: SnippetSection) =>
  infiniteQueryOptions({
    queryKey: contentKeys.list(ref, section),
    queryFn: ref ? ({ pageParam, signal }) => getSnippetPage(ref, section, pageParam, signal) : skipToken,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: SnippetPage) => last.cursor,
  })

/** A section of the explorer, a page at a time (fetchNextPage when the user reaches its end). */
export function useSnippetList(ref: string, section: SnippetSection, enabled = true) {
  return useInfiniteQuery({ ...snippetListQuery(ref, section), enabled })
}

/** The snippets of every loaded page, in order. */
export const listedSnippets = (data: SnippetPages | undefined): ContentListItem[] => data?.pages.flatMap((page) => page.data) ?? []
