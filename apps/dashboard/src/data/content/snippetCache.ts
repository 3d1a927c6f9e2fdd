import type { QueryClient } from '@tanstack/react-query'
import type { ContentItem, ContentListItem } from '@stratum/contracts'
import { contentKeys } from './keys'
import { inSection, isSnippetSection } from './snippetSection'
import type { SnippetPage, SnippetPages } from './useSnippetList'

/**
 * Keeping the explorer's paged lists (infinite queries, one per section) in step with a change
 * without refetching every loaded page: a snippet is updated where it is listed, taken out of the
 * sections it left, and put into those it joined at its place in the order (newest first), unless
 * that place lies in a page not loaded yet (it then comes with that page).
 */

/** Whether a is listed before b: inserted_at, then id, descending (the server's order). */
const listedBefore = (a: ContentListItem, b: ContentListItem) => a.inserted_at > b.inserted_at || (a.inserted_at === b.inserted_at && a.id > b.id)

export function placeInPages(data: SnippetPages, item: ContentListItem, belongs: boolean): SnippetPages {
  const at = data.pages.findIndex((page) => page.data.some((s) => s.id === item.id))
  if (at >= 0) {
    const page = data.pages[at]!
    const changed: SnippetPage = {
      ...page,
      data: belongs ? page.data.map((s) => (s.id === item.id ? { ...s, ...item } : s)) : page.data.filter((s) => s.id !== item.id),
    }
    return { ...data, pages: data.pages.map((p, i) => (i === at ? changed : p)) }
  }
  if (!belongs || !data.pages.length) return data
  for (let i = 0; i < data.pages.length; i++) {
    const page = data.pages[i]!
    const index = page.data.findIndex((s) => listedBefore(item, s))
    if (index >= 0) return withPage(data, i, { ...page, data: [...page.data.slice(0, index), item, ...page.data.slice(index)] })
  }
  // After everything loaded: its place is known only when no page is left to load.
  const last = data.pages.length - 1
  const page = data.pages[last]!
  return page.cursor ? data : withPage(data, last, { ...page, data: [...page.data, item] })
}

function withPage(data: SnippetPages, index: number, page: SnippetPage): SnippetPages {
  return { ...data, pages: data.pages.map((p, i) => (i === index ? page : p)) }
}

/** Every loaded list of the project with its section; a list left as it was is not set again. */
function eachList(queryClient: QueryClient, ref: string, update: (data: SnippetPages, section: Parameters<typeof inSection>[0]) => SnippetPages) {
  for (const [key, data] of queryClient.getQueriesData<SnippetPages>({ queryKey: contentKeys.lists(ref) })) {
    const section = key[3]
    if (!data || !isSnippetSection(section)) continue
    const next = update(data, section)
    if (next !== data) queryClient.setQueryData<SnippetPages>(key, next)
  }
}

/**
 * A saved or created snippet, put where it belongs in every loaded section. A section it belongs
 * to whose fetch is under way may answer without it (read before the save): that one is fetched again.
 */
export function placeSnippet(queryClient: QueryClient, ref: string, item: ContentListItem): void {
  eachList(queryClient, ref, (data, section) => placeInPages(data, item, inSection(section, item)))
  for (const query of queryClient.getQueryCache().findAll({ queryKey: contentKeys.lists(ref), fetchStatus: 'fetching' })) {
    const section = query.queryKey[3]
    if (isSnippetSection(section) && inSection(section, item)) void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true })
  }
}

/** Deleted snippets, taken out of every loaded section. */
export function dropSnippets(queryClient: QueryClient, ref: string, ids: readonly string[]): void {
  eachList(queryClient, ref, (data) =>
    data.pages.some((page) => page.data.some((s) => ids.includes(s.id)))
      ? { ...data, pages: data.pages.map((page) => ({ ...page, data: page.data.filter((s) => !ids.includes(s.id)) })) }
      : data,
  )
}

/** A snippet as the caches know it: its own query, else any loaded list. */
export function knownSnippet(queryClient: QueryClient, ref: string, id: string): ContentListItem | undefined {
  const own = queryClient.getQueryData<ContentItem>(contentKeys.snippet(ref, id))
  if (own) return own
  for (const [, data] of queryClient.getQueriesData<SnippetPages>({ queryKey: contentKeys.lists(ref) })) {
    const found = data?.pages.flatMap((page) => page.data).find((s) => s.id === id)
    if (found) return found
  }
  return undefined
}

/** The section counts come from the server again (a cheap call). */
export const refreshCounts = (queryClient: QueryClient, ref: string) => queryClient.invalidateQueries({ queryKey: contentKeys.count(ref) })

/** Every snippet in a loaded section, once each, newest first. */
export function allListed(queryClient: QueryClient, ref: string): ContentListItem[] {
  const seen = new Map<string, ContentListItem>()
  for (const [, data] of queryClient.getQueriesData<SnippetPages>({ queryKey: contentKeys.lists(ref) }))
    data?.pages.forEach((page) => page.data.forEach((s) => seen.set(s.id, s)))
  return [...seen.values()].sort((a, b) => (listedBefore(a, b) ? -1 : 1))
}
