import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { CONTENT_TEXTS, type ContentItem, type CreateContentBody } from '@stratum/contracts'
import { postContent } from './postContent'
import { contentKeys } from './keys'
import { placeSnippet, refreshCounts } from './snippetCache'

export interface CreateSnippetVariables {
  ref: string
  id: string
  sql?: string
  name?: string
}

/** A new private SQL snippet. */
export function createSnippet({ ref, id, sql = '', name = CONTENT_TEXTS.defaultSnippetName }: CreateSnippetVariables): Promise<ContentItem> {
  const body: CreateContentBody = { id, name, type: 'sql', visibility: 'user', content: { schema_version: '1.0', sql, content_id: id } }
  return postContent(ref, body)
}

/** A created snippet, put into the caches (its own, the lists, the explorer's sections). */
export function storeCreatedSnippet(queryClient: QueryClient, ref: string, item: ContentItem) {
  queryClient.setQueryData(contentKeys.snippet(ref, item.id), item)
  queryClient.setQueryData<ContentItem[]>(contentKeys.snippets(ref), (list) => (list ? [item, ...list.filter((s) => s.id !== item.id)] : list))
  placeSnippet(queryClient, ref, item)
  void refreshCounts(queryClient, ref)
  return queryClient.invalidateQueries({ queryKey: contentKeys.snippets(ref) })
}

export function useCreateSnippet() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createSnippet,
    onSuccess: (item, { ref }) => storeCreatedSnippet(queryClient, ref, item),
  })
}
