import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { ContentItem } from '@stratum/contracts'
import { api } from '../api'
import { contentPath } from './contentPath'
import { contentKeys } from './keys'

export const getSnippet = (ref: string, id: string, signal?: AbortSignal) =>
  api<ContentItem>(contentPath(ref, `/item/${encodeURIComponent(id)}`), { signal })

export const snippetQuery = (ref: string, id: string | undefined) =>
  queryOptions({
    queryKey: contentKeys.snippet(ref, id ?? ''),
    queryFn: ref && id ? ({ signal }) => getSnippet(ref, id, signal) : skipToken,
    retry: false,
  })

export function useSnippet(ref: string, id: string | undefined, enabled = true) {
  return useQuery({ ...snippetQuery(ref, id), enabled })
}
