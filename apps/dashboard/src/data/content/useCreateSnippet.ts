import { useMutation, useQueryClient } from '@tanstack/react-query'
import { CONTENT_TEXTS, type ContentItem, type CreateContentBody } from '@stratum/contracts'
import { ApiError } from '../api'
import { contentPath } from './contentPath'
import { contentKeys } from './keys'

export interface CreateSnippetVariables {
  ref: string
  id: string
  sql?: string
  name?: string
}

/** POST /content needs the header Version: 2, which the generic api() helper does not send. */
export async function createSnippet({ ref, id, sql = '', name = CONTENT_TEXTS.defaultSnippetName }: CreateSnippetVariables): Promise<ContentItem> {
  const body: CreateContentBody = { id, name, type: 'sql', visibility: 'user', content: { schema_version: '1.0', sql, content_id: id } }
  let response: Response
  try {
    response = await fetch(contentPath(ref), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', Version: '2' },
      body: JSON.stringify(body),
    })
  } catch {
    throw new ApiError('Cannot reach the Stratum server. Check your connection and try again.', 0)
  }
  const payload = (await response.json().catch(() => undefined)) as { message?: string } | undefined
  if (!response.ok) throw new ApiError(payload?.message ?? `Request failed with status ${response.status}`, response.status)
  return payload as ContentItem
}

export function useCreateSnippet() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createSnippet,
    onSuccess: (item, { ref }) => {
      queryClient.setQueryData(contentKeys.snippet(ref, item.id), item)
      queryClient.setQueryData<ContentItem[]>(contentKeys.snippets(ref), (list) => (list ? [item, ...list.filter((s) => s.id !== item.id)] : list))
      return queryClient.invalidateQueries({ queryKey: contentKeys.snippets(ref) })
    },
  })
}
