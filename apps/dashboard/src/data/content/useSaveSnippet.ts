import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ContentItem, UpsertContentBody } from '@stratum/contracts'
import { request } from '../request'
import { contentKeys } from './keys'
import { knownSnippet, placeSnippet, refreshCounts } from './snippetCache'

/** The fields of a snippet a save may change; the rest stay as stored. */
export type SnippetChanges = Partial<Pick<UpsertContentBody, 'name' | 'description' | 'visibility' | 'folder_id' | 'favorite'>> & { sql?: string }

/** A snippet to save: a listed one may lack its content, which a save without `sql` leaves as stored. */
export type SavedSnippet = Pick<ContentItem, 'id' | 'owner_id'> & { content?: ContentItem['content'] }

/** PUT /content: an upsert by id (owner_id required), answering the stored snippet. */
export function saveSnippet(ref: string, snippet: SavedSnippet, changes: SnippetChanges) {
  const { sql, ...rest } = changes
  const body: UpsertContentBody = {
    id: snippet.id,
    owner_id: snippet.owner_id,
    type: 'sql',
    ...rest,
    ...(sql !== undefined ? { content: { ...snippet.content, schema_version: '1.0', sql } } : {}),
  }
  return request('PUT /platform/projects/{ref}/content', { params: { ref }, body })
}

/**
 * Puts a saved snippet into the caches (its own, the lists and the explorer's sections) without a
 * refetch; the section counts are asked again only when a save changed them.
 */
export function storeSnippet(queryClient: ReturnType<typeof useQueryClient>, ref: string, item: ContentItem) {
  const before = knownSnippet(queryClient, ref, item.id)
  queryClient.setQueryData(contentKeys.snippet(ref, item.id), item)
  queryClient.setQueryData<ContentItem[]>(contentKeys.snippets(ref), (list) => list?.map((s) => (s.id === item.id ? item : s)))
  placeSnippet(queryClient, ref, item)
  if (!before || before.favorite !== item.favorite || before.visibility !== item.visibility) void refreshCounts(queryClient, ref)
}

export interface SaveSnippetVariables {
  ref: string
  snippet: SavedSnippet
  changes: SnippetChanges
}

/** Renames, favorites, shares or moves a snippet (immediate, not debounced). */
export function useSaveSnippet() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ ref, snippet, changes }: SaveSnippetVariables) => saveSnippet(ref, snippet, changes),
    onSuccess: (item, { ref }) => storeSnippet(queryClient, ref, item),
  })
}
