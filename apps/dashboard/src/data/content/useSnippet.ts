import { useQuery } from '@tanstack/react-query'
import type { ContentItem } from '@stratum/contracts'
import { api } from '../api'
import { contentPath } from './contentPath'
import { contentKeys } from './keys'

export const getSnippet = (ref: string, id: string, signal?: AbortSignal) =>
  api<ContentItem>(contentPath(ref, `/item/${encodeURIComponent(id)}`), { signal })

export function useSnippet(ref: string, id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: contentKeys.snippet(ref, id ?? ''),
    queryFn: ({ signal }) => getSnippet(ref, id!, signal),
    enabled: Boolean(ref && id) && enabled,
    retry: false,
  })
}
