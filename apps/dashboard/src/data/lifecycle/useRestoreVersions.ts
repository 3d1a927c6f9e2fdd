import { useQuery } from '@tanstack/react-query'
import type { RestoreVersions } from '@stratum/contracts'
import { api } from '../api'
import { lifecycleKeys } from './keys'

export const getRestoreVersions = (ref: string, signal?: AbortSignal) =>
  api<RestoreVersions>(`/platform/projects/${encodeURIComponent(ref)}/restore/versions`, { signal })

/** Postgres versions a paused project can be restored onto, newest first. */
export function useRestoreVersions(ref: string | undefined, enabled = true) {
  return useQuery({
    queryKey: lifecycleKeys.restoreVersions(ref ?? ''),
    queryFn: ({ signal }) => getRestoreVersions(ref!, signal),
    enabled: Boolean(ref) && enabled,
    staleTime: 5 * 60_000,
  })
}
