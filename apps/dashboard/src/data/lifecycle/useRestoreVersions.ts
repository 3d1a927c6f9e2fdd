import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { RestoreVersions } from '@stratum/contracts'
import { api } from '../api'
import { lifecycleKeys } from './keys'

export const getRestoreVersions = (ref: string, signal?: AbortSignal) =>
  api<RestoreVersions>(`/platform/projects/${encodeURIComponent(ref)}/restore/versions`, { signal })

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
