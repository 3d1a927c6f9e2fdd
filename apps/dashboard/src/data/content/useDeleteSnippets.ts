import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ContentItem } from '@stratum/contracts'
import { request } from '../request'
import { contentKeys } from './keys'
import { dropSnippets, refreshCounts } from './snippetCache'

export const deleteSnippets = ({ ref, ids }: { ref: string; ids: string[] }) =>
  request('DELETE /platform/projects/{ref}/content', { params: { ref }, query: { ids: ids.join(',') } })

export function useDeleteSnippets() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteSnippets,
    onSuccess: (_deleted, { ref, ids }) => {
      queryClient.setQueryData<ContentItem[]>(contentKeys.snippets(ref), (list) => list?.filter((s) => !ids.includes(s.id)))
      dropSnippets(queryClient, ref, ids)
      ids.forEach((id) => queryClient.removeQueries({ queryKey: contentKeys.snippet(ref, id) }))
      void refreshCounts(queryClient, ref)
    },
  })
}
