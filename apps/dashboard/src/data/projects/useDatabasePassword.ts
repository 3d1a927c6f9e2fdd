import { useQuery } from '@tanstack/react-query'
import { api } from '../api'
import { projectKeys } from './keys'

export const getDatabasePassword = (ref: string, signal?: AbortSignal) =>
  api<{ db_pass: string }>(`/platform/projects/${encodeURIComponent(ref)}/db-password`, { signal })

/** Fetched only when the user asks to reveal it, and never kept around longer than needed. */
export function useDatabasePassword(ref: string, enabled: boolean) {
  return useQuery({
    queryKey: projectKeys.dbPassword(ref),
    queryFn: ({ signal }) => getDatabasePassword(ref, signal),
    enabled,
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  })
}
