import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { Backup } from '@stratum/contracts'
import { api } from '../api'
import { backupKeys } from './keys'

export const getDownloadableBackups = (ref: string, signal?: AbortSignal) =>
  api<{ backups: Backup[] }>(`/platform/database/${encodeURIComponent(ref)}/backups/downloadable-backups`, { signal })

/** Logical backups only, newest first: they restore into any empty Postgres. */
export const downloadableBackupsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: backupKeys.downloadable(ref ?? ''),
    queryFn: ref ? ({ signal }) => getDownloadableBackups(ref, signal) : skipToken,
    select: (data) => [...data.backups].sort((a, b) => b.inserted_at.localeCompare(a.inserted_at)),
  })

export function useDownloadableBackups(ref: string | undefined, enabled = true) {
  return useQuery({ ...downloadableBackupsQuery(ref), enabled })
}
