import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { contentKeys } from './keys'

/**
 * The user's folders at the root. The listing also pages the snippets outside any folder, which
 * the explorer reads as a section of its own (useSnippetList): one is enough here.
 */
export const getFolders = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/content/folders', { params: { ref }, query: { type: 'sql', visibility: 'private', limit: 1 }, signal }).then(
    (page) => page.data.folders,
  )

export const foldersQuery = (ref: string) => queryOptions({ queryKey: contentKeys.folders(ref), queryFn: ref ? ({ signal }) => getFolders(ref, signal) : skipToken })

export function useFolders(ref: string) {
  return useQuery(foldersQuery(ref))
}
