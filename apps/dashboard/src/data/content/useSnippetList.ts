import { infiniteQueryOptions, skipToken, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query'
import { CONTENT_LIST_LIMIT, type ContentItem, type ContentListItem, type Folder } from '@stratum/contracts'
import { api } from '../api'
import { contentPath } from './contentPath'
import { contentKeys } from './keys'
import type { SnippetSection } from './snippetSection'

/** One page of a section; `cursor` is the server's position of the next page (absent on the last). */
export interface SnippetPage {
  cursor?: string
  /** Newest first (inserted_at, then id, descending). Folder listings leave out `content`. */
  data: ContentListItem[]
}
export type SnippetPages = InfiniteData<SnippetPage>

const ORDER = `limit=${CONTENT_LIST_LIMIT}&sort_by=inserted_at&sort_order=desc`

/**
 * A page of a section: favorites, shared and search results from GET /content; a folder's private snippets (null:
 * outside any folder) from GET /content/folders[/{id}], whose `folder_id` filter /content lacks.
 */
export async function getSnippetPage(ref: string, section: SnippetSection, cursor: string | undefined, signal?: AbortSignal): Promise<SnippetPage> {
  const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
  if (section.kind !== 'folder') {
    const filter =
      section.kind === 'favorites' ? 'favorite=true' : section.kind === 'search' ? `search=${encodeURIComponent(section.text)}` : 'visibility=shared'
    return api<{ cursor?: string; data: ContentItem[] }>(contentPath(ref, `?type=sql&${filter}&${ORDER}${after}`), { signal })
  }
  const folder = section.folderId ? `/${encodeURIComponent(section.folderId)}` : ''
  const page = await api<{ cursor?: string; data: { folders: Folder[]; contents: ContentListItem[] } }>(
    contentPath(ref, `/folders${folder}?type=sql&visibility=private&${ORDER}${after}`),
    { signal },
  )
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
