import { useQuery } from '@tanstack/react-query'
import type { Backup } from '@stratum/contracts'
import { api } from '../api'
import { backupKeys } from './keys'

export const getDownloadableBackups = (ref: string, signal?: AbortSignal) =>
  api<{ backups: Backup[] }>(`/platform/database/${encodeURIComponent(ref)}/backups/downloadable-backups`, { signal })

/** Logical backups only, newest first: they restore into any empty Postgres. */
export function useDownloadableBackups(ref: string | undefined, enabled = true) {
  return useQuery({
    queryKey: backupKeys.downloadable(ref ?? ''),
    queryFn: ({ signal }) => getDownloadableBackups(ref!, signal),
    enabled: Boolean(ref) && enabled,
    select: (data) => [...data.backups].sort((a, b) => b.inserted_at.localeCompare(a.inserted_at)),
  })
}
