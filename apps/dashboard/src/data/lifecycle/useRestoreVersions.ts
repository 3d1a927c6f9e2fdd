import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { lifecycleKeys } from './keys'

export const getRestoreVersions = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/restore/versions', { params: { ref }, signal })

/** Postgres versions a paused project can be restored onto, newest first. */
export const restoreVersionsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: lifecycleKeys.restoreVersions(ref ?? ''),
    queryFn: ref ? ({ signal }) => getRestoreVersions(ref, signal) : skipToken,
    staleTime: 5 * 60_000,
  })

export function useRestoreVersions(ref: string | undefined, enabled = true) {
  return useQuery({ ...restoreVersionsQuery(ref), enabled })
}
